"""stumplib: a one-head softmax-attention model of decision-stump thresholds.

The executable library behind the companion book to Le, Lok, Nitanda & Tan,
*Learning Decision-Stump Thresholds in Context: Dynamics of Softmax Attention*
(arXiv:2610.07074). One module per concept:

``validation``
    input checks shared by every module
``tasks``
    threshold priors, feature laws, context sampling, the mirror map
``moments``
    two-class softmax mixtures and truncated-exponential moments
``head``
    the finite-context head: scores, weights, estimate, gradient
``quadrature``
    graded Gauss-Legendre rules for layered integrands
``population``
    the infinite-context head, population loss and gradient
``calibration``
    the calibrated valley ``a*(b)`` of the population loss and its layer's constants
``dynamics``
    population training dynamics: slow curve, phases, rates, stable steps
``corpus``
    a fixed pretraining corpus with a fast loss and gradient, per-task gradients
``sparse_corpus``
    a corpus that draws and holds only the examples that carry weight, exactly
``training``
    the descent loop and the flow integrator, recorded on a log grid
``gradcheck``
    finite-difference checks of a gradient at rounding-aware tolerances
``fitting``
    least squares, power laws, expansions in ``1/b`` and their limits, with errors
``ladder``
    a ladder of certified runs as evidence for a bound: shares inside, trend, maximum
``descent_lemma``
    the corpus-step descent lemma: its bracket, the curvature and the step it allows
``certification``
    corpus gradient errors relative to the direction of progress, grid crossings
``sampling_study``
    the task-sampling error of infinite-context corpora by Monte Carlo, beside its
    exact law
``certified_runs``
    runs on a corpus with the descent lemma checked at their iterates, their ends
``certified_law``
    the certified interval's predicted end :math:`b=m/(4K(b)^2)` along the population
    flow
``pretraining``
    large-resolution starts, runs to a freezing scale or by the corpus's own noise
``corpus_rule``
    the corpus rule: size-tied starts, runs frozen by their noise ratio, certified
``infinite_corpus``
    infinite-context corpora: the corpus rule's frozen scale with task sampling alone
``past_freeze``
    far past the freeze at the certified constant step: corpus valleys, collapse points
``shapes``
    certified freezes over a grid of corpus shapes m / n at one m ∧ n
``starts``
    the corpus rule's certified freeze from other starts, on the rule's own corpus
``sweep``
    sweeps in parallel over cores (joblib) or a Dask cluster, identical to serial
``progress``
    progress bars for long loops, quiet in builds
``frozen``
    frozen heads and reference rules on shared fresh contexts
``separation``
    the abstract's two terms apart: frozen heads against their infinite-context error
    and against the nearest-positive rule
``baselines``
    nearest-positive, nearest-negative and gap-midpoint rules
``risk_checks``
    Monte Carlo risk profiles over thresholds, z-scores and ratios of risks
``rank_test``
    an exact stratified rank-sum test that two draws follow the same law
``symmetrization``
    the mirrored head, its reflected symmetrizations, their population losses and flow
``posthoc``
    a head trained alone and symmetrized afterwards, against the other strategies
``symbolic``
    SymPy derivations, one module per topic
``book``
    the companion book's machinery (claim checks, glued prose, figure style,
    experiment sizes); no other module imports it
"""

__version__ = "0.1.0"
