"""Sphinx extension: re-execute a notebook when the library code it imports changes.

jupyter-cache keys an executed notebook by the notebook's own code, so on its own it
would serve stale outputs after a change to stumplib. This extension records, next to
the cache, a hash of the library modules each notebook imports (followed through the
modules' own imports) as they were when the notebook executed. When that hash
changes, the notebook's cached execution is dropped and Sphinx re-reads it, so it
executes again; notebooks that do not import the changed code keep their cache.

Configuration: ``library_dependencies_package``, the import name of the library
(default ``"stumplib"``).
"""

import ast
import hashlib
import importlib.util
import json
from pathlib import Path

import nbformat
from jupyter_cache import get_cache
from sphinx.util import logging

logger = logging.getLogger(__name__)
RECORD = "library-dependencies.json"


def _module_file(name, root, package):
    """The file of module ``name`` (``package.x.y``) under ``root``, or None."""
    parts = name.split(".")
    if parts[0] != package:
        return None
    base = root.joinpath(*parts[1:])
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imported_names(tree, module=None):
    """Absolute module names imported by ``tree``.

    ``module`` resolves relative imports.
    """
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.rsplit(".", node.level)[0]
                base = f"{package}.{base}" if base else package
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def _with_parents(name):
    parts = name.split(".")
    return [".".join(parts[:k]) for k in range(1, len(parts) + 1)]


def dependencies(source_trees, root, package):
    """Library files used by code with these ASTs, following imports transitively."""
    seen, files = set(), set()
    todo = [n for tree in source_trees for n in _imported_names(tree)]
    while todo:
        name = todo.pop()
        for part in _with_parents(name):
            path = _module_file(part, root, package)
            if part in seen or path is None:
                continue
            seen.add(part)
            files.add(path)
            module = part if path.name != "__init__.py" else part + ".__init__"
            todo += _imported_names(ast.parse(path.read_text(encoding="utf-8")), module)
    return files


def notebook_hash(path, root, package):
    """Hash of the library files a notebook imports.

    All of them if a cell does not parse.
    """
    cells = [
        c.source
        for c in nbformat.read(path, as_version=4).cells
        if c.cell_type == "code"
    ]
    try:
        trees = [ast.parse(source) for source in cells]
        files = dependencies(trees, root, package)
    except SyntaxError:  # IPython magics: assume the notebook uses everything
        files = set(root.rglob("*.py"))
    digest = hashlib.sha256()
    for file in sorted(files):
        digest.update(
            file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes()
        )
    return digest.hexdigest()


def _cache_dir(app):
    config = app.env.mystnb_config
    return (
        Path(config.execution_cache_path) if config.execution_mode == "cache" else None
    )


def _package_root(app):
    spec = importlib.util.find_spec(app.config.library_dependencies_package)
    return Path(spec.origin).parent


def _load(cache_dir):
    path = cache_dir / RECORD
    return json.loads(path.read_text()) if path.exists() else {}


def find_stale(app, env, added, changed, removed):
    """Notebooks whose library code changed since they executed.

    Drop their cache, re-read.
    """
    cache_dir = _cache_dir(app)
    if cache_dir is None:
        return []
    root, package = _package_root(app), app.config.library_dependencies_package
    recorded, cache = _load(cache_dir), get_cache(cache_dir)
    app.library_hashes, stale = {}, []
    for docname in sorted(env.found_docs):
        path = Path(env.doc2path(docname))
        if path.suffix != ".ipynb":
            continue
        current = app.library_hashes[docname] = notebook_hash(path, root, package)
        if recorded.get(docname) != current:
            stale.append(docname)
            _drop_cached_execution(cache, path)
    if stale:
        logger.info(
            f"library code changed for {len(stale)} notebook(s): {', '.join(stale)}"
        )
    return stale


def _drop_cached_execution(cache, path):
    try:
        record = cache.match_cache_notebook(nbformat.read(path, as_version=4))
    except KeyError:
        return
    cache.remove_cache(record.pk)


def record_executed(app, doctree):
    """After a notebook is read (and executed if needed), remember its library hash."""
    cache_dir, docname = _cache_dir(app), app.env.docname
    current = getattr(app, "library_hashes", {}).get(docname)
    if cache_dir is None or current is None:
        return
    cache_dir.mkdir(parents=True, exist_ok=True)
    recorded = _load(cache_dir)
    recorded[docname] = current
    (cache_dir / RECORD).write_text(json.dumps(recorded, indent=1, sort_keys=True))


def setup(app):
    """Register the extension with Sphinx."""
    app.add_config_value("library_dependencies_package", "stumplib", "env")
    app.connect("env-get-outdated", find_stale)
    app.connect("doctree-read", record_executed)
    return {
        "version": "1.0",
        "parallel_read_safe": False,
        "parallel_write_safe": True,
    }
