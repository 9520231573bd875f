"""Sphinx extension: verdicts on the paper's sentences, computed from the claim checks.

A sentence of the paper declares, next to it, the checks that test its content::

    ```{claim-verdict}
    :title: The boundary limitation
    :main: boundary: Monte Carlo integrated risk; boundary-slope
    :also: boundary: collapses onto the negatives
    ```

``:main:`` names the checks of the sentence's main statement, ``:also:`` those of the
rest of its content, each a list of references separated by ``;``: a check's key
(``key=`` of :func:`stumplib.book.claims.check`) or ``<claim id>: <words>`` (the checks
of that claim whose statement contains the words; :func:`stumplib.book.claims.find`).
When the page is written, the directive's content is followed by one row per declared
check found in this build (``env.stumplib_claims``, see ``claims_ledger``) and the
verdict of :func:`stumplib.book.claims.verdict`: *reproduced* only if the main
statement's own checks include exact or asymptotic evidence from a check that declares
its two sides (where its measured and its expected value come from), *numerical*
otherwise; a sentence cannot inherit a verdict from a check it does not declare. In
HTML the rows are folded under a summary, the verdict above them. A reference that
names no check, a key that names more than one, and a declared replay or exercise
(never evidence) are build warnings (errors under -W).

``{claims-verdicts}`` is replaced by a summary table of every verdict on its page, and
``{evidence-kinds}`` (``claims_ledger``) by the definitions of the kinds of evidence.
"""

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.util import logging

import claims_ledger
from stumplib.book import claims

logger = logging.getLogger(__name__)
ROW_HEADER = ("Declared check", "For", "Result")
ROW_WIDTHS = (50, 14, 36)
SUMMARY_HEADER = ("Sentence of the paper", "Claim ids", "Verdict")
SUMMARY_WIDTHS = (50, 34, 16)


class verdict_placeholder(nodes.General, nodes.Element):
    """Where the declared checks and the verdict of one sentence go."""


class summary_placeholder(nodes.General, nodes.Element):
    """Where the summary of every verdict on the page goes."""


def references(text):
    """The references of a ``:main:`` or ``:also:`` option, split at ``;``.

    Parameters
    ----------
    text : str or None
        The option's value.

    Returns
    -------
    list of str
    """
    return [r.strip() for r in (text or "").split(";") if r.strip()]


class ClaimVerdict(Directive):
    """``{claim-verdict}`` with ``:title:``, ``:main:`` and ``:also:``.

    A sentence of the paper, the checks it declares and its verdict.
    """

    has_content = True
    option_spec: ClassVar[dict] = {
        "title": directives.unchanged_required,
        "main": directives.unchanged,
        "also": directives.unchanged,
    }

    def run(self):
        """Build the directive's nodes."""
        title = self.options.get("title", "")
        if not title:
            raise self.error("claim-verdict needs a :title:")
        section = nodes.container(classes=["claim-verdict"])
        # one inline child: the theme lays a rubric out as a flex column
        section += nodes.rubric(
            "", "", nodes.inline("", "", *claims_ledger.math_text(title))
        )
        self.state.nested_parse(self.content, self.content_offset, section)
        main, also = (references(self.options.get(k)) for k in ("main", "also"))
        if not main:
            raise self.error(
                "claim-verdict needs a :main: (the checks of its statement)"
            )
        try:
            for reference in main + also:
                claims.find([], reference)
        except ValueError as error:
            raise self.error(str(error)) from None
        section += verdict_placeholder(main=main, also=also, title=title)
        return [section]


class ClaimsVerdicts(Directive):
    """``{claims-verdicts}``: the table of every verdict on the page."""

    def run(self):
        """Build the directive's nodes."""
        return [summary_placeholder()]


def declared(checks, main, also, docname=None):
    """The checks a sentence declares.

    Returns (rows, missing): one row (reference, "main" or "other", record) per check
    found, and the references that name no check. Warns about a reference that names
    no check, a key that names several and a declared replay or exercise.
    """
    rows, missing = [], []
    for role, refs in (("main", main), ("other", also)):
        for reference in refs:
            found = claims.find(checks, reference)
            if not found:
                missing.append(reference)
                logger.warning(
                    f"results: {reference!r} names no check in this build",
                    location=docname,
                )
            elif ":" not in reference and len(found) > 1:
                logger.warning(
                    f"results: the key {reference!r} names {len(found)} checks",
                    location=docname,
                )
            for check in found:
                if check["evidence"] in claims.NOT_EVIDENCE:
                    logger.warning(
                        f"results: {reference!r} is a {check['evidence']} check, "
                        "which is never evidence for a sentence",
                        location=docname,
                    )
                rows.append((reference, role, check))
    return rows, missing


def _rows_table(app, docname, rows, missing):
    cells = []
    for _reference, role, check in rows:
        uri = (
            app.builder.get_relative_uri(docname, check["docname"])
            + "#"
            + check["anchor"]
        )
        cells.append(
            [
                [
                    nodes.paragraph(
                        "",
                        "",
                        nodes.literal(text=check["id"]),
                        nodes.Text(": "),
                        nodes.reference(
                            "",
                            "",
                            *claims_ledger.math_text(check["statement"]),
                            internal=True,
                            refuri=uri,
                        ),
                    )
                ],
                [nodes.paragraph(text="main" if role == "main" else "other")],
                [
                    nodes.paragraph(
                        "",
                        "",
                        nodes.strong(text="holds" if check["holds"] else "FAILS"),
                        nodes.Text(", "),
                        *claims_ledger.evidence_nodes(check),
                    ),
                    claims_ledger.sides_paragraph(check),
                ],
            ]
        )
    for reference in missing:
        cells.append(
            [
                [nodes.paragraph("", "", nodes.literal(text=reference))],
                [nodes.paragraph(text="—")],
                [nodes.paragraph(text="no such check in this build")],
            ]
        )
    found = claims_ledger.table(cells, ROW_HEADER, ROW_WIDTHS, "claim-verdict-evidence")
    held = sum(c["holds"] for _, _, c in rows)
    summary = (
        f"The {len(rows) + len(missing)} declared checks: {held} of "
        f"{len(rows) + len(missing)} hold"
    )
    return [
        nodes.raw(
            "",
            f'<details class="claim-verdict-checks"><summary>{summary}</summary>',
            format="html",
        ),
        found,
        nodes.raw("", "</details>", format="html"),
    ]


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
        claims_ledger.note_dependent_doc(app.env, app.env.docname)


def fill_verdicts(app, doctree, docname):
    """Replace each placeholder by its rows and verdict, then the summary."""
    checks = claims_ledger.ordered_checks(app.env)
    summary = []
    for placeholder in list(doctree.findall(verdict_placeholder)):
        rows, missing = declared(
            checks, placeholder["main"], placeholder["also"], docname
        )
        name, reason = claims.verdict(
            [c for _, role, c in rows if role == "main"],
            [c for _, role, c in rows if role == "other"],
            missing,
        )
        ids = [i for i in claims.IDS if any(c["id"] == i for _, _, c in rows)]
        summary.append((placeholder["title"], ids, name))
        placeholder.replace_self(
            [
                _verdict_paragraph(name, reason),
                *_rows_table(app, docname, rows, missing),
            ]
        )
    for placeholder in list(doctree.findall(summary_placeholder)):
        cells = [
            [
                [nodes.paragraph("", "", *claims_ledger.math_text(title))],
                [nodes.paragraph("", "", *_literals(ids))],
                [nodes.paragraph("", "", nodes.strong(text=name))],
            ]
            for title, ids, name in summary
        ]
        placeholder.replace_self(
            claims_ledger.table(
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
    return {"version": "2.0", "parallel_read_safe": True, "parallel_write_safe": True}
