"""Sphinx extension: verdicts on the paper's claims, computed from the claims ledger.

``{claim-verdict} id1 id2 ...`` wraps the text about one claim of the paper (its
content is parsed as usual) and appends, when the page is written, one row per claim
id (checks, holding, kinds and ranges of evidence) and a verdict computed from the
checks that this build collected (``env.stumplib_claims``, see ``claims_ledger``):

- *reproduced*: every id has checks, all hold, and at least one is exact or asymptotic;
- *partly*: every check holds, but the evidence is numerical only, or an id has no
  check;
- *not tested*: no id has a check;
- *fails*: some check fails (a build warning already).

``{claims-verdicts}`` is replaced by a summary table of every verdict on its page. An id
that is not (yet) one of :data:`stumplib.book.claims.IDS` is shown as having no check.
"""

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive

import claims_ledger

VERDICTS = ("reproduced", "partly", "not tested", "fails")
ROW_HEADER = ("Claim id", "Checks", "Evidence")
ROW_WIDTHS = (26, 16, 58)
SUMMARY_HEADER = ("Claim of the paper", "Claim ids", "Verdict")
SUMMARY_WIDTHS = (50, 34, 16)


class verdict_placeholder(nodes.General, nodes.Element):
    """Where the evidence rows and the verdict of one claim go."""


class summary_placeholder(nodes.General, nodes.Element):
    """Where the summary of every verdict on the page goes."""


class ClaimVerdict(Directive):
    """``{claim-verdict} ids...`` with ``:title:`` (its heading).

    A claim and its verdict.
    """

    required_arguments = 1
    final_argument_whitespace = True
    option_spec: ClassVar[dict] = {"title": str}
    has_content = True

    def run(self):
        """Build the directive's nodes."""
        title = self.options.get("title", " ".join(self.arguments))
        section = nodes.container(classes=["claim-verdict"])
        section += nodes.rubric(text=title)
        self.state.nested_parse(self.content, self.content_offset, section)
        section += verdict_placeholder(ids_=self.arguments[0].split(), title=title)
        return [section]


class ClaimsVerdicts(Directive):
    """``{claims-verdicts}``: the table of every verdict on the page."""

    def run(self):
        """Build the directive's nodes."""
        return [summary_placeholder()]


def verdict(rows):
    """The verdict and its reason from per-id rows. Dicts as made by :func:`id_rows`."""
    checked = [r for r in rows if r["checks"]]
    if not checked:
        return "not tested", "no check in this build"
    if any(r["holding"] < r["checks"] for r in checked):
        return "fails", "a check fails"
    missing = [r["id"] for r in rows if not r["checks"]]
    if missing:
        return "partly", "no check of " + ", ".join(missing)
    if not any(kind in ("exact", "asymptotic") for r in checked for kind in r["kinds"]):
        return "partly", "all checks hold, but the evidence is numerical only"
    return "reproduced", "all checks hold, with exact or asymptotic evidence"


def id_rows(checks, claim_ids):
    """One dict per id (``claims_ledger.claim_summary``; zero checks if none)."""
    found = {s["id"]: s for s in claims_ledger.claim_summary(checks)}
    empty = {"checks": 0, "holding": 0, "kinds": {}, "margin": None}
    return [found.get(i, dict(empty, id=i)) for i in claim_ids]


def _rows_table(rows):
    cells = []
    for r in rows:
        kinds = claims_ledger.kind_paragraphs(r["kinds"]) or [nodes.paragraph(text="—")]
        count = f"{r['holding']} of {r['checks']} hold" if r["checks"] else "no check"
        cells.append(
            [
                [nodes.paragraph("", "", nodes.literal(text=r["id"]))],
                [nodes.paragraph(text=count)],
                kinds,
            ]
        )
    return claims_ledger._table(cells, ROW_HEADER, ROW_WIDTHS, "claim-verdict-evidence")


def _verdict_paragraph(name, reason):
    return nodes.paragraph(
        "",
        "",
        nodes.Text("Verdict: "),
        nodes.strong(text=name, classes=[f"verdict-{name.replace(' ', '-')}"]),
        nodes.Text(f" ({reason})."),
    )


def note_verdict_doc(app, doctree):
    """A page with verdicts depends on every chapter, as the ledger does."""
    if any(doctree.findall(verdict_placeholder)):
        if not hasattr(app.env, "stumplib_ledger_docs"):
            app.env.stumplib_ledger_docs = set()
        app.env.stumplib_ledger_docs.add(app.env.docname)


def fill_verdicts(app, doctree, docname):
    """Replace each placeholder by its rows and verdict, then the summary."""
    checks = claims_ledger.ordered_checks(app.env)
    summary = []
    for placeholder in list(doctree.findall(verdict_placeholder)):
        rows = id_rows(checks, placeholder["ids_"])
        name, reason = verdict(rows)
        summary.append((placeholder["title"], placeholder["ids_"], name))
        placeholder.replace_self([_rows_table(rows), _verdict_paragraph(name, reason)])
    for placeholder in list(doctree.findall(summary_placeholder)):
        cells = [
            [
                [nodes.paragraph(text=title)],
                [nodes.paragraph("", "", *_literals(ids))],
                [nodes.paragraph("", "", nodes.strong(text=name))],
            ]
            for title, ids, name in summary
        ]
        placeholder.replace_self(
            claims_ledger._table(
                cells, SUMMARY_HEADER, SUMMARY_WIDTHS, "claims-verdicts"
            )
        )


def _literals(ids):
    parts = []
    for k, claim_id in enumerate(ids):
        parts += [nodes.Text(", ")] if k else []
        parts.append(nodes.literal(text=claim_id))
    return parts


def setup(app):
    """Register the extension with Sphinx."""
    app.setup_extension("claims_ledger")
    app.add_node(verdict_placeholder)
    app.add_node(summary_placeholder)
    app.add_directive("claim-verdict", ClaimVerdict)
    app.add_directive("claims-verdicts", ClaimsVerdicts)
    app.connect("doctree-read", note_verdict_doc)
    app.connect("doctree-resolved", fill_verdicts)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
