"""Sphinx extension: the claims-ledger page, built from the executed notebooks alone.

Each check of :func:`stumplib.book.claims.check` shows one output with two parts: the
printed ``claim <id>: ...`` line and a structured record (MIME type
:data:`stumplib.book.claims.MIME`). While a notebook page is read, its records are taken
from the executed notebook that myst-nb wrote for this very page, matched in order
with the claim lines of the rendered output blocks (which get anchors), and stored
in the environment. The ``{claims-ledger}`` directive is then replaced by a summary
(one row per claim) and the table of every check. Nothing written by an execution
outside the build is read. A claim id that no chapter checks, a failing check, or a
claim line that does not match its record is a build warning (an error under -W).
"""

import re
from pathlib import Path

import nbformat
from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.util import logging

from stumplib.book import claims

logger = logging.getLogger(__name__)
HEADER = ("Claim", "Statement", "Result")
WIDTHS = (22, 53, 25)
SUMMARY_HEADER = ("Claim", "Checks", "Evidence", "Closest to its limit")
SUMMARY_WIDTHS = (28, 12, 38, 22)


class ledger_placeholder(nodes.General, nodes.Element):
    """Where the ledger goes once every chapter has been read."""


class ClaimsLedger(Directive):
    """``{claims-ledger}``: the summary and table of every claim check in the book."""

    def run(self):
        """Build the directive's nodes."""
        return [ledger_placeholder()]


def _store(env):
    if not hasattr(env, "stumplib_claims"):
        env.stumplib_claims = {}
    return env.stumplib_claims


def executed_records(env, docname):
    """The check records in the notebook that myst-nb executed (or took from its cache).

    ``docname`` names the page.
    """
    folder = getattr(getattr(env, "mystnb_config", None), "output_folder", None)
    if not folder or Path(env.doc2path(docname)).suffix != ".ipynb":
        return []
    path = Path(folder, *docname.split("/")).with_suffix(".ipynb")
    if not path.is_file():
        return []
    return claims.records(nbformat.read(path, as_version=4))


def collect_checks(app, doctree):
    """Match the claim lines of one document with its records.

    Anchor their output blocks.
    """
    docname = app.env.docname
    records = executed_records(app.env, docname)
    found, k = [], 0
    blocks = (
        b for b in doctree.findall(nodes.literal_block) if "output" in b["classes"]
    )
    for n, block in enumerate(blocks):
        lines = claims.parse_lines(block.astext())
        if lines:
            block["ids"].append(f"claim-check-{n}")
        for shown in lines:
            record = records[k] if k < len(records) else None
            k += 1
            if record is None or claims.parse_lines(claims.line(record)) != [shown]:
                logger.warning(
                    f"claims ledger: the {shown['id']!r} line in {docname} "
                    f"(claim-check-{n}) has no matching record in its output",
                    location=docname,
                )
                continue
            found.append(dict(record, docname=docname, anchor=f"claim-check-{n}"))
    if k < len(records):
        logger.warning(
            f"claims ledger: {len(records) - k} record(s) in {docname} have no "
            "claim line in the rendered outputs",
            location=docname,
        )
    _store(app.env)[docname] = found


def purge(app, env, docname):
    """Forget the records of a page that is read again."""
    _store(env).pop(docname, None)
    getattr(env, "stumplib_ledger_docs", set()).discard(docname)


def merge(app, env, docnames, other):
    """Merge the records of a parallel read."""
    _store(env).update({d: _store(other)[d] for d in docnames if d in _store(other)})


def always_outdated(app, env, added, changed, removed):
    """The ledger page depends on every chapter: rewrite it on every build."""
    return [d for d in env.found_docs if _has_ledger(env, d)]


def _has_ledger(env, docname):
    return docname in getattr(env, "stumplib_ledger_docs", set())


def note_dependent_doc(env, docname):
    """Remember that page ``docname`` shows what every chapter checks.

    It is then rewritten on every build (the ledger, the verdicts), and loads MathJax
    (its statements may hold maths, added after the page was read).
    """
    if not hasattr(env, "stumplib_ledger_docs"):
        env.stumplib_ledger_docs = set()
    env.stumplib_ledger_docs.add(docname)
    env.get_domain("math").data["has_equations"][docname] = True


#: Inline maths in a check's statement or a sentence's title: ``$...$`` (no ``$``
#: inside; a lone ``$`` is text).
INLINE_MATH = re.compile(r"\$([^$\n]+)\$")


def math_text(text):
    """``text`` as docutils nodes: each ``$...$`` typeset as inline maths.

    A check's statement and a verdict's title are plain strings; a formula in them is
    written as TeX between dollars, as in the prose.
    """
    found, start = [], 0
    for match in INLINE_MATH.finditer(text):
        if match.start() > start:
            found.append(nodes.Text(text[start : match.start()]))
        found.append(nodes.math(text=match.group(1)))
        start = match.end()
    if start < len(text):
        found.append(nodes.Text(text[start:]))
    return found


def note_ledger_doc(app, doctree):
    """Remember which page holds the ledger."""
    if any(doctree.findall(ledger_placeholder)):
        note_dependent_doc(app.env, app.env.docname)


def ordered_checks(env):
    """Every collected check, in the order of claims.IDS, then of the documents."""
    checks = [c for doc in sorted(_store(env)) for c in _store(env)[doc]]
    return sorted(checks, key=lambda c: claims.IDS.index(c["id"]))


def check_consistency(app, env):
    """Warn (an error under -W) about unchecked ids and failing checks."""
    checks = ordered_checks(env)
    for claim_id in sorted(set(claims.IDS) - {c["id"] for c in checks}):
        logger.warning(f"claims ledger: claim {claim_id!r} is checked by no chapter")
    keys = [c["key"] for c in checks if c.get("key")]
    for key in sorted({k for k in keys if keys.count(k) > 1}):
        logger.warning(f"claims ledger: the key {key!r} names {keys.count(key)} checks")
    for c in checks:
        if not c["holds"]:
            logger.warning(
                f"claims ledger: claim {c['id']!r} FAILS in {c['docname']} "
                f"({c['anchor']})"
            )


def fill_ledger(app, doctree, docname):
    """Replace the placeholder by the summary and the table of checks."""
    for placeholder in list(doctree.findall(ledger_placeholder)):
        checks = ordered_checks(app.env)
        figure = _margin_figure(app, docname, checks)
        placeholder.replace_self(
            [
                _overview(checks),
                _summary(checks),
                *figure,
                *_grouped_tables(app, docname, checks),
            ]
        )


def _group(title, rows):
    """One folded (HTML) group of check rows under ``title`` (HTML)."""
    return [
        nodes.raw(
            "",
            f'<details class="claims-ledger-group"><summary>{title}</summary>',
            format="html",
        ),
        table(rows, HEADER, WIDTHS, "claims-ledger"),
        nodes.raw("", "</details>", format="html"),
    ]


def _counted(n, holding):
    return (
        f"{n} check{'s' if n > 1 else ''}, "
        f"{holding} of {n} {'hold' if n > 1 else 'holds'}"
    )


def _grouped_tables(app, docname, checks):
    """Every check, one table per claim, each folded (HTML) under its verdict.

    The exercises' answers follow, in a group of their own.
    """
    found = []
    for s in claim_summary(checks):
        rows = [_row(app, docname, c) for c in claim_checks(checks, s["id"])]
        found += _group(
            f"<code>{s['id']}</code>: {_counted(s['checks'], s['holding'])}", rows
        )
    exercises = [c for c in checks if c["evidence"] == "exercise"]
    if exercises:
        rows = [_row(app, docname, c) for c in exercises]
        holding = sum(c["holds"] for c in exercises)
        found += _group(
            f"Exercises (not claims): {_counted(len(exercises), holding)}", rows
        )
    return found


def claim_checks(checks, claim_id=None):
    """The checks of the paper's claims (of ``claim_id`` if given): no exercise."""
    return [
        c for c in checks if c["evidence"] != "exercise" and claim_id in (None, c["id"])
    ]


def _overview(checks):
    mine = claim_checks(checks)
    covered = len({c["id"] for c in mine})
    holding = sum(c["holds"] for c in mine)
    replays = sum(c["evidence"] == "replay" for c in mine)
    exercises = len(checks) - len(mine)
    text = (
        f"This build ran {len(mine)} checks covering {covered} of the "
        f"{len(claims.IDS)} claims; {holding} of them hold."
    )
    if replays:
        text += (
            f" {replays} of them {'are replays' if replays > 1 else 'is a replay'} "
            "(a result reproduced, not evidence for its claim)."
        )
    if exercises:
        text += (
            f" The answers of {exercises} exercise{'s' if exercises > 1 else ''} "
            "are checked too, listed apart at the end."
        )
    return nodes.paragraph(text=text)


def claim_summary(checks):
    """One dict per claim id that has checks (exercises are not claim checks).

    Number of checks, holding, kinds with spans, the largest margin among the checks
    whose shown digits resolve it (``claims.resolves``), and how many do not.
    """
    summary = []
    for claim_id in claims.IDS:
        mine = claim_checks(checks, claim_id)
        if not mine:
            continue
        kinds = {
            kind: sorted(
                {c["span"] for c in mine if c["evidence"] == kind and c["span"]}
            )
            for kind in claims.EVIDENCE
            if any(c["evidence"] == kind for c in mine)
        }
        margins = [
            claims.read_margin(c) for c in mine if claims.read_margin(c) is not None
        ]
        summary.append(
            {
                "id": claim_id,
                "checks": len(mine),
                "holding": sum(c["holds"] for c in mine),
                "kinds": kinds,
                "margin": max(margins) if margins else None,
                "unresolved": sum(claims.read_margin(c) is None for c in mine),
            }
        )
    return summary


def span_nodes(spans):
    """`` (<span>; <span>)``, each span as the literal its claim line prints."""
    if not spans:
        return []
    found = [nodes.Text(" (")]
    for k, span in enumerate(spans):
        found += [nodes.Text("; ")] if k else []
        found.append(nodes.literal(text=span, classes=["claim-span"]))
    return [*found, nodes.Text(")")]


def evidence_nodes(check):
    """``<kind> (<span>)``, the span as the literal its claim line prints."""
    return [
        nodes.Text(check["evidence"]),
        *span_nodes([check["span"]] if check["span"] else []),
    ]


def kind_paragraphs(kinds):
    """One paragraph per kind of evidence: the kind in bold, then its spans.

    A kind that is never evidence for a claim (a replay) says so.
    """
    return [
        nodes.paragraph(
            "",
            "",
            nodes.strong(text=kind),
            *span_nodes(spans),
            nodes.Text(" — not evidence" if kind in claims.NOT_EVIDENCE else ""),
        )
        for kind, spans in kinds.items()
    ]


class EvidenceKinds(Directive):
    """``{evidence-kinds}``: the definition of each kind of evidence.

    From ``stumplib.book.claims.DEFINITIONS``, the one definition of each kind.
    """

    def run(self):
        """Build the directive's nodes."""
        return [evidence_definitions()]


def evidence_definitions():
    """A definition list of the kinds of evidence (``claims.DEFINITIONS``)."""
    found = nodes.definition_list(classes=["evidence-kinds"])
    for kind in claims.EVIDENCE:
        found += nodes.definition_list_item(
            "",
            nodes.term(text=kind),
            nodes.definition("", nodes.paragraph(text=claims.DEFINITIONS[kind])),
        )
    return found


def _summary(checks):
    rows = []
    for s in claim_summary(checks):
        kinds = kind_paragraphs(s["kinds"])
        margin = "—" if s["margin"] is None else f"{s['margin']:g} of its tolerance"
        if s["unresolved"]:
            margin += (
                f" ({s['unresolved']} finer than "
                f"{'their' if s['unresolved'] > 1 else 'its'} shown digits)"
            )
        rows.append(
            [
                [nodes.paragraph("", "", nodes.literal(text=s["id"]))],
                [nodes.paragraph(text=f"{s['holding']} of {s['checks']} hold")],
                kinds,
                [nodes.paragraph(text=margin)],
            ]
        )
    return table(rows, SUMMARY_HEADER, SUMMARY_WIDTHS, "claims-summary")


MARKERS = {
    "exact": ("s", "#1f5aa6"),
    "asymptotic": ("o", "#2e933c"),
    "numerical": ("D", "#d1495b"),
    "replay": ("v", "#7a7a7a"),
    "exercise": ("^", "#b07aa1"),
}
FIGURE = "claims-margins.png"
FINER = 1.25
CAPTION = (
    "How close each check comes to its tolerance: an upper bound on |measured − "
    "expected| / tolerance that the shown digits support, one marker per check, "
    "grouped by claim; 0 is an exact match and 1 the limit at which the check would "
    "fail. A check whose tolerance is finer than its shown digits holds, but its "
    "digits cannot say how closely: it is shown apart, hollow, in the column "
    "“finer than shown”. The marker gives the kind of evidence (replays and "
    "exercises are not evidence for a claim)."
)


def margin_plot(checks, path):
    """Draw every check's margin (|measured - expected| / tol) by claim.

    Save to ``path``.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stumplib.book import plotting

    plotting.use_book_style()
    ids = [i for i in claims.IDS if any(c["id"] == i for c in checks)]
    if any(c["evidence"] == "exercise" for c in checks):
        ids.append("exercises")
    checks = [
        dict(c, id="exercises") if c["evidence"] == "exercise" else c for c in checks
    ]
    fig, ax = plt.subplots(figsize=(6.2, 0.32 * len(ids) + 1.1))
    for kind, (marker, color) in MARKERS.items():
        mine = [c for c in checks if c["evidence"] == kind and c["margin"] is not None]
        if not mine:
            continue
        rows = [ids.index(c["id"]) for c in mine]
        jitter = [0.12 * ((k % 3) - 1) for k in range(len(mine))]
        read = [claims.read_margin(c) for c in mine]
        resolved = [m is not None for m in read]
        ax.scatter(
            [FINER if m is None else min(m, 1.05) for m in read],
            [r + j for r, j in zip(rows, jitter)],
            marker=marker,
            facecolors=[color if r else "none" for r in resolved],
            edgecolors=color,
            s=22,
            label=kind,
            zorder=3,
        )
    ax.axvline(1.0, color="0.3", linewidth=1.0, linestyle="--")
    ax.axvline((1.08 + FINER) / 2 - 0.04, color="0.6", linewidth=0.8)
    ax.set(
        yticks=range(len(ids)),
        yticklabels=ids,
        xlim=(-0.03, FINER + 0.08),
        ylim=(len(ids) - 0.5, -0.5),
        xlabel="|measured − expected| / tolerance",
    )
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0, FINER])
    ax.set_xticklabels(["0", "0.25", "0.5", "0.75", "1", "finer\nthan shown"])
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, title="evidence")
    fig.savefig(path)
    plt.close(fig)


def _margin_figure(app, docname, checks):
    """The margin figure as HTML (other builders: nothing)."""
    if app.builder.format != "html" or not checks:
        return []
    folder = Path(app.outdir) / "_images"
    folder.mkdir(parents=True, exist_ok=True)
    margin_plot(checks, folder / FIGURE)
    prefix = "../" * docname.count("/")
    html = (
        f'<figure class="claims-margins" id="fig-claims-margins">'
        f'<img src="{prefix}_images/{FIGURE}" style="width: 100%; height: auto;" '
        f'alt="Dot plot of every check of the book, one row per claim: the distance of '
        f"each measured value from its expectation as a fraction of its tolerance, "
        f'between 0 and 1 for every check that holds."/>'
        f"<figcaption><p>{CAPTION}</p></figcaption></figure>"
    )
    return [nodes.raw("", html, format="html")]


def _row(app, docname, check):
    """Three cells: id and link; statement; status, values and evidence."""
    uri = (
        app.builder.get_relative_uri(docname, check["docname"]) + "#" + check["anchor"]
    )
    link = nodes.reference(
        "",
        _short_title(app.env, check["docname"]),
        internal=True,
        refuri=uri,
        reftitle=app.env.titles[check["docname"]].astext(),
    )
    evidence = evidence_nodes(check)
    if check["evidence"] in claims.NOT_EVIDENCE:
        evidence.append(nodes.Text(" — not evidence for the claim"))
    return [
        [
            nodes.paragraph("", "", nodes.literal(text=check["id"])),
            nodes.paragraph("", "", link),
        ],
        [nodes.paragraph("", "", *math_text(check["statement"]))],
        [
            nodes.paragraph(
                "",
                "",
                nodes.strong(text="holds" if check["holds"] else "FAILS"),
            ),
            nodes.paragraph(text=f"measured {check['measured']}"),
            nodes.paragraph(text=f"expected {check['expected']} ± {check['tol']}"),
            nodes.paragraph("", "", nodes.Text("evidence: "), *evidence),
            sides_paragraph(check),
            *(
                [
                    nodes.paragraph(
                        "", "", nodes.Text("key: "), nodes.literal(text=check["key"])
                    )
                ]
                if check.get("key")
                else []
            ),
        ],
    ]


def sides_text(check):
    """The two sides a check compares, in words, or that it declares none.

    ``sides`` of :func:`stumplib.book.claims.check`: where the measured and where the
    expected value come from. A strong check without them makes no sentence of the
    results page *reproduced* (:func:`stumplib.book.claims.verdict`).
    """
    if claims.independent(check):
        measured, expected = check["sides"]
        return f"measured by {measured}; expected from {expected}"
    return "not declared"


def sides_paragraph(check):
    """``sides: ...`` (:func:`sides_text`), the second part emphasized if missing."""
    text = sides_text(check)
    return nodes.paragraph(
        "",
        "",
        nodes.Text("sides: "),
        nodes.Text(text) if claims.independent(check) else nodes.emphasis(text=text),
    )


def _short_title(env, docname):
    """``Chapter 3`` for a numbered chapter, else the page title."""
    number = env.toc_secnumbers.get(docname, {}).get("")
    if number:
        return "Chapter " + ".".join(map(str, number))
    return env.titles[docname].astext()


def table(rows, header, widths, css_class):
    """A docutils table: ``rows`` of cells (lists of nodes), ``header`` and ``widths``.

    Its class is ``css_class``; the columns carry their widths (see ``print_tables``).
    """
    node = nodes.table(classes=[css_class])
    group = nodes.tgroup(cols=len(header))
    node += group
    group += [nodes.colspec(colwidth=w) for w in widths]
    group += nodes.thead("", _table_row([[nodes.paragraph(text=h)] for h in header]))
    group += nodes.tbody("", *[_table_row(row) for row in rows])
    return node


def _table_row(cells):
    row = nodes.row()
    for content in cells:
        row += nodes.entry("", *content)
    return row


def setup(app):
    """Register the extension with Sphinx."""
    app.add_node(ledger_placeholder)
    app.add_directive("claims-ledger", ClaimsLedger)
    app.add_directive("evidence-kinds", EvidenceKinds)
    app.connect("doctree-read", collect_checks)
    app.connect("doctree-read", note_ledger_doc)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-check-consistency", check_consistency)
    app.connect("doctree-resolved", fill_ledger)
    return {
        "version": "2.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
