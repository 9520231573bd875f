"""Experiment sizes and progress bars.

Each experiment has a ``book`` size, run by every build, and a ``full`` size for
deeper confirmation on a larger machine, selected by ``STUMPLIB_SCALE=full``.
Progress bars are shown in interactive runs and hidden when ``STUMPLIB_PROGRESS=0``
(set by ``make test`` and ``make book`` so stored outputs stay stable). The bars are
plain-text tqdm bars, also inside Jupyter: ``tqdm.auto`` would need ipywidgets, and
without it prints a warning (with local paths) into every notebook that imports it.
"""

import os

from tqdm import tqdm

SCALES = ("book", "full")


def scale():
    """The experiment scale in force: ``"book"`` (default) or ``"full"``."""
    value = os.environ.get("STUMPLIB_SCALE", "book")
    if value not in SCALES:
        raise ValueError(f"STUMPLIB_SCALE must be one of {SCALES} (got {value!r})")
    return value


def sized(book, full):
    """Pick the ``book`` or ``full`` value of a size according to :func:`scale`."""
    return full if scale() == "full" else book


def progress(iterable=None, **kwargs):
    """A tqdm progress bar, disabled when ``STUMPLIB_PROGRESS=0``."""
    disable = os.environ.get("STUMPLIB_PROGRESS", "1") == "0"
    return tqdm(iterable, disable=disable, leave=False, **kwargs)
