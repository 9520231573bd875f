"""Experiment sizes: a ``book`` size run by every build, a ``full`` size for more.

``STUMPLIB_SCALE=full`` selects the larger sizes, for deeper confirmation on a
larger machine.
"""

import os

SCALES = ("book", "full")


def scale():
    """The experiment scale in force.

    Returns
    -------
    str
        ``"book"`` (the default) or ``"full"``, from ``STUMPLIB_SCALE``.

    Raises
    ------
    ValueError
        If ``STUMPLIB_SCALE`` names another scale.
    """
    value = os.environ.get("STUMPLIB_SCALE", "book")
    if value not in SCALES:
        raise ValueError(f"STUMPLIB_SCALE must be one of {SCALES} (got {value!r})")
    return value


def sized(book, full):
    """Pick the ``book`` or ``full`` value of a size according to :func:`scale`.

    Parameters
    ----------
    book, full : object
        The value at book scale and at full scale.

    Returns
    -------
    object
        ``full`` under ``STUMPLIB_SCALE=full``, else ``book``.
    """
    return full if scale() == "full" else book
