"""Sphinx extension: BokehJS served by the book itself, on the pages that need it.

An interactive figure (``stumplib.book.interactive``) is stored in its notebook as a
``text/html`` output: Bokeh's embed script and root element, inside
``div.stumplib-interactive``; it loads no library itself. This extension copies the
minified BokehJS of the installed ``bokeh`` package (``bokeh`` and ``bokeh-widgets``,
about 1.7 MB, shared by every page and cached by the browser) to
``_static/bokeh/``, and adds these two scripts to exactly the pages whose body holds
such a figure, so the figures work offline and the other pages load nothing more. In
the PDF, myst-nb picks the output's ``image/png`` rendering (the static figure).
"""

import shutil
from pathlib import Path

MARKER = 'class="stumplib-interactive"'
SCRIPTS = ("bokeh", "bokeh-widgets")


def bokeh_assets():
    """``[(source path, name under _static/bokeh)]`` of the installed BokehJS."""
    import bokeh

    base = Path(bokeh.__file__).parent / "server" / "static" / "js"
    version = bokeh.__version__
    return [(base / f"{n}.min.js", f"{n}-{version}.min.js") for n in SCRIPTS]


def add_bokeh(app, pagename, templatename, context, doctree):
    """Load BokehJS (before the page's inline embed scripts run) where a figure is."""
    if MARKER not in context.get("body", ""):
        return
    for _, name in bokeh_assets():
        app.add_js_file(f"bokeh/{name}", priority=400)


def copy_bokeh(app, exception):
    """Copy the BokehJS files into ``_static/bokeh``."""
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "bokeh"
    target.mkdir(parents=True, exist_ok=True)
    for source, name in bokeh_assets():
        shutil.copy2(source, target / name)


def setup(app):
    """Register the extension with Sphinx."""
    # Before unique_scripts (priority 500), which replaces the page's script list.
    app.connect("html-page-context", add_bokeh, priority=400)
    app.connect("build-finished", copy_bokeh)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
