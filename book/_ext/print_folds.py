"""Sphinx extension: the PDF leaves out what the HTML folds.

myst-nb folds a code cell's source, its outputs or the whole cell under a toggle in the
HTML (tags ``hide-input``, ``hide-output``, ``hide-cell``: the cell's ``hide_mode``)
and prints them in full for every other builder. A printed page cannot be unfolded, so
for the LaTeX builder this drops the folded parts instead: the PDF carries the
narrative, figures, tables and the code the HTML shows open. What myst-nb removes
(``remove-input``, ``remove-output``, ``remove-cell``) is already absent from every
builder's document. Notebooks and their outputs are unchanged.
"""

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

#: The parts of a cell (myst-nb ``nb_element``) that each ``hide_mode`` folds.
FOLDED = {
    "input": {"cell_code_source"},
    "output": {"cell_code_output"},
    "input+output": {"cell_code_source", "cell_code_output"},
    "all": {"cell_code_source", "cell_code_output"},
}


def folded_parts(cell):
    """The children of a myst-nb code cell that the HTML folds, in order.

    Parameters
    ----------
    cell : docutils.nodes.container
        A container with ``nb_element == "cell_code"``.

    Returns
    -------
    list of docutils.nodes.Node
        Its source and/or output containers that the cell's ``hide_mode`` folds.
    """
    parts = FOLDED.get(cell.get("hide_mode"), set())
    return [child for child in cell.children if child.get("nb_element") in parts]


class DropFoldedCells(SphinxPostTransform):
    """Remove every folded part of every code cell (LaTeX only); empty cells go too."""

    default_priority = 199  # where myst-nb folds them for the HTML
    formats = ("latex",)

    def run(self, **kwargs):
        """Drop the folded parts of the document's code cells."""
        cells = [
            c
            for c in self.document.findall(nodes.container)
            if c.get("nb_element") == "cell_code" and c.get("hide_mode")
        ]
        for cell in cells:
            for part in folded_parts(cell):
                cell.remove(part)
            if not cell.children:
                cell.parent.remove(cell)


def setup(app):
    """Register the extension with Sphinx."""
    app.add_post_transform(DropFoldedCells)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
