"""Sphinx extension: what a published build adds: buttons, offline math, the PDF.

- Repository, issues and launch (Binder, Colab) buttons, from the repository address
  given at build time in ``$BOOK_REPOSITORY_URL`` (branch ``$BOOK_REPOSITORY_BRANCH``,
  default ``main``). The GitHub workflow sets it from its own repository; a build
  without it shows none of these buttons, so no page carries an address nobody gave.
- MathJax served by the book itself: the directory ``mathjax_local_dir`` (the npm copy
  ``make book`` installs) is copied to ``_static/mathjax``, where ``mathjax_path``
  points, so formulas typeset with no network.
- In the PDF, numbered chapters where the HTML numbers them: the chapters, and not the
  introduction (whose sections LaTeX would make chapters 1, 2, ...) or the reference
  pages.
- A link to the PDF in every page footer, when ``make pdf`` has built it: the PDF is
  copied next to the HTML and published with it.
- Notebooks that run where they are downloaded: the install cell of every notebook the
  pages offer for download (``_sources``) installs stumplib from the repository given
  at build time (the cell of ``tools/colab_cell.py``), or, in a build without one, from
  the clone that built the book (its path, editable), so a downloaded notebook of a
  local build runs in a fresh kernel of the same machine instead of stopping.
"""

import importlib.util
import os
import shutil
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.errors import ExtensionError

LAUNCH_KEYS = ("binderhub_url", "colab_url", "jupyterhub_url", "deepnote_url", "thebe")


def repository_buttons(app, config):
    """Show repository and launch buttons for ``$BOOK_REPOSITORY_URL``, or none."""
    options = config.html_theme_options
    url = os.environ.get("BOOK_REPOSITORY_URL", "").strip().rstrip("/")
    if url:
        options.update(
            repository_url=url,
            path_to_docs="",
            repository_branch=os.environ.get("BOOK_REPOSITORY_BRANCH") or "main",
            use_repository_button=True,
            use_issues_button=True,
        )
    else:
        options["repository_url"] = ""
        launch = dict(options.get("launch_buttons") or {})
        options["launch_buttons"] = {
            k: v for k, v in launch.items() if k not in LAUNCH_KEYS
        }
        for button in (
            "use_repository_button",
            "use_issues_button",
            "use_edit_page_button",
        ):
            options[button] = False


def pdf_path(app):
    """The PDF the LaTeX builder writes: ``_build/latex/<book_pdf>``."""
    return Path(app.outdir).parent / "latex" / app.config.book_pdf


def name_pdf(app, config):
    """Name the LaTeX output after ``book_pdf``; note whether that PDF exists.

    The note is in the HTML context, so that the PDF appearing rewrites every page.
    """
    first, *others = config.latex_documents
    config.latex_documents = [
        (first[0], Path(config.book_pdf).stem + ".tex", *first[2:]),
        *others,
    ]
    config.html_context["book_pdf"] = config.book_pdf if pdf_path(app).exists() else ""


def pdf_link(app, pagename, templatename, context, doctree):
    """Add a footer link to the PDF when it has been built."""
    if context.get("book_pdf"):
        href = context["pathto"](context["book_pdf"], 1)
        context["theme_extra_footer"] = (
            f'<p class="book-pdf"><a href="{href}">The whole book as one PDF</a></p>'
        )


def pdf_numbering(app, doctree):
    """Open each document with LaTeX's section numbering on or off, as its toc part."""
    parts = app.config.external_site_map.root.subtrees
    numbered = {item for part in parts if part.numbered for item in part.items}
    depth = 2 if app.env.docname in numbered else -1  # 2: sphinxmanual's own depth
    doctree.insert(
        0, nodes.raw("", f"\\setcounter{{secnumdepth}}{{{depth}}}\n", format="latex")
    )


def copy_assets(app, exception):
    """Copy MathJax into ``_static/mathjax`` and the PDF, if built, next to the HTML."""
    if exception is not None or app.builder.format != "html":
        return
    mathjax = Path(app.confdir) / app.config.mathjax_local_dir
    if not (mathjax / Path(app.config.mathjax_path).name).exists():
        raise ExtensionError(
            f"no MathJax at {mathjax}: `make book` installs it with npm"
        )
    shutil.copytree(
        mathjax, Path(app.outdir) / "_static" / "mathjax", dirs_exist_ok=True
    )
    if app.config.html_context.get("book_pdf"):
        shutil.copy2(pdf_path(app), Path(app.outdir) / pdf_path(app).name)


#: The install cell's id (and tag), as ``tools/colab_cell.py`` writes it.
INSTALL_CELL = "install-stumplib"
LOCAL_INSTALL = """\
# A kernel without stumplib: install it from the clone that built this book.
# (Written by the book's build, book/_ext/publishing.py; not shown in the book.)
import importlib.util
import subprocess
import sys

if importlib.util.find_spec("stumplib") is None:
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                    "-c", {constraints!r}, "-e", {root!r},
                    "myst-nb=={myst_nb}"], check=True)"""


def _colab_cell(root):
    """``tools/colab_cell.py`` of the clone at ``root``, as a module."""
    spec = importlib.util.spec_from_file_location(
        "colab_cell", Path(root) / "tools" / "colab_cell.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def install_source(root, repository):
    """The install cell of a downloadable notebook.

    From ``repository`` (an https address: the cell of ``tools/colab_cell.py``), or,
    if it is empty, from the clone at ``root`` (editable, at its pinned versions).
    """
    colab = _colab_cell(root)
    repository = repository.strip().rstrip("/")
    if repository:
        return colab.cell_source(repository)
    root = Path(root).resolve()
    constraints = root / "constraints.txt"
    return LOCAL_INSTALL.format(
        constraints=str(constraints),
        root=str(root),
        myst_nb=colab.pinned("myst-nb", constraints),
    )


def rewrite_install_cells(folder, source):
    """Give every notebook under ``folder`` the install cell ``source``.

    Only notebooks that have the cell (id or tag ``install-stumplib``) change; the
    other cells and the outputs are kept as they are. Returns the notebooks written.
    """
    written = []
    for path in sorted(Path(folder).rglob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        cells = [
            c
            for c in notebook.cells
            if c.get("id") == INSTALL_CELL
            or INSTALL_CELL in c.get("metadata", {}).get("tags", [])
        ]
        if cells and any(c.source != source for c in cells):
            for cell in cells:
                cell.source = source
            nbformat.write(notebook, path)
            written.append(path)
    return written


def downloadable_notebooks(app, exception):
    """Install cells of the notebooks offered for download (HTML ``_sources``)."""
    if exception is not None or app.builder.format != "html":
        return
    folder = Path(app.outdir) / "_sources"
    if folder.is_dir():
        repository = os.environ.get("BOOK_REPOSITORY_URL", "")
        rewrite_install_cells(folder, install_source(app.confdir, repository))


def setup(app):
    """Register the extension with Sphinx."""
    app.add_config_value("mathjax_local_dir", "", "html")
    app.add_config_value("book_pdf", "book.pdf", "env")
    app.connect("config-inited", repository_buttons)
    # After sphinx-external-toc has set the root document (priority 900).
    app.connect("config-inited", name_pdf, priority=950)
    app.connect("doctree-read", pdf_numbering)
    app.connect("html-page-context", pdf_link)
    app.connect("build-finished", copy_assets)
    app.connect("build-finished", downloadable_notebooks)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
