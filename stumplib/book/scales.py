"""Experiment sizes and seeds.

A ``book`` size run by every build, a ``full`` size for more.

``STUMPLIB_SCALE=full`` selects the larger sizes, for deeper confirmation on a
larger machine. ``STUMPLIB_SEED_OFFSET=j`` (``j >= 1``) re-draws every seeded
chapter with another seed (:func:`seed`), to test that its claims hold for any draw.
"""

import os

import numpy as np

from .. import validation

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
    return setting("STUMPLIB_SCALE", SCALES)


def setting(variable, choices):
    """One of ``choices`` read from the environment ``variable`` (default the first).

    Parameters
    ----------
    variable : str
        Name of the environment variable.
    choices : tuple of str
        Its allowed values; the first is the default.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If the variable names another value (the message starts with its name).
    """
    value = os.environ.get(variable, choices[0])
    if value not in choices:
        raise ValueError(f"{variable} must be one of {choices} (got {value!r})")
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


def seed_offset():
    """The seed offset in force.

    0 (the stored draw) unless ``STUMPLIB_SEED_OFFSET`` says.

    Returns
    -------
    int
        The non-negative integer in ``STUMPLIB_SEED_OFFSET`` (default 0).

    Raises
    ------
    ValueError
        If ``STUMPLIB_SEED_OFFSET`` is not a non-negative integer.
    """
    value = os.environ.get("STUMPLIB_SEED_OFFSET", "0").strip()
    if not value.isdigit():
        raise ValueError(
            f"STUMPLIB_SEED_OFFSET must be a non-negative integer (got {value!r})"
        )
    return int(value)


@validation.constrained(stored=validation.Integer(minimum=0))
def seed(stored):
    """A chapter's ``SEED``: ``stored`` itself, or another draw under a seed offset.

    With offset 0 (the default) this is ``stored``, the seed of the outputs stored
    in the book. With ``STUMPLIB_SEED_OFFSET=j`` (``j >= 1``) it is a different seed,
    the first word of the ``numpy`` seed sequence of ``(stored, j)``: the streams of
    every offset are independent of each other and of the stored draw, with no
    arithmetic on seeds. ``make seeds`` re-executes the chapters under offsets
    1, 2, ... to test that every claim holds for other draws.

    Parameters
    ----------
    stored : int
        The chapter's stored seed (a non-negative integer).

    Returns
    -------
    int
    """
    offset = seed_offset()
    if offset == 0:
        return stored
    return int(np.random.SeedSequence((stored, offset)).generate_state(1)[0])
