"""Sphinx extension: an appendix numbers its results with its letter, A.1, B.2, ...

The chapters are numbered, so Sphinx numbers their figures and tables, and
sphinx-proof their propositions, 3.2, 5.1, ...; the appendices are not, and their
results would take the next free numbers of the book (an appendix's "Fig. 6" beside
chapter 6's "Fig. 6.1"). For a page whose title starts with ``Appendix <letter>``
(``Appendix E: ...``) this numbers each kind of numbered object (figure, table,
proposition, definition, ...) ``<letter>.1``, ``<letter>.2``, ... in the order of the
page, both where it is shown and in every reference to it. An appendix without a
letter in its title keeps the numbers Sphinx gives.
"""

import re

LETTER = re.compile(r"^Appendix ([A-Z])\b")


def appendix_letter(title):
    """The letter of an appendix title (``"Appendix E: ..."``), or None.

    Parameters
    ----------
    title : str

    Returns
    -------
    str or None
    """
    match = LETTER.match(title)
    return match[1] if match else None


def letter_numbers(app, env):
    """Renumber the results of lettered appendices, after Sphinx numbered them."""
    for docname, numbers_by_type in env.toc_fignumbers.items():
        title = env.titles.get(docname)
        letter = appendix_letter(title.astext()) if title is not None else None
        if letter is None:
            continue
        for numbers in numbers_by_type.values():
            for k, node_id in enumerate(sorted(numbers, key=numbers.get), start=1):
                numbers[node_id] = (letter, k)
    return []


def setup(app):
    """Register the extension with Sphinx."""
    app.setup_extension("sphinx_proof")
    app.connect("env-get-updated", letter_numbers, priority=900)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
