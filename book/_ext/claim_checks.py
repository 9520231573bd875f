"""Sphinx extension: a section's claim checks in one compact, folded "Checks" box.

A claim check prints one line (``claim <id>: holds | measured ... | evidence ...``,
:func:`stumplib.book.claims.check`) in a cell whose input is removed. In the HTML, each
run of such cells (consecutive cells whose outputs are text only, at least one claim
line among them, and no visible input) is wrapped in one
``<details class="claim-checks">`` whose summary names the claims and says whether they
hold; opened, it shows the full lines, wrapped to the column
(``book/_static/book.css``). The outputs themselves, which the claims ledger and CI
read, are unchanged, and other builders (LaTeX) get the cells as they were.
"""

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from stumplib.book import claims


class checks_box(nodes.General, nodes.Element):
    """A run of claim-check cells, folded under a summary (HTML only)."""


def visit_checks_box(self, node):
    """Open the folded box with its summary."""
    self.body.append(
        '<details class="claim-checks">\n<summary class="claim-checks-summary">'
        f"{self.encode(node['summary'])}</summary>\n"
    )


def depart_checks_box(self, node):
    """Close the folded box."""
    self.body.append("</details>\n")


def visit_passthrough(self, node):
    """Write nothing for the box itself (builders other than HTML)."""


def depart_passthrough(self, node):
    """Write nothing for the box itself (builders other than HTML)."""


def _claim_lines(cell):
    """The claim lines shown by a cell whose outputs are text only, else None."""
    if not (
        isinstance(cell, nodes.container)
        and cell.get("nb_element") == "cell_code"
        and cell.children
        and all(c.get("nb_element") == "cell_code_output" for c in cell.children)
    ):
        return None
    if any(cell.findall(nodes.image)) or any(cell.findall(nodes.raw)):
        return None
    blocks = [b for b in cell.findall(nodes.literal_block) if "output" in b["classes"]]
    found = [line for b in blocks for line in claims.parse_lines(b.astext())]
    return found or None


def summary(lines):
    """``Checks: 3 hold (rule, gradients)``.

    How many checks, their verdict, their claims.
    """
    ids = list(dict.fromkeys(line["id"] for line in lines))
    failing = sum(not line["holds"] for line in lines)
    verdict = f"{failing} of {len(lines)} FAIL" if failing else f"{len(lines)} hold"
    noun = "check" if len(lines) == 1 else "checks"
    if not failing and len(lines) == 1:
        verdict = "holds"
    return f"Claim {noun}: {verdict} ({', '.join(ids)})"


class FoldClaimChecks(SphinxPostTransform):
    """Wrap each run of claim-check cells in a :class:`checks_box` (HTML only)."""

    default_priority = 300  # after myst-nb has selected the output mime types
    formats = ("html",)

    def run(self, **kwargs):
        """Fold every run of claim-check cells of the document."""
        parents = {
            id(c.parent): c.parent for c in self.document.findall(nodes.container)
        }
        for parent in parents.values():
            if parent is None or isinstance(parent, checks_box):
                continue
            runs, run = [], []
            for child in parent.children:
                lines = _claim_lines(child)
                if lines:
                    run.append((child, lines))
                elif run:
                    runs.append(run)
                    run = []
            if run:
                runs.append(run)
            for run in runs:
                box = checks_box(
                    summary=summary([line for _, ls in run for line in ls])
                )
                first = run[0][0]
                parent.insert(parent.index(first), box)
                for cell, _ in run:
                    parent.remove(cell)
                    box.append(cell)


def setup(app):
    """Register the extension with Sphinx."""
    app.add_node(
        checks_box,
        html=(visit_checks_box, depart_checks_box),
        latex=(visit_passthrough, depart_passthrough),
        text=(visit_passthrough, depart_passthrough),
        man=(visit_passthrough, depart_passthrough),
        texinfo=(visit_passthrough, depart_passthrough),
    )
    app.add_post_transform(FoldClaimChecks)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
