r"""The descent lemma for a corpus step, and the step size it allows.

Let :math:`g = \nabla L(\theta)` be the population gradient, :math:`G` a corpus
gradient with relative error :math:`\rho = |G - g| / |g|`, and :math:`\lambda_{\max}`
the largest eigenvalue of the population Hessian over the step. Then
:math:`\langle g, G\rangle \ge (1 - \rho) |g|^2` and :math:`|G| \le (1 + \rho) |g|`,
so the step :math:`\theta - \eta G` satisfies

.. math::

    L(\theta - \eta G) \le L(\theta)
    - \eta |g|^2 \left[(1 - \rho) - \frac{q (1 + \rho)^2}{2}\right],

with :math:`q = \eta \lambda_{\max}`. For :math:`\rho \le 1/2` and :math:`q \le 2/9`
the bracket is at least :math:`1/4`: every such step decreases the population loss by
at least :math:`\eta |g|^2 / 4`. :func:`step_bound` gives the largest step for which
:math:`q \le 2/9` at a point, :func:`guaranteed_decrease` the bracket for any
:math:`\rho` and :math:`q`.
"""

import numpy as np

from . import dynamics, population, validation

#: Largest relative gradient error :math:`\rho` in the lemma's hypotheses (with
#: ``Q_MAX``, a decrease of at least :math:`\eta |g|^2 / 4`).
RHO_MAX = 0.5
#: Largest :math:`q = \eta \lambda_{\max}` in the lemma's hypotheses.
Q_MAX = 2.0 / 9.0


@validation.constrained(
    a=validation.Scalar(), b=validation.Scalar(), prior=validation.DensityLaw()
)
def curvature(a, b, prior):
    r"""Largest eigenvalue of the population Hessian at ``(a, b)``.

    The Hessian is taken by central differences of :func:`stumplib.population.gradient`
    (:func:`stumplib.dynamics.hessian`) and symmetrized.

    Parameters
    ----------
    a, b : float
        The point.
    prior : tasks.Uniform or tasks.Beta
        The threshold prior of the population loss.

    Returns
    -------
    float
        :math:`\lambda_{\max}`, positive near the valley.

    Raises
    ------
    ValueError
        If ``a`` or ``b`` is not a finite scalar, or the Hessian has no positive
        eigenvalue there (no step is stable).

    Examples
    --------
    >>> from stumplib import calibration, tasks
    >>> prior = tasks.Uniform(0.1, 0.9)
    >>> b = 80.0
    >>> round(curvature(float(calibration.a_star(b, prior)), b, prior) * b**3, 1)
    8.8
    """
    hessian = dynamics.hessian(
        lambda u, v: population.loss_and_gradient(u, v, prior, None)[1:], a, b
    )
    top = float(np.linalg.eigvalsh(hessian)[-1])
    if not top > 0:
        raise ValueError(
            f"the population Hessian at (a, b) = ({a}, {b}) has no positive eigenvalue"
        )
    return top


@validation.constrained(
    a=validation.Scalar(), b=validation.Scalar(), prior=validation.DensityLaw()
)
def step_bound(a, b, prior):
    r"""The largest step the lemma allows at a point, :math:`q_{\max} / \lambda_{\max}`.

    At :math:`(a, b)`; :math:`q_{\max}` is ``Q_MAX``.

    Parameters
    ----------
    a, b : float
        The point.
    prior : tasks.Uniform or tasks.Beta
        The threshold prior of the population loss.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`curvature`.
    """
    return Q_MAX / curvature(a, b, prior)


def _rho_and_q(values):
    validation.broadcastable((values["rho"], values["q"]), ("rho", "q"))


@validation.constrained(
    _rho_and_q, rho=validation.Within(0.0, 1e100), q=validation.Within(0.0, 1e100)
)
def guaranteed_decrease(rho, q):
    r"""The lemma's bracket :math:`(1 - \rho) - q (1 + \rho)^2 / 2`.

    A step decreases the population loss by at least :math:`\eta |g|^2` times this value
    (when it is positive).

    Parameters
    ----------
    rho : float or array_like
        Relative gradient error, in ``[0, 1e100]`` (the bracket is positive only for
        ``rho < 1``; the range keeps ``q (1 + rho)²`` within the floats).
    q : float or array_like
        :math:`q = \eta \lambda_{\max}`, in :math:`[0, 10^{100}]` (the bracket is
        positive only for :math:`q < 2`).

    Returns
    -------
    ndarray
        Broadcast over ``rho`` and ``q``.

    Raises
    ------
    ValueError
        If ``rho`` or ``q`` leaves ``[0, 1e100]``, or they do not broadcast.

    Examples
    --------
    >>> float(guaranteed_decrease(RHO_MAX, Q_MAX))
    0.25
    """
    return (1.0 - rho) - q * (1.0 + rho) ** 2 / 2.0
