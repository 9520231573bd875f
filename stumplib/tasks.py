r"""Threshold priors, feature laws, batched context sampling and the mirror map.

A task is a threshold ``s`` in [0, 1]; its context is ``N`` features ``x_i`` drawn
from a feature law on [0, 1] with labels :math:`y_i = \mathbf{1}\{x_i > s\}`.
"""

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from . import validation

#: Narrowest uniform law accepted, so that its density ``1/(hi - lo)`` stays a normal
#: float.
MIN_WIDTH = 1e-300


#: Beta exponents up to this use the direct form of the log density.
_MODERATE = 100.0


def _power(k, d, m, log_x):
    """``k log(x / m)`` for ``x = m + d`` (``log1p`` near ``m``).

    ``0`` when ``k = 0``.
    """
    if k == 0:
        return 0.0
    return np.where(np.abs(d) < 0.5 * m, k * np.log1p(d / m), k * (log_x - np.log(m)))


def _log_gamma(x):
    """``log Gamma(x)``, also where ``x`` is so small that ``Gamma(x)`` overflows."""
    return -np.log(x) if x < 1e-100 else special.gammaln(x)  # error ~ 0.58 x there


def _betaln(alpha, beta):
    """``log B(alpha, beta)``, also at exponents so small that ``B`` overflows."""
    if min(alpha, beta) >= 1e-100:
        return special.betaln(alpha, beta)
    return _log_gamma(alpha) + _log_gamma(beta) - _log_gamma(alpha + beta)


def _stirling_remainder(x):
    """``log Gamma(x) - ((x - 1/2) log x - x + log(2 pi)/2)``, accurate at ``x > 0``."""
    if x < 100:
        return special.gammaln(x) - (
            (x - 0.5) * np.log(x) - x + 0.5 * np.log(2 * np.pi)
        )
    inv2 = (1.0 / x) ** 2  # 0 for x beyond 1e154, where the terms are below rounding
    return (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 / 1680))) / x


def _size(size, name="size"):
    """A sample size: a count (``>= 0``) or a tuple of counts."""
    if isinstance(size, tuple):
        return tuple(validation.count(v, name, minimum=0) for v in size)
    return validation.count(size, name, minimum=0)


#: A sample size, a count (``>= 0``) or a tuple of counts.
SIZE = validation.Constraint(
    _size,
    ((-1, ValueError), (0.5, ValueError), ((2, -1), ValueError), ("3", TypeError)),
)
_DRAW = dict(size=SIZE, rng=validation.Rng())
_AT = dict(s=validation.Finite(), q=validation.Finite(optional=True))


def _complement(values):
    """A joint check: a given ``q`` is ``1 - s``, of its shape, to rounding.

    Only where both lie in [0, 1]: outside, the density vanishes, or the caller has
    kept a node off an end.
    """
    s, q = values["s"], values["q"]
    if q is None:
        return
    validation.same_shape(s, q, ("s", "q"))
    inside = (s >= 0) & (s <= 1) & (q >= 0) & (q <= 1)
    if np.any(inside & (np.abs(s + q - 1.0) > 4 * np.finfo(float).eps)):
        raise ValueError("q must be 1 - s (to rounding)")


@dataclass(frozen=True)
class Uniform:
    r"""Uniform law on ``[lo, hi]`` within [0, 1] (a threshold prior or a feature law).

    Parameters
    ----------
    lo, hi : float
        Bounds with :math:`0 \le \mathrm{lo} < \mathrm{hi} \le 1`.

    Raises
    ------
    ValueError
        If the bounds are not scalars with :math:`0 \le \mathrm{lo} < \mathrm{hi} \le
        1`, or ``hi - lo`` is below :data:`MIN_WIDTH`.

    Examples
    --------
    >>> from stumplib import tasks
    >>> law = tasks.Uniform(0.2, 0.6)
    >>> law.support
    (0.2, 0.6)
    >>> law.density([0.1, 0.3]).tolist()
    [0.0, 2.5]
    >>> law.cdf([0.1, 0.4, 0.9]).round(6).tolist()
    [0.0, 0.5, 1.0]
    >>> law.sample((2, 3), rng=0).shape
    (2, 3)
    """

    lo: float = 0.0
    hi: float = 1.0

    def __post_init__(self):
        """Check the parameters."""
        lo, hi = (validation.scalar(getattr(self, name), name) for name in ("lo", "hi"))
        if not 0 <= lo < hi <= 1:
            raise ValueError(f"lo and hi need 0 <= lo < hi <= 1 (got lo={lo}, hi={hi})")
        if hi - lo < MIN_WIDTH:
            raise ValueError(
                f"hi - lo must be at least {MIN_WIDTH:g} (got {hi - lo:g})"
            )
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    @property
    def support(self):
        """The interval ``(lo, hi)`` outside which the density vanishes.

        Examples
        --------
        >>> Uniform(0.2, 0.6).support
        (0.2, 0.6)
        """
        return self.lo, self.hi

    @property
    def bulk(self):
        """Centre and width of the law's mass, ``((lo + hi)/2, hi - lo)``.

        Examples
        --------
        >>> centre, width = Uniform(0.2, 0.6).bulk
        >>> round(centre, 4), round(width, 4)
        (0.4, 0.4)
        """
        return 0.5 * (self.lo + self.hi), self.hi - self.lo

    @validation.constrained(**_DRAW)
    def sample(self, size, rng):
        """Draw ``size`` values with the generator (or seed) ``rng``.

        Examples
        --------
        >>> Uniform(0.2, 0.6).sample(3, rng=0).round(4).tolist()
        [0.4548, 0.3079, 0.2164]
        """
        return np.random.default_rng(rng).uniform(self.lo, self.hi, size)

    @validation.constrained(_complement, **_AT)
    def density(self, s, q=None):
        """Density at ``s`` (``q = 1 - s`` may be given exactly; unused here).

        Examples
        --------
        >>> Uniform(0.2, 0.6).density([0.1, 0.3]).tolist()
        [0.0, 2.5]
        """
        s = np.asarray(s, dtype=float)
        return np.where((s >= self.lo) & (s <= self.hi), 1.0 / (self.hi - self.lo), 0.0)

    @validation.constrained(_complement, **_AT)
    def log_density(self, s, q=None):
        """Log density at ``s`` (``-inf`` outside ``[lo, hi]``).

        Examples
        --------
        >>> Uniform(0.2, 0.6).log_density([0.1, 0.3]).round(4).tolist()  # log 2.5
        [-inf, 0.9163]
        """
        s = np.asarray(s, dtype=float)
        return np.where(
            (s >= self.lo) & (s <= self.hi), -np.log(self.hi - self.lo), -np.inf
        )

    @validation.constrained(x=validation.Finite())
    def cdf(self, x):
        """Distribution function at ``x``.

        Examples
        --------
        >>> Uniform(0.2, 0.6).cdf([0.1, 0.4, 0.9]).round(4).tolist()
        [0.0, 0.5, 1.0]
        """
        return np.clip(
            (np.asarray(x, dtype=float) - self.lo) / (self.hi - self.lo), 0.0, 1.0
        )


@dataclass(frozen=True)
class Beta:
    """Beta(alpha, beta) law on [0, 1] (a threshold prior or a feature law).

    Parameters
    ----------
    alpha, beta : float
        Positive shape exponents (default 2 and 2).

    Raises
    ------
    ValueError
        If ``alpha`` or ``beta`` is not a positive scalar.

    Examples
    --------
    >>> law = Beta(2.0, 3.0)
    >>> law.support, round(law.bulk[0], 6)
    ((0.0, 1.0), 0.4)
    >>> law.density([0.0, 0.5]).round(6).tolist()
    [0.0, 1.5]
    >>> round(float(law.cdf(0.5)), 6)
    0.6875
    >>> law.sample(4, rng=0).shape
    (4,)
    """

    alpha: float = 2.0
    beta: float = 2.0

    def __post_init__(self):
        """Check the parameters."""
        for name in ("alpha", "beta"):
            value = validation.scalar(getattr(self, name), name)
            if value <= 0:
                raise ValueError(f"{name} must be positive (got {value})")
            object.__setattr__(self, name, value)

    @property
    def support(self):
        """The interval ``(0, 1)``.

        Examples
        --------
        >>> Beta(2.0, 3.0).support
        (0.0, 1.0)
        """
        return 0.0, 1.0

    @property
    def bulk(self):
        """Centre and width of the law's mass, as its mean and standard deviation.

        Examples
        --------
        >>> mean, sd = Beta(2.0, 3.0).bulk  # 2/5 and sqrt(6/150)
        >>> round(mean, 4), round(sd, 4)
        (0.4, 0.2)
        """
        total = self.alpha + self.beta
        mean = self.alpha / total
        return mean, float(np.sqrt(mean * (self.beta / total) / (total + 1.0)))

    @validation.constrained(**_DRAW)
    def sample(self, size, rng):
        """Draw ``size`` values with the generator (or seed) ``rng``.

        Examples
        --------
        >>> Beta(2.0, 3.0).sample(3, rng=0).round(4).tolist()
        [0.3224, 0.1646, 0.34]
        """
        return np.random.default_rng(rng).beta(self.alpha, self.beta, size)

    @validation.constrained(_complement, **_AT)
    def density(self, s, q=None):
        """Density at ``s``; pass ``q = 1 - s`` exactly to resolve ``s`` near 1.

        Examples
        --------
        >>> Beta(2.0, 3.0).density([0.0, 0.5]).round(4).tolist()  # 12 s (1 - s)^2
        [0.0, 1.5]
        """
        return np.exp(self.log_density(s, q))

    @validation.constrained(_complement, **_AT)
    def log_density(self, s, q=None):
        """Log density at ``s``; ``-inf`` outside [0, 1].

        ``q = 1 - s`` may be given: of the pair, the one not above 1/2 is taken as exact
        (so thresholds within float spacing of 1 are resolved). Each factor is computed
        relative to the mean, ``(alpha-1) log(s/m) + (beta-1) log(q/(1-m))``, accurate
        for ``alpha, beta`` up to 1e12.

        Examples
        --------
        >>> Beta(2.0, 3.0).log_density([0.5, 1.5]).round(4).tolist()  # log 1.5 inside
        [0.4055, -inf]
        """
        s = np.asarray(s, dtype=float)
        q = 1.0 - s if q is None else np.asarray(q, dtype=float)
        if (
            max(self.alpha, self.beta) <= _MODERATE
        ):  # direct form, relative error < 1e-13
            with np.errstate(divide="ignore", invalid="ignore"):
                log_pdf = (
                    special.xlogy(self.alpha - 1, s)
                    + special.xlogy(self.beta - 1, q)
                    - _betaln(self.alpha, self.beta)
                )
            return np.where((s >= 0) & (q >= 0), log_pdf, -np.inf)
        mean, mean_q = self._means
        low = s <= 0.5
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.where(low, s - mean, mean_q - q)  # s - mean, from the exact one
            log_s = np.where(low, np.log(s), np.log1p(-q))
            log_q = np.where(low, np.log1p(-s), np.log(q))
            log_pdf = (
                _power(self.alpha - 1, d, mean, log_s)
                + _power(self.beta - 1, -d, mean_q, log_q)
                + self._log_norm
            )
        return np.where((s >= 0) & (q >= 0), log_pdf, -np.inf)

    @property
    def _means(self):
        """The mean ``m`` and ``1 - m``, shifted by at most an ulp to add up to 1."""
        total = self.alpha + self.beta
        small = min(self.alpha, self.beta) / total
        large = 1.0 - small
        return (1.0 - large, large) if self.alpha <= self.beta else (large, 1.0 - large)

    @property
    def _log_norm(self):
        """``(alpha-1) log m + (beta-1) log(1-m) - log B(alpha, beta)`` at the mean.

        At the exact mean ``alpha/n`` (``n = alpha + beta``) it equals ``1.5 log n -
        (log alpha + log beta + log 2 pi)/2 - (c(alpha) + c(beta) - c(n))`` with ``c``
        the remainder of Stirling's series (no cancellation of large terms); the shift
        of :attr:`_means` from ``alpha/n`` is corrected to first order.
        """
        alpha, beta = self.alpha, self.beta
        total = alpha + beta
        small = (
            min(alpha, beta) / total
        )  # the shift of the smaller mean, exact in relative terms
        shift = (min(self._means) - small) * (1.0 if alpha <= beta else -1.0)
        return (
            1.5 * np.log(total)
            - 0.5 * (np.log(alpha) + np.log(beta) + np.log(2 * np.pi))
            - (
                _stirling_remainder(alpha)
                + _stirling_remainder(beta)
                - _stirling_remainder(total)
            )
            + shift * total * (1.0 / beta - 1.0 / alpha)
        )

    @validation.constrained(x=validation.Finite())
    def cdf(self, x):
        """Distribution function at ``x``.

        Examples
        --------
        >>> round(float(Beta(2.0, 3.0).cdf(0.5)), 4)  # 11/16
        0.6875
        """
        return stats.beta.cdf(np.asarray(x, dtype=float), self.alpha, self.beta)


# the declared constraints of the dataclasses' __init__ (__post_init__ converts the
# fields, and checks what the declarations cannot say: their order, their range)
Uniform.__init__ = validation.constrained(
    lo=validation.Scalar(), hi=validation.Scalar()
)(Uniform.__init__)
Beta.__init__ = validation.constrained(
    alpha=validation.PositiveScalar(), beta=validation.PositiveScalar()
)(Beta.__init__)


@dataclass(frozen=True)
class Fixed:
    """A point mass at the threshold ``s`` (for risks at a fixed threshold).

    Parameters
    ----------
    s : float
        The threshold, in [0, 1].

    Raises
    ------
    ValueError
        If ``s`` is not a scalar in [0, 1].

    Examples
    --------
    >>> law = Fixed(0.3)
    >>> law.support, law.sample(3).tolist()
    ((0.3, 0.3), [0.3, 0.3, 0.3])
    """

    s: float

    def __post_init__(self):
        """Check the parameters."""
        s = validation.unit_interval(self.s, "s")
        if s.ndim:
            raise ValueError(f"s must be a scalar (got shape {s.shape})")
        object.__setattr__(self, "s", float(s))

    @property
    def support(self):
        """The degenerate interval ``(s, s)``.

        Examples
        --------
        >>> Fixed(0.3).support
        (0.3, 0.3)
        """
        return self.s, self.s

    @validation.constrained(size=SIZE)
    def sample(self, size, rng=None):
        """Return ``s`` repeated ``size`` times.

        Examples
        --------
        >>> Fixed(0.3).sample((2, 2)).tolist()
        [[0.3, 0.3], [0.3, 0.3]]
        """
        return np.full(size, self.s)


Fixed.__init__ = validation.constrained(s=validation.Scalar())(Fixed.__init__)


def _batch_of_thresholds(values):
    x = values["x"]
    if x.ndim == 0:
        raise ValueError("x must have at least one axis (the context axis)")
    validation.batch(values["s"], "s", x.shape[:-1])


@validation.constrained(
    _batch_of_thresholds, x=validation.UnitInterval(), s=validation.UnitInterval()
)
def labels(x, s):
    r"""Labels :math:`y = \mathbf{1}\{x > s\}`.

    For features ``x`` of shape ``(..., N)`` and thresholds ``s`` of shape ``(...)``.

    Parameters
    ----------
    x : array_like, shape (..., N)
        Features in [0, 1].
    s : float or array_like, shape (...)
        Thresholds in [0, 1], broadcast against the batch shape of ``x``.

    Returns
    -------
    ndarray, shape (..., N)
        Labels in {0.0, 1.0}.

    Raises
    ------
    ValueError
        If ``x`` or ``s`` leaves [0, 1], ``x`` is a scalar, or ``s`` does not broadcast
        against ``x.shape[:-1]``.

    Examples
    --------
    >>> labels([0.1, 0.4, 0.6, 0.9], 0.5).tolist()
    [0.0, 0.0, 1.0, 1.0]
    >>> labels([[0.2, 0.8], [0.2, 0.8]], [0.1, 0.9]).tolist()
    [[1.0, 1.0], [0.0, 0.0]]
    """
    x = np.asarray(x, dtype=float)
    s = np.broadcast_to(np.asarray(s, dtype=float), x.shape[:-1])
    return (x > s[..., None]).astype(float)


@validation.constrained(
    m=validation.Integer(),
    n=validation.Integer(),
    prior=validation.Sampler(),
    features=validation.Sampler(),
    rng=validation.Rng(),
)
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

    Examples
    --------
    >>> x, y, s = sample_contexts(3, 5, Uniform(0.1, 0.9), rng=0)
    >>> x.shape, y.shape, s.shape
    ((3, 5), (3, 5), (3,))
    >>> bool(np.all(y == (x > s[:, None])))
    True
    """
    rng = np.random.default_rng(rng)
    s = prior.sample(m, rng)
    x = features.sample((m, n), rng)
    return x, labels(x, s), s


def _mirrored(values):
    validation.one_context(values)
    if values["s"] is not None:
        validation.batch(values["s"], "s", values["x"].shape[:-1])


@validation.constrained(
    _mirrored,
    x=validation.UnitInterval(),
    y=validation.Labels(),
    s=validation.UnitInterval(optional=True),
)
def mirror(x, y, s=None):
    r"""The mirror map :math:`x \mapsto 1 - x`, :math:`y \mapsto 1 - y` (and ``s`` too).

    Positives become negatives, so a head applied to the mirrored context and mapped
    back localizes the threshold from below.

    Parameters
    ----------
    x, y : array_like, shape (..., N)
        Features in [0, 1] and labels in {0, 1}.
    s : float or array_like, shape (...), optional
        Thresholds in [0, 1].

    Returns
    -------
    x, y : ndarray, shape (..., N)
        Mirrored features and labels.
    s : ndarray, shape (...)
        Mirrored thresholds; returned only when ``s`` is given.

    Raises
    ------
    ValueError
        If the context or ``s`` is invalid.

    Examples
    --------
    >>> x, y, s = mirror([0.1, 0.4, 0.6, 0.9], [0, 0, 1, 1], 0.5)
    >>> x.round(12).tolist(), y.tolist(), float(s)
    ([0.9, 0.6, 0.4, 0.1], [1.0, 1.0, 0.0, 0.0], 0.5)
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if s is None:
        return 1.0 - x, 1.0 - y
    s = np.broadcast_to(np.asarray(s, dtype=float), x.shape[:-1])
    return 1.0 - x, 1.0 - y, 1.0 - s
