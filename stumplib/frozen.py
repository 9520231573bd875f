"""The frozen estimator on fresh contexts: error surfaces over parameters and context size.

After pretraining, ``theta_T = (a_T, b_T)`` is frozen and the head is applied to fresh
contexts of size ``N`` with fresh thresholds. Every parameter value (and every
reference rule) is evaluated on the *same* fresh contexts, so differences between them
are not blurred by independent sampling noise.
"""

import numpy as np

from . import baselines, experiments, head, tasks, validation

#: The reference rules evaluated beside the frozen heads.
RULES = {"nearest positive": baselines.nearest_positive, "midpoint": baselines.midpoint}


def _rms(squared):
    """Root-mean-square of squared errors along the last axis and its standard error."""
    mse = squared.mean(axis=-1)
    se_mse = squared.std(axis=-1, ddof=1) / np.sqrt(squared.shape[-1])
    rms = np.sqrt(mse)
    return rms, se_mse / (2.0 * np.where(rms > 0, rms, 1.0))


def fresh_errors(a, b, sizes, prior=tasks.Uniform(0.1, 0.9), contexts=2000, rng=None, rules=None):
    """RMS threshold error of frozen heads (and reference rules) on fresh contexts.

    Parameters
    ----------
    a, b : array_like, shape (k,)
        Frozen parameters (one head per entry).
    sizes : array_like of int, shape (p,)
        Fresh-context sizes ``N``.
    prior : tasks.Uniform, tasks.Beta or tasks.Fixed
        Law of the fresh thresholds (``tasks.Fixed(s)`` for one threshold).
    contexts : int
        Fresh contexts per size (shared by every head and rule).
    rng : numpy.random.Generator or int, optional
    rules : dict of str to callable, optional
        Reference rules ``(x, y) -> estimate``; default :data:`RULES`.

    Returns
    -------
    dict
        ``"head"``: ``(rms, se)`` arrays of shape ``(k, p)``; each rule name:
        ``(rms, se)`` arrays of shape ``(p,)``. ``se`` is the standard error of the
        RMS error (delta method).
    """
    a, b = (np.atleast_1d(v) for v in validation.parameters(a, b))
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"a and b must be 1-D of equal length (got {a.shape} and {b.shape})")
    sizes = [validation.count(v, "sizes") for v in np.atleast_1d(validation.real(sizes, "sizes"))]
    if not sizes:
        raise ValueError("sizes must hold at least one context size")
    contexts = validation.count(contexts, "contexts", minimum=2)
    validation.sampler(prior, "prior")
    rules = RULES if rules is None else validation.rules(rules)
    rng = np.random.default_rng(rng)
    heads = np.empty((2, a.size, len(sizes)))
    out = {name: np.empty((2, len(sizes))) for name in rules}
    for j, size in enumerate(experiments.progress(sizes, desc="fresh contexts")):
        x, y, s = tasks.sample_contexts(contexts, size, prior, rng=rng)
        prepared = head.Contexts(x, y)
        for i in range(a.size):
            est = prepared.summaries(a[i], b[i])[0]
            heads[:, i, j] = _rms((est - s) ** 2)
        for name, rule in rules.items():
            out[name][:, j] = _rms((rule(x, y) - s) ** 2)
    result = {"head": (heads[0], heads[1])}
    result.update({name: (v[0], v[1]) for name, v in out.items()})
    return result


def pooled_slope(fits):
    """Inverse-variance weighted mean of the slopes of independent power-law fits.

    Parameters
    ----------
    fits : iterable of stumplib.fitting.PowerLaw
        Fits with positive slope standard errors.

    Returns
    -------
    slope, se : float
    """
    fits = list(fits)
    if not fits:
        raise ValueError("fits must not be empty")
    se = np.array([f.slope_se for f in fits], dtype=float)
    if not np.all(se > 0):
        raise ValueError("fits must have positive slope standard errors")
    weights = se**-2.0
    return float(weights @ np.array([f.slope for f in fits]) / weights.sum()), float(
        weights.sum() ** -0.5
    )
