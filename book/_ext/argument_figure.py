"""Sphinx extension: the figure of the whole argument, drawn when its page is read.

The directive ``argument-figure`` is a ``figure`` whose image is drawn by
:func:`stumplib.book.argument.argument_figure` from the committed full-scale runs
(:data:`stumplib.book.argument.FROZEN_RUNS`) into :data:`IMAGE` (under ``_build``,
relative to the book's root) each time the page is read; its options (``name``,
``alt``, ``width``) and its content (the caption) are the ``figure`` directive's. Both
builders take the same PNG, so the PDF shows the figure too.
"""

from pathlib import Path

from sphinx.directives.patches import Figure

#: The drawn image, relative to the source folder (the book's root).
IMAGE = "_build/generated/argument.png"


def draw(path):
    """Draw the figure of the argument into ``path`` (PNG at the book's DPI)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stumplib.book import argument, plotting

    fig = argument.argument_figure(*argument.frozen_runs())
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=plotting.DPI)
    plt.close(fig)


class ArgumentFigure(Figure):
    """``figure`` without an argument: its image is drawn as the page is read."""

    required_arguments = 0

    def run(self):
        """Draw the image, then build the figure node as ``figure`` does."""
        env = self.state.document.settings.env
        from stumplib.book import argument

        draw(Path(env.srcdir) / IMAGE)
        env.note_dependency(argument.__file__)
        env.note_dependency(str(argument.FROZEN_RUNS))
        self.arguments = ["/" + IMAGE]
        return super().run()


def setup(app):
    """Register the extension with Sphinx."""
    app.add_directive("argument-figure", ArgumentFigure)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
