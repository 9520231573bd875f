"""Chapter 5's committed runs from a fixed start (``make certified-law``), typed."""

from typing import NamedTuple

import numpy as np

from .. import certified_runs
from . import full_data

#: The data file written by ``tools/certified_law.py``.
LAW = full_data.DATA / "certified-law.json"


class LawSize(NamedTuple):
    """The runs of one size ``m = n``.

    Parameters
    ----------
    size : int
        ``m = n``.
    b_cert : ndarray
        The end of each corpus's certified interval.
    censored : ndarray of bool
        Runs that reached the stop without failing.
    at_start : ndarray of bool
        Runs that failed at their first record.
    q_max : float
        Largest ``q`` over the recorded steps of the runs.
    end : stumplib.certified_runs.CertifiedEnd
        The median end and its standard error.
    """

    size: int
    b_cert: np.ndarray
    censored: np.ndarray
    at_start: np.ndarray
    q_max: float
    end: certified_runs.CertifiedEnd


class LawData(NamedTuple):
    """The committed runs: one :class:`LawSize` a size, and how they ran.

    Parameters
    ----------
    sizes : tuple of LawSize
        By increasing size.
    seed : tuple of int
        The streams' seed (corpus ``r`` of size ``k``: ``(*seed, k, k, r)``).
    start : float
        ``b0``.
    stop_ratio : float
        The stop over the size, ``b_stop / k``.
    """

    sizes: tuple
    seed: tuple
    start: float
    stop_ratio: float


def load(path=LAW):
    """Read the data file of ``make certified-law``.

    Parameters
    ----------
    path : path-like
        The file.

    Returns
    -------
    LawData
    """
    raw = full_data.load(path)["sizes"]
    sizes = []
    for key in sorted(raw, key=int):
        runs = raw[key]["runs"]
        b_cert = np.array([r["b_cert"] for r in runs])
        censored = np.array([r["censored"] for r in runs])
        at_start = np.array([r["steps"] == 0 and not r["censored"] for r in runs])
        sizes.append(
            LawSize(
                int(key),
                b_cert,
                censored,
                at_start,
                max(r["q_max"] for r in runs),
                certified_runs.certified_end_of_ends(b_cert, censored, at_start),
            )
        )
    first = raw[min(raw, key=int)]
    return LawData(
        tuple(sizes),
        tuple(first["seed"]),
        float(first["start"]),
        float(first["stop"]) / int(min(raw, key=int)),
    )
