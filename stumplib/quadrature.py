"""Composite Gauss-Legendre rules on geometrically graded panels.

The population integrands have layers of width ``1/b`` around the calibrated
threshold and of width about ``exp(-(a-b))/b`` near ``s = 1``; panels graded by
factors of two toward those points resolve them with a fixed number of nodes per
panel, whatever the scale.
"""

import numpy as np

from . import validation

NODES_PER_PANEL = 20
_GL_X, _GL_W = np.polynomial.legendre.leggauss(NODES_PER_PANEL)


def gauss_legendre(breaks):
    """Nodes and weights of the composite rule on the panels between sorted ``breaks``."""
    return _gauss_legendre(validation.finite(breaks, "breaks"))


def _gauss_legendre(breaks):
    breaks = np.unique(breaks)
    left, width = breaks[:-1, None], np.diff(breaks)[:, None]
    nodes = left + 0.5 * width * (_GL_X + 1.0)
    return nodes.ravel(), (0.5 * width * _GL_W).ravel()


def graded(center, smallest, largest=1.0, ratio=2.0):
    """Points ``center ± smallest * ratio**k`` up to distance ``largest``, and ``center``."""
    center = validation.scalar(center, "center")
    smallest, largest = (
        validation.positive_scalar(v, n) for v, n in ((smallest, "smallest"), (largest, "largest"))
    )
    ratio = validation.positive_scalar(ratio, "ratio")
    if ratio <= 1:
        raise ValueError(f"ratio must exceed 1 (got {ratio:g})")
    return _graded(center, smallest, largest, ratio)


def _graded(center, smallest, largest=1.0, ratio=2.0):
    steps = np.ceil(np.log(largest / smallest) / np.log(ratio)) + 1 if largest > smallest else 1
    offsets = smallest * ratio ** np.arange(int(steps))
    return np.concatenate([[center], center - offsets, center + offsets])


def clipped(points, lo, hi):
    """The points strictly inside ``(lo, hi)``, with ``lo`` and ``hi`` added."""
    points = validation.finite(points, "points")
    return _clipped(points, validation.scalar(lo, "lo"), validation.scalar(hi, "hi"))


def _clipped(points, lo, hi):
    return np.concatenate([[lo, hi], points[(points > lo) & (points < hi)]])


def gauss_legendre_rows(g, h):
    """Composite rules on ``[0, 1]``, one per row, from sorted break pairs ``(g, 1 - g)``.

    ``h = 1 - g`` is given exactly, so panels near 1 keep their relative precision.

    Parameters
    ----------
    g, h : ndarray, shape (rows, k)
        Breaks sorted along the last axis and their exact complements.

    Returns
    -------
    g, h, weights : ndarray, shape (rows, (k - 1) * NODES_PER_PANEL)
        Nodes, their exact complements and weights (zero on empty panels).
    """
    left, right = g[..., :-1], g[..., 1:]
    width = np.where(left < 0.5, right - left, h[..., :-1] - h[..., 1:])
    half = 0.5 * width[..., None]
    nodes = left[..., None] + half * (_GL_X + 1.0)
    complements = h[..., 1:, None] + half * (1.0 - _GL_X)
    shape = g.shape[:-1] + (-1,)
    return nodes.reshape(shape), complements.reshape(shape), (half * _GL_W).reshape(shape)
