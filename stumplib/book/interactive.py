"""Interactive figures for the HTML book: Bokeh models with in-browser callbacks.

Each builder returns an :class:`Interactive`: a Bokeh layout whose controls run
``CustomJS`` callbacks (no kernel, no server, no network), the values the browser check
compares against (``expected``) and a static matplotlib figure for the PDF.
:func:`show` displays it as one output with three renderings: ``text/html`` (the
Bokeh embed script and its root element, wrapped in ``div.stumplib-interactive``, with
``expected`` in a ``<script type="application/json">`` tag beside it), ``image/png``
(the static figure, which LaTeX takes) and ``text/plain``. The HTML loads no
library: the book's Sphinx extension ``book/_ext/interactive_figures.py`` serves
BokehJS from the book's own ``_static/bokeh`` on the pages that show such a figure.

The builders, one subject a module:

- :func:`stumplib.book.playground.playground`: one context, the head's weights and
  estimate computed live in the browser;
- :func:`stumplib.book.live_portrait.phase_portrait`: population flows and descents
  precomputed at build time, among which the browser selects.
- :func:`stumplib.book.corpus_playground.corpus_playground`: a corpus drawn and the
  corpus rule's descent run in the browser, equal to stumplib's run on the same corpus.

Stored outputs must reproduce on other floating-point environments (nbval compares
the HTML): every number a figure carries is rounded to the digits it needs, and the
document and element ids are derived from the figure's name instead of random UUIDs.
"""

import base64
import io
import json
import re
from dataclasses import dataclass, field

import matplotlib as mpl
from bokeh.document import Document
from bokeh.embed import components
from bokeh.models import Div

from .. import validation
from . import plotting

#: Colours (the book's matplotlib cycle, stumplib.book.plotting.STYLE).
COLORS = plotting.STYLE["axes.prop_cycle"].by_key()["color"]
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@dataclass(frozen=True)
class Interactive:
    """An interactive figure: its Bokeh model, the checked values, the static figure.

    Parameters
    ----------
    name : str
        Stem of the element ids (``stumplib-<name>``).
    model : object
        The Bokeh layout, with its controls and callbacks.
    expected : dict
        JSON-ready values the browser check compares against.
    static : callable
        ``() -> matplotlib.figure.Figure``: the static figure (the PDF's).
    alt : str
        A text description (the ``text/plain`` rendering).
    """

    name: str
    model: object
    expected: dict
    static: object = field(repr=False)
    alt: str = ""

    def html(self):
        """The ``text/html`` rendering: embed script, root element, expected values."""
        script, div = components(self.model)
        ids = {}
        for found in _UUID.findall(script + div):
            ids.setdefault(found, f"stumplib-{self.name}-{len(ids)}")
        html = script + div
        for old, new in ids.items():
            html = html.replace(old, new)
        expected = json.dumps(self.expected, sort_keys=True, separators=(",", ":"))
        return (
            f'<div class="stumplib-interactive" id="stumplib-{self.name}">'
            f"{html}"
            f'<script type="application/json" class="stumplib-expected">'
            f"{expected}</script></div>"
        )

    def png(self):
        """The static figure as PNG bytes at :data:`stumplib.book.plotting.DPI`."""
        buffer = io.BytesIO()
        with mpl.rc_context(plotting.STYLE):
            fig = self.static()
            fig.savefig(buffer, format="png", dpi=plotting.DPI)
        return buffer.getvalue()

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {
            "text/html": self.html(),
            "image/png": base64.b64encode(self.png()).decode("ascii"),
            "text/plain": self.alt,
        }


def _interactive(value, name):
    if not isinstance(value, Interactive):
        raise TypeError(f"{name} must be an Interactive (got {type(value).__name__})")
    return value


@validation.constrained(
    figure_=validation.Constraint(
        _interactive, ((None, TypeError), ("x", TypeError), (0.5, TypeError))
    )
)
def show(figure_):
    """Display an :class:`Interactive` as one output (HTML, PNG for the PDF, text).

    Parameters
    ----------
    figure_ : Interactive

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If ``figure_`` is not an :class:`Interactive`.
    """
    from IPython.display import display

    display(figure_)


def on_ready(layout, callback):
    """Run ``callback`` once the page has rendered ``layout`` (its own document).

    Parameters
    ----------
    layout : bokeh.model.Model
        The figure's root layout (a document of its own is made for it).
    callback : bokeh.models.CustomJS
        The callback that draws the figure's initial state.
    """
    document = Document()
    document.add_root(layout)
    document.js_on_event("document_ready", callback)


def note_div(text):
    """A figure's note in the book's look: small grey text across the figure's width.

    Parameters
    ----------
    text : str
        The note (HTML).

    Returns
    -------
    bokeh.models.Div
    """
    return Div(
        text=text,
        sizing_mode="stretch_width",
        styles={"font-size": "0.85em", "color": "#444"},
    )


def book_axes(plot):
    """The book's look on a Bokeh plot: 12 px labels, light grid, no outline.

    Parameters
    ----------
    plot : bokeh.plotting.figure
        The plot, restyled in place.
    """
    plot.outline_line_color = None
    plot.min_border_right = 16  # the last tick label stays inside at phone width
    plot.background_fill_color = "#ffffff"
    plot.border_fill_color = "#ffffff"
    for axis in (*plot.xaxis, *plot.yaxis):
        axis.axis_label_text_font_size = "12px"
        axis.major_label_text_font_size = "12px"
        axis.axis_label_text_font_style = "normal"
    plot.grid.grid_line_alpha = 0.3
