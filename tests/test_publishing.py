"""What the published book relies on: the Binder specification, the Colab cell and the
repository and launch buttons (book/_ext/publishing.py)."""

import importlib.metadata
import importlib.util
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import colab_cell  # noqa: E402

sys.path.insert(0, str(ROOT / "book" / "_ext"))
import publishing  # noqa: E402

REPOSITORY = (
    "https://git.example/book"  # RFC 2606 reserved name: a test value, not a link
)


def test_binder_installs_stumplib_at_the_pinned_versions():
    script = (ROOT / ".binder" / "postBuild").read_text()
    assert re.search(
        r"^python -m pip install .*-c constraints\.txt -e \. myst-nb$", script, re.M
    )
    header = re.search(
        r"Pinned lock for Python (\d+\.\d+)", (ROOT / "constraints.txt").read_text()
    )
    assert (
        ROOT / ".binder" / "runtime.txt"
    ).read_text().strip() == f"python-{header.group(1)}"


def notebook():
    return nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# Title", id="c00")]
    )


def test_install_cell_goes_first_once_and_is_removed_from_the_book():
    once = colab_cell.with_install_cell(notebook(), REPOSITORY)
    twice = colab_cell.with_install_cell(nbformat.from_dict(once), REPOSITORY)
    assert nbformat.writes(twice) == nbformat.writes(once)
    assert [c.id for c in once.cells] == ["install-stumplib", "c00"]
    assert "remove-cell" in once.cells[0].metadata["tags"]
    assert f'"stumplib @ git+{REPOSITORY}", "myst-nb==' in once.cells[0].source


def test_install_cell_is_replaced_for_another_repository():
    first = colab_cell.with_install_cell(notebook(), REPOSITORY)
    second = colab_cell.with_install_cell(first, REPOSITORY + "-2")
    assert len(second.cells) == 2 and REPOSITORY + "-2" in second.cells[0].source


def test_install_cell_does_nothing_where_stumplib_is_installed(capsys):
    assert importlib.util.find_spec("stumplib") is not None
    exec(colab_cell.cell_source(REPOSITORY), {})
    assert capsys.readouterr() == ("", "")


def test_install_cell_without_an_address_says_how_to_install(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModuleNotFoundError) as info:
        exec(colab_cell.cell_source(""), {})
    message = str(info.value)
    assert "git clone" in message
    assert "python -m pip install -c constraints.txt -e . myst-nb" in message


def test_install_cell_takes_only_an_https_address():
    with pytest.raises(ValueError, match="repository"):
        colab_cell.cell_source("git@host:book.git")


def test_install_cell_pins_myst_nb_as_the_constraints_do():
    assert colab_cell.pinned("myst-nb") == importlib.metadata.version("myst-nb")
    with pytest.raises(ValueError, match="not-a-package"):
        colab_cell.pinned("not-a-package")


def theme_config():
    launch = {
        "binderhub_url": "https://binder.example",
        "colab_url": "https://colab.example",
        "notebook_interface": "jupyterlab",
    }
    return SimpleNamespace(
        html_theme_options={"launch_buttons": launch, "repository_url": ""}
    )


def test_buttons_point_at_the_repository_given_at_build_time(monkeypatch):
    monkeypatch.setenv("BOOK_REPOSITORY_URL", REPOSITORY + "/")
    monkeypatch.setenv("BOOK_REPOSITORY_BRANCH", "trunk")
    config = theme_config()
    publishing.repository_buttons(None, config)
    options = config.html_theme_options
    assert (options["repository_url"], options["repository_branch"]) == (
        REPOSITORY,
        "trunk",
    )
    assert options["use_repository_button"] and options["use_issues_button"]
    assert options["launch_buttons"]["colab_url"] == "https://colab.example"


def test_no_buttons_without_a_repository(monkeypatch):
    monkeypatch.delenv("BOOK_REPOSITORY_URL", raising=False)
    config = theme_config()
    publishing.repository_buttons(None, config)
    options = config.html_theme_options
    assert options["repository_url"] == ""
    assert options["launch_buttons"] == {"notebook_interface": "jupyterlab"}
    assert not (options["use_repository_button"] or options["use_issues_button"])


def downloaded(folder, source="old"):
    """A built ``_sources`` folder with one chapter whose install cell is ``source``."""
    page = folder / "book" / "01-chapter.ipynb"
    page.parent.mkdir(parents=True)
    nb = colab_cell.with_install_cell(notebook(), "")
    nb.cells[0].source = source
    nbformat.write(nb, page)
    nbformat.write(nbformat.v4.new_notebook(), folder / "other.ipynb")
    return page


def test_a_local_build_offers_notebooks_that_install_from_its_clone(tmp_path):
    page = downloaded(tmp_path)
    source = publishing.install_source(ROOT, "")
    assert publishing.rewrite_install_cells(tmp_path, source) == [page]
    cells = nbformat.read(page, as_version=4).cells
    assert cells[0].source == source and cells[1:] == notebook().cells
    assert cells[0].metadata["tags"] == colab_cell.TAGS  # still left out of the book
    # the clone's own path and pins, editable; no placeholder address
    assert f"'-e', {str(ROOT)!r}" in source.replace('"', "'")
    assert repr(str(ROOT / "constraints.txt")) in source
    assert f"myst-nb=={colab_cell.pinned('myst-nb')}" in source
    assert "<the repository" not in source and "raise" not in source
    compile(source, "install", "exec")
    # a second pass changes nothing
    assert publishing.rewrite_install_cells(tmp_path, source) == []


def test_a_published_build_offers_notebooks_that_install_from_the_repository(
    tmp_path,
):
    page = downloaded(tmp_path)
    source = publishing.install_source(ROOT, REPOSITORY + "/")
    assert source == colab_cell.cell_source(REPOSITORY)
    publishing.rewrite_install_cells(tmp_path, source)
    assert nbformat.read(page, as_version=4).cells[0].source == source
