"""The infinite-context head (``n -> inf``) and the population loss (``m -> inf``).

With features of density ``p`` on [0, 1], the head's estimate becomes
``s_hat(s) = ∫ x e^{a y(x) - b x} p(x) dx / ∫ e^{a y(x) - b x} p(x) dx`` with
``y(x) = 1{x > s}``. For uniform features both classes are truncated exponential
laws, so ``s_hat`` has a closed form, evaluated here in the log domain and as an
offset from ``s`` (stable for ``|a|, |b|`` up to 1e6). The population loss
``L(a, b) = E_{s ~ prior} (s_hat(s) - s)^2`` is integrated by graded Gauss-Legendre
panels that resolve the layers at the calibrated threshold and near ``s = 1``.

Thresholds near 1 are carried as the pair ``(s, q)`` with ``q = 1 - s`` exact, so
layers thinner than the float spacing near 1 are still resolved.
"""

import numpy as np

from . import moments, quadrature, tasks, validation

_FEATURE_GRID = None  # built on first use


def _is_uniform(features):
    return features is None or features == tasks.Uniform(0.0, 1.0)


def _shift(a, b, s, q):
    """``a - b*s`` computed from whichever of ``s``, ``q`` is exact."""
    return np.where(s <= 0.5, a - b * s, (a - b) + b * q)


def _uniform_summaries(a, b, s, q):
    """Class summaries (offsets from ``s``) for uniform features on [0, 1]."""
    lm_neg, d_neg, v_neg = moments.truncated_exponential(-b, s, shift=-b * s)
    pos = moments.truncated_exponential(b, q, shift=_shift(a, b, s, q))
    return (lm_neg, -d_neg, v_neg), pos


def _feature_grid():
    """Composite rule on [0, 1] graded toward both ends (down to 2**-45)."""
    global _FEATURE_GRID
    if _FEATURE_GRID is None:
        half = 0.5 * 2.0 ** -np.arange(45)
        breaks = np.concatenate([[0.0, 1.0], half, 1.0 - half])
        _FEATURE_GRID = quadrature.gauss_legendre(breaks)
    return _FEATURE_GRID


def _density_class(density, rate, length, shift):
    """Summary of ``exp(shift - rate*u) * density(u)`` on ``u`` in [0, length]."""
    g, w = _feature_grid()
    length = length[..., None]
    expo = -rate[..., None] * length * g
    top = expo.max(axis=-1, keepdims=True)
    mass_terms = w * density(length * g) * np.exp(expo - top)
    mass = mass_terms.sum(axis=-1)
    safe = np.where(mass > 0, mass, 1.0)
    mean = (mass_terms * g).sum(axis=-1) / safe
    var = (mass_terms * (g - mean[..., None]) ** 2).sum(axis=-1) / safe
    with np.errstate(divide="ignore"):
        log_mass = shift + np.log(length[..., 0]) + top[..., 0] + np.log(mass)
    return log_mass, length[..., 0] * mean, length[..., 0] ** 2 * var


def _density_summaries(a, b, s, q, features):
    """Class summaries (offsets from ``s``) for a feature law with a density."""
    pdf = features.density
    lm_neg, d_neg, v_neg = _density_class(lambda u: pdf(s[..., None] - u), -b, s, -b * s)
    pos = _density_class(lambda u: pdf(s[..., None] + u), b, q, _shift(a, b, s, q))
    return (lm_neg, -d_neg, v_neg), pos


def _summaries(a, b, s, q, features):
    a, b, s, q = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, s, q)))
    if _is_uniform(features):
        return moments.combine(*_uniform_summaries(a, b, s, q))
    return moments.combine(*_density_summaries(a, b, s, q, features))


def residual(a, b, s, q=None, features=None):
    """``s_hat(s) - s`` and its gradient ``(d/da, d/db)``, accurate near both edges.

    Parameters
    ----------
    a, b : float or array_like
        Label and feature scores (broadcast against ``s``).
    s : array_like
        Thresholds in [0, 1].
    q : array_like, optional
        ``1 - s`` computed exactly by the caller (resolves ``s`` within 1e-16 of 1).
    features : tasks.Uniform or tasks.Beta, optional
        Feature law; uniform on [0, 1] (closed form) when omitted.

    Returns
    -------
    offset, d_a, d_b : ndarray
    """
    a, b = validation.parameters(a, b)
    s = validation.unit_interval(s, "s")
    q = 1.0 - s if q is None else validation.unit_interval(q, "q")
    return _summaries(a, b, s, q, features)


def estimate(a, b, s, features=None):
    """The infinite-context estimate ``s_hat(s)``, vectorized in ``s`` (and ``a``, ``b``)."""
    offset, _, _ = residual(a, b, s, features=features)
    return np.asarray(s, dtype=float) + offset


def gradient_of_estimate(a, b, s, features=None):
    """``(d s_hat/da, d s_hat/db) = (Cov_w(x, y), -Var_w(x))`` at each threshold."""
    _, d_a, d_b = residual(a, b, s, features=features)
    return d_a, d_b


def threshold_nodes(a, b, prior):
    """Quadrature over the prior: exact pairs ``(s, q)`` and weights ``density * dw``.

    Panels are graded toward the calibrated threshold ``a/b`` (scale ``1/b``) and
    toward the edges 0 and 1 down to the inner layers there.
    """
    scale = 1.0 / max(abs(b), 1.0)
    s_edge = max(1e-3 * scale * np.exp(-max(-a, 0.0)), 1e-300)
    q_edge = max(1e-3 * scale * np.exp(-max(a - b, 0.0)), 1e-300)
    center = a / b if abs(b) > 1 else 0.5
    near = np.concatenate(
        [quadrature.graded(0.0, s_edge, 0.5)[1:], quadrature.graded(center, 1e-2 * scale)]
    )
    far = np.concatenate(
        [quadrature.graded(0.0, q_edge, 0.5)[1:], quadrature.graded(1.0 - center, 1e-2 * scale)]
    )
    return prior_nodes(prior, near, far)


def prior_nodes(prior, near, far):
    """Composite Gauss-Legendre rule over the prior's support, as exact pairs ``(s, q)``.

    Parameters
    ----------
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    near, far : array_like
        Panel breaks in ``s`` (used below 1/2) and in ``q = 1 - s`` (used above 1/2).

    Returns
    -------
    s, q, weight : ndarray
        Nodes, their exact complements and the weights ``density * dw``.
    """
    lo, hi = prior.support
    parts = []
    if lo < 0.5:
        s, w = quadrature.gauss_legendre(quadrature.clipped(near, lo, min(hi, 0.5)))
        parts.append((s, 1.0 - s, w))
    if hi > 0.5:
        q, w = quadrature.gauss_legendre(quadrature.clipped(far, 1.0 - hi, 1.0 - max(lo, 0.5)))
        parts.append((1.0 - q, q, w))
    s, q, w = (np.concatenate(p) for p in zip(*parts))
    return s, q, w * prior.density(s, q)


def loss_and_gradient(a, b, prior, features=None):
    """Population loss ``E (s_hat - s)^2`` and its gradient ``(dL/da, dL/db)``.

    Parameters
    ----------
    a, b : float
        Head parameters.
    prior : tasks.Uniform or tasks.Beta
        Threshold prior.
    features : tasks.Uniform or tasks.Beta, optional
        Feature law (uniform on [0, 1] when omitted).

    Returns
    -------
    loss, d_a, d_b : float
    """
    a, b = (float(v) for v in validation.parameters(a, b))
    s, q, w = threshold_nodes(a, b, prior)
    return squared_error(w, *_summaries(a, b, s, q, features))


def squared_error(weights, r, r_a, r_b):
    """Quadrature of the squared residual: ``(sum w r^2, d/da, d/db)`` from ``r, dr/da, dr/db``."""
    return float(weights @ r**2), float(2 * weights @ (r * r_a)), float(2 * weights @ (r * r_b))


def loss(a, b, prior, features=None):
    """Population loss ``L(a, b) = E_{s ~ prior} (s_hat(s) - s)^2``."""
    return loss_and_gradient(a, b, prior, features)[0]


def gradient(a, b, prior, features=None):
    """Population gradient ``(dL/da, dL/db)``."""
    return loss_and_gradient(a, b, prior, features)[1:]
