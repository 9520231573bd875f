"""Threshold priors, feature laws, batched context sampling and the mirror map.

A task is a threshold ``s`` in [0, 1]; its context is ``N`` features ``x_i`` drawn
from a feature law on [0, 1] with labels ``y_i = 1{x_i > s}``.
"""

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from . import validation

#: Narrowest uniform law accepted: its density ``1/(hi - lo)`` stays a normal float.
MIN_WIDTH = 1e-300


def _size(size):
    """A sample size: a count (``>= 0``) or a tuple of counts."""
    if isinstance(size, tuple):
        return tuple(validation.count(v, "size", minimum=0) for v in size)
    return validation.count(size, "size", minimum=0)


def _scalar(value, name):
    arr = validation.finite(value, name)
    if arr.ndim:
        raise ValueError(f"{name} must be a scalar (got shape {arr.shape})")
    return float(arr)


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
        lo, hi = (_scalar(getattr(self, name), name) for name in ("lo", "hi"))
        if not 0 <= lo < hi <= 1:
            raise ValueError(f"lo and hi need 0 <= lo < hi <= 1 (got lo={lo}, hi={hi})")
        if hi - lo < MIN_WIDTH:
            raise ValueError(f"hi - lo must be at least {MIN_WIDTH:g} (got {hi - lo:g})")
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    @property
    def support(self):
        """The interval ``(lo, hi)`` outside which the density vanishes."""
        return self.lo, self.hi

    @property
    def bulk(self):
        """Centre and width of the law's mass: ``((lo + hi)/2, hi - lo)``."""
        return 0.5 * (self.lo + self.hi), self.hi - self.lo

    def sample(self, size, rng):
        """Draw ``size`` values with the generator (or seed) ``rng``."""
        return np.random.default_rng(rng).uniform(self.lo, self.hi, _size(size))

    def density(self, s, q=None):
        """Density at ``s`` (``q = 1 - s`` may be given exactly; unused here)."""
        s = validation.real(s, "s")
        return np.where((s >= self.lo) & (s <= self.hi), 1.0 / (self.hi - self.lo), 0.0)

    def cdf(self, x):
        """Distribution function at ``x``."""
        return np.clip((validation.real(x, "x") - self.lo) / (self.hi - self.lo), 0.0, 1.0)


@dataclass(frozen=True)
class Beta:
    """Beta(alpha, beta) law on [0, 1] (a threshold prior or a feature law)."""

    alpha: float = 2.0
    beta: float = 2.0

    def __post_init__(self):
        for name in ("alpha", "beta"):
            value = _scalar(getattr(self, name), name)
            if value <= 0:
                raise ValueError(f"{name} must be positive (got {value})")
            object.__setattr__(self, name, value)

    @property
    def support(self):
        """The interval ``(0, 1)``."""
        return 0.0, 1.0

    @property
    def bulk(self):
        """Centre and width of the law's mass: its mean and standard deviation."""
        total = self.alpha + self.beta
        mean = self.alpha / total
        return mean, float(np.sqrt(mean * (self.beta / total) / (total + 1.0)))

    def sample(self, size, rng):
        """Draw ``size`` values with the generator (or seed) ``rng``."""
        return np.random.default_rng(rng).beta(self.alpha, self.beta, _size(size))

    def density(self, s, q=None):
        """Density at ``s``; pass ``q = 1 - s`` exactly to resolve ``s`` near 1."""
        s = validation.real(s, "s")
        q = 1.0 - s if q is None else validation.real(q, "q")
        with np.errstate(divide="ignore", invalid="ignore"):
            log_pdf = (special.xlogy(self.alpha - 1, s) + special.xlogy(self.beta - 1, q)
                       - special.betaln(self.alpha, self.beta))
        return np.where((s >= 0) & (q >= 0), np.exp(log_pdf), 0.0)

    def cdf(self, x):
        """Distribution function at ``x``."""
        return stats.beta.cdf(validation.real(x, "x"), self.alpha, self.beta)


@dataclass(frozen=True)
class Fixed:
    """A point mass at the threshold ``s`` (for risks at a fixed threshold)."""

    s: float

    def __post_init__(self):
        s = validation.unit_interval(self.s, "s")
        if s.ndim:
            raise ValueError(f"s must be a scalar (got shape {s.shape})")
        object.__setattr__(self, "s", float(s))

    @property
    def support(self):
        """The degenerate interval ``(s, s)``."""
        return self.s, self.s

    def sample(self, size, rng=None):
        """Return ``s`` repeated ``size`` times."""
        return np.full(_size(size), self.s)


def labels(x, s):
    """Labels ``y = 1{x > s}`` for features ``x`` of shape ``(..., N)`` and thresholds ``s`` of shape ``(...)``."""
    x = validation.unit_interval(x, "x")
    s = validation.unit_interval(s, "s")
    if x.ndim == 0:
        raise ValueError("x must have at least one axis (the context axis)")
    s = validation.batch(s, "s", x.shape[:-1])
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
    validation.sampler(prior, "prior")
    validation.sampler(features, "features")
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
    s = validation.batch(validation.unit_interval(s, "s"), "s", x.shape[:-1])
    return 1.0 - x, 1.0 - y, 1.0 - s
