"""Sphinx extension: include each script of a page once.

sphinx-thebe registers its inline configuration (``const THEBE_JS_URL = ...``) once
per read phase, and a Jupyter Book build runs two of them, so every page declared
the constants twice (once with file name None, once with "") and the browser
reported ``Identifier 'THEBE_JS_URL' has already been declared``. This drops exact
repeats from the page's script list.
"""


def _key(script):
    # The two copies differ only in an empty file name: None once, "" the other time.
    return (
        script.filename or "",
        script.priority,
        tuple(sorted(script.attributes.items())),
    )


def drop_repeated_scripts(app, pagename, templatename, context, doctree):
    """Keep one copy of each script the page loads."""
    seen, unique = set(), []
    for script in context.get("script_files", []):
        if _key(script) not in seen:
            seen.add(_key(script))
            unique.append(script)
    context["script_files"] = unique


def setup(app):
    """Register the extension with Sphinx."""
    app.connect("html-page-context", drop_repeated_scripts)
    return {
        "version": "1.0",
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
