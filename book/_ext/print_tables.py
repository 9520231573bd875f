"""Sphinx extension: in the PDF, the book's generated tables keep their column widths.

The tables that the book's extensions build (the claims ledger, the verdicts of
``results``: ``claims_ledger.table``) give each column a width. Sphinx's LaTeX writer
ignores widths it was not told are given and sizes the columns from their content
(``tabulary``), which squeezes a column of claim ids below the width of one id; and a
``tabulary`` cannot break across pages, so a long ledger group ran off the page. For the
LaTeX builder only, this marks such a table ``colwidths-given`` (its widths are used)
and, where it stands directly in a section, ``longtable`` (it breaks across pages; a
longtable cannot be nested in a box). Markdown tables (``colwidths-auto``) and the HTML
are unchanged.
"""

from docutils import nodes


def has_given_widths(table):
    """Whether a table's columns carry widths chosen by whoever built it.

    Parameters
    ----------
    table : docutils.nodes.table
        The table.

    Returns
    -------
    bool
        True if every column spec has a width and the table is not ``colwidths-auto``.
    """
    specs = list(table.findall(nodes.colspec))
    return (
        bool(specs)
        and all(spec.get("colwidth") for spec in specs)
        and "colwidths-auto" not in table["classes"]
    )


def mark_given_widths(app, doctree, docname):
    """Mark every table of the document that has given widths (LaTeX builder only).

    Runs after the book's extensions have filled in their tables (``doctree-resolved``).
    """
    if app.builder.format != "latex":
        return
    for table in list(doctree.findall(nodes.table)):
        if not has_given_widths(table):
            continue
        table["classes"].append("colwidths-given")
        if isinstance(table.parent, (nodes.section, nodes.document)):
            table["classes"].append("longtable")


def setup(app):
    """Register the extension with Sphinx."""
    app.connect("doctree-resolved", mark_given_widths, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
