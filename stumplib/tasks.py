"""Threshold priors, feature laws, batched context sampling and the mirror map.

A task is a threshold ``s`` in [0, 1]; its context is ``N`` features ``x_i`` drawn
from a feature law on [0, 1] with labels ``y_i = 1{x_i > s}``.
"""

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from . import validation


@dataclass(frozen=True)
class Uniform:
    """Uniform law on ``[lo, hi]`` within [0, 1] (a threshold prior or a feature law).

    Parameters
    ----------
    lo, hi : float
        Bounds with ``0 <= lo < hi <= 1``.
    """

    lo: float = 0.0
    hi: float = 1.0

    def __post_init__(self):
        lo, hi = float(validation.finite(self.lo, "lo")), float(validation.finite(self.hi, "hi"))
        if not 0 <= lo < hi <= 1:
            raise ValueError(f"prior bounds need 0 <= lo < hi <= 1 (got lo={lo}, hi={hi})")
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    @property
    def support(self):
        """The interval ``(lo, hi)`` outside which the density vanishes."""
        return self.lo, self.hi

    def sample(self, size, rng):
        """Draw ``size`` values with the generator (or seed) ``rng``."""
        return np.random.default_rng(rng).uniform(self.lo, self.hi, size)

    def density(self, s, q=None):
        """Density at ``s`` (``q = 1 - s`` may be given exactly; unused here)."""
        s = np.asarray(s, dtype=float)
        return np.where((s >= self.lo) & (s <= self.hi), 1.0 / (self.hi - self.lo), 0.0)

    def cdf(self, x):
        """Distribution function at ``x``."""
        return np.clip((np.asarray(x, dtype=float) - self.lo) / (self.hi - self.lo), 0.0, 1.0)


@dataclass(frozen=True)
class Beta:
    """Beta(alpha, beta) law on [0, 1] (a threshold prior or a feature law)."""

    alpha: float = 2.0
    beta: float = 2.0

    def __post_init__(self):
        for name in ("alpha", "beta"):
            object.__setattr__(self, name, float(validation.positive(getattr(self, name), name)))

    @property
    def support(self):
        """The interval ``(0, 1)``."""
        return 0.0, 1.0

    def sample(self, size, rng):
        """Draw ``size`` values with the generator (or seed) ``rng``."""
        return np.random.default_rng(rng).beta(self.alpha, self.beta, size)

    def density(self, s, q=None):
        """Density at ``s``; pass ``q = 1 - s`` exactly to resolve ``s`` near 1."""
        s = np.asarray(s, dtype=float)
        q = 1.0 - s if q is None else np.asarray(q, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_pdf = (
                special.xlogy(self.alpha - 1, s)
                + special.xlogy(self.beta - 1, q)
                - special.betaln(self.alpha, self.beta)
            )
        return np.where((s >= 0) & (q >= 0), np.exp(log_pdf), 0.0)

    def cdf(self, x):
        """Distribution function at ``x``."""
        return stats.beta.cdf(np.asarray(x, dtype=float), self.alpha, self.beta)


@dataclass(frozen=True)
class Fixed:
    """A point mass at the threshold ``s`` (for risks at a fixed threshold)."""

    s: float

    def __post_init__(self):
        object.__setattr__(self, "s", float(validation.unit_interval(self.s, "s")))

    @property
    def support(self):
        """The degenerate interval ``(s, s)``."""
        return self.s, self.s

    def sample(self, size, rng=None):
        """Return ``s`` repeated ``size`` times."""
        return np.full(size, self.s)


def labels(x, s):
    """Labels ``y = 1{x > s}``.

    For features ``x`` of shape ``(..., N)`` and thresholds ``s`` of shape ``(...)``.
    """
    x = validation.unit_interval(x, "x")
    s = validation.unit_interval(s, "s")
    return (x > s[..., None]).astype(float)


def sample_contexts(m, n, prior=Uniform(), features=Uniform(), rng=None):
    """Sample ``m`` tasks with ``n`` labelled examples each.

    Parameters
    ----------
    m, n : int
        Number of tasks and context size.
    prior, features : Uniform or Beta
        Threshold prior and feature law.
    rng : numpy.random.Generator or int, optional
        Source of randomness (a seed is accepted).

    Returns
    -------
    x, y : ndarray, shape (m, n)
        Features and labels.
    s : ndarray, shape (m,)
        Thresholds.
    """
    m, n = validation.count(m, "m"), validation.count(n, "n")
    rng = np.random.default_rng(rng)
    s = prior.sample(m, rng)
    x = features.sample((m, n), rng)
    return x, labels(x, s), s


def mirror(x, y, s=None):
    """The mirror map ``x -> 1 - x``, ``y -> 1 - y`` (and ``s -> 1 - s`` if given).

    Positives become negatives, so a head applied to the mirrored context and mapped
    back localizes the threshold from below.
    """
    x, y = validation.context(x, y)
    if s is None:
        return 1.0 - x, 1.0 - y
    return 1.0 - x, 1.0 - y, 1.0 - validation.unit_interval(s, "s")
