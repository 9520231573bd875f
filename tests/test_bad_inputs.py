"""Every public entry point rejects bad input with a ValueError or TypeError naming the
argument.

A function that declares its constraints (:func:`stumplib.validation.constrained`) has
only a valid call in :data:`CALLS`: its bad-input cases are generated from the
declarations, every declared argument against every bad value its constraint lists. For
what a declaration cannot say, the hand table :data:`CASES` lists a valid call, the
arguments that must hold real numbers (and which of them are counts) and the arguments
that must be laws; Hypothesis then replaces one argument at a time by a bad value of
some kind and checks the exception type and that the message names the argument. Every
public callable of stumplib is in a table or, with the reason, in
:data:`NO_NUMERIC_INPUT`.
"""

import dataclasses
import importlib
import inspect
import pkgutil
import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import stumplib
from stumplib import (
    baselines,
    calibration,
    certification,
    certified_law,
    certified_runs,
    corpus,
    corpus_rule,
    descent_lemma,
    dynamics,
    fitting,
    frozen,
    gradcheck,
    head,
    infinite_corpus,
    ladder,
    moments,
    past_freeze,
    population,
    posthoc,
    pretraining,
    progress,
    quadrature,
    rank_test,
    risk_checks,
    sampling_study,
    separation,
    shapes,
    sparse_corpus,
    starts,
    sweep,
    symmetrization,
    tasks,
    training,
    validation,
)
from stumplib.book import (
    argument,
    boundary_plots,
    certified_data,
    certified_plots,
    claims,
    contexts,
    corpus_playground,
    frozen_data,
    frozen_plots,
    full_data,
    identities,
    interactive,
    live_portrait,
    playground,
    plotting,
    prose,
    scales,
)
from stumplib.symbolic import boundary as symbolic_boundary
from stumplib.symbolic import dynamics as symbolic_dynamics
from stumplib.symbolic import head as symbolic_head
from stumplib.symbolic import population as symbolic_population
from stumplib.symbolic import posthoc as symbolic_posthoc
from stumplib.symbolic import risks as symbolic_risks
from stumplib.symbolic import sampling as symbolic_sampling
from stumplib.symbolic import symmetrized as symbolic_symmetrized

X, Y = [0.1, 0.4, 0.7], [0.0, 1.0, 1.0]
XB, YB = [[0.1, 0.4, 0.7], [0.2, 0.5, 0.9]], [[0.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
PRIOR, FULL = tasks.Uniform(0.1, 0.9), tasks.Uniform()
CORPUS = corpus.Corpus(XB, YB, [0.3, 0.6])
SPARSE = sparse_corpus.SparseCorpus.sample(3, 10, 5.0)
RULES = {"midpoint": baselines.midpoint}
TRAJ = training.Trajectory(
    np.array([0.0, 1.0]),
    np.array([1.0, 2.0]),
    np.array([3.0, 4.0]),
    np.array([0.1, 0.05]),
)


def quadratic(a, b):
    return a**2 + b**2, 2 * a, 2 * b


def quadratic_gradient(a, b):
    return 2 * a, 2 * b


def product(a, b):
    return a * b


BIAS = certification.ContextBias(0.1, 0.01, 1.0, np.array([0.1, 0.0]))
FIG = plt.figure()
AX = FIG.add_subplot()
PORTRAIT = dynamics.Portrait(
    np.array([0.0, 1.0]),
    np.array([10.0, 20.0]),
    0.9,
    np.zeros((2, 2)),
    np.ones((2, 2, 2)),
)
RECORD = dict(
    claim_id="rule",
    measured=1.0,
    expected=1.0,
    tol=0.1,
    statement="s",
    evidence="exact",
)
FIT = fitting.PowerLaw(-1.0, 0.1, 0.0, 0.1)
BETA, FIXED = tasks.Beta(2.0, 3.0), tasks.Fixed(0.3)
CONTEXTS = head.Contexts(XB, YB)
EXPANSION = fitting.Expansion(np.array([1.0, 0.5]), np.array([0.1, 0.1]))
LOSS_EXPANSION = symbolic_dynamics.LossExpansion("U[0, 1]", 1, 1, 0, 0, {})
LAW = symbolic_symmetrized.Law(symbolic_symmetrized.lo, 1)
FULL_EXPANSION = symbolic_dynamics.LossExpansion(  # full_expansion's, written out
    "U[0, 1]",
    sp.Integer(1),
    sp.Integer(2),
    symbolic_dynamics.xi - 2 * sp.zeta(3),
    -(sp.pi**2) / 3 * symbolic_dynamics.xi,
    {},
)

# (function, valid keyword arguments, real arguments, counts, density laws, sampling
# laws)
CASES = [
    (CORPUS.estimates, dict(a=1.0, b=2.0), "a b", "", "", ""),
    (SPARSE.follow, dict(), "", "", "", ""),
    (
        pretraining.pretrain,
        dict(
            sizes=[(2, 3)],
            targets=[3.0],
            prior=PRIOR,
            corpora=1,
            seed=0,
            ratio=1.0,
            n_workers=1,
        ),
        "sizes targets corpora seed ratio n_workers",
        "corpora seed n_workers",
        "prior",
        "",
    ),
    (
        corpus_rule.pretrain_noisy,
        dict(sizes=[(2, 3)], prior=PRIOR, corpora=1, seed=0, n_workers=1),
        "sizes corpora seed level n_workers",
        "corpora seed n_workers",
        "prior",
        "",
    ),
    (
        training.corpus_descents,
        dict(
            keys=[(3, 4, 0)],
            prior=PRIOR,
            theta0=(1.0, 2.0),
            eta=0.1,
            steps=2,
            seed=0,
            n_workers=1,
        ),
        "keys eta steps seed points n_workers",
        "steps seed points n_workers",
        "",
        "prior",
    ),
    (
        corpus_rule.lower_starts,
        dict(sizes=[(2, 3)], indices=[0], prior=PRIOR, corpora=1, seed=0, n_workers=1),
        "sizes indices corpora seed level divisor n_workers",
        "corpora seed n_workers",
        "prior",
        "",
    ),
    (
        pretraining.train_side_by_side,
        dict(
            corpora=[CORPUS, CORPUS],
            theta0=[(1.0, 2.0), (1.0, 2.5)],
            targets=[1.5, 2.0],
            prior=PRIOR,
        ),
        "theta0 targets max_steps",
        "max_steps",
        "",
        "",
    ),
    (
        sweep.run,
        dict(function=abs, items=[1, -2], n_workers=1),
        "n_workers",
        "n_workers",
        "",
        "",
    ),
    (
        sweep.as_done,
        dict(function=abs, items=[1, -2], n_workers=1),
        "n_workers",
        "n_workers",
        "",
        "",
    ),
    (CORPUS.summaries, dict(a=1.0, b=2.0), "a b", "", "", ""),
    (CORPUS.loss, dict(a=1.0, b=2.0), "a b", "", "", ""),
    (CORPUS.gradient, dict(a=1.0, b=2.0), "a b", "", "", ""),
    (CORPUS.follow, dict(), "", "", "", ""),
    (CORPUS.follow().summaries, dict(a=1.0, b=2.0), "a b", "", "", ""),
    (calibration.sampling_constant, dict(prior=PRIOR), "", "", "prior", ""),
    (calibration.sampling_correction, dict(prior=PRIOR), "", "", "prior", ""),
    (calibration.slow_layer, dict(prior=PRIOR), "", "", "prior", ""),
]
IDS = [f"{c[0].__qualname__}" for c in CASES]

# Valid calls of the functions whose every checked argument is declared
# (validation.constrained): their bad-input tests are generated from the declarations.
CALLS = [
    (
        shapes.log_slopes,
        dict(y=[1.0, 0.5, 0.3, 0.2], x=[1.0, 2.0, 4.0, 8.0], groups=[0, 0, 1, 1]),
    ),
    (population.residual, dict(a=1.0, b=2.0, s=[0.3, 0.5])),
    (population.estimate, dict(a=1.0, b=2.0, s=0.3)),
    (population.loss, dict(a=1.0, b=2.0, prior=PRIOR)),
    (population.gradient, dict(a=1.0, b=2.0, prior=PRIOR)),
    (population.loss_and_gradient, dict(a=1.0, b=2.0, prior=PRIOR)),
    (population.threshold_nodes, dict(a=1.0, b=2.0, prior=PRIOR)),
    (population.prior_nodes, dict(prior=PRIOR, near=[0.2], far=[0.2])),
    (corpus.Corpus.sample, dict(m=3, n=4, rng=0)),
    (corpus.Corpus.stack, dict(corpora=[CORPUS, CORPUS])),
    (CORPUS.loss_and_gradient, dict(a=1.0, b=2.0)),
    (training.log_steps, dict(steps=10, points=5)),
    (
        training.gradient_descent,
        dict(loss_and_gradient=quadratic, theta0=(1.0, 1.0), eta=0.1, steps=3),
    ),
    (
        training.population_descent,
        dict(prior=PRIOR, theta0=(5.0, 10.0), eta=1.0, steps=2),
    ),
    (training.corpus_descent, dict(corpus=CORPUS, theta0=(1.0, 2.0), eta=0.1, steps=2)),
    (
        training.flow,
        dict(loss_and_gradient=quadratic, theta0=(1.0, 2.0), times=[0.0, 0.5, 1.0]),
    ),
    (
        training.gradient_flow,
        dict(prior=PRIOR, theta0=(5.0, 10.0), t_max=1.0, points=3),
    ),
    (corpus.task_gradients, dict(corpus=CORPUS, a=1.0, b=2.0)),
    (SPARSE.follow().task_gradients, dict(a=1.0, b=6.0)),
    (
        training.descend,
        dict(direction=lambda a, b, k: None, theta0=(1.0, 2.0), eta=0.1, max_steps=3),
    ),
    (quadrature.gauss_legendre, dict(breaks=[0.0, 1.0])),
    (quadrature.graded, dict(center=0.5, smallest=1e-3)),
    (quadrature.clipped, dict(points=[0.5], lo=0.0, hi=1.0)),
    (quadrature.power_panel, dict(power=-0.5, offset=0.1)),
    (quadrature.gauss_legendre_rows, dict(g=[[0.0, 0.5, 1.0]], h=[[1.0, 0.5, 0.0]])),
    (moments.combine, dict(neg=(0.0, -0.1, 0.01), pos=(0.5, 0.2, 0.01))),
    (moments.mean_fraction, dict(t=[0.0, 1.0])),
    (moments.truncated_exponential, dict(rate=2.0, length=0.5, shift=0.1)),
    (
        population.squared_error,
        dict(weights=[0.5, 0.5], r=[0.1, 0.2], r_a=[1.0, 1.0], r_b=[0.0, 0.0]),
    ),
    (corpus.window_cutoff, dict(n=100)),
    (corpus.expansion_radius, dict(b=[10.0, 450.0], cutoff=44.0)),
    (corpus.noise_ratio, dict(gradients=[[1.0, 2.0], [2.0, 3.0]])),
    (CORPUS.windows, dict(a=1.0, b=2.0)),
    (corpus.Corpus, dict(x=XB, y=YB, s=[0.3, 0.6])),
    (corpus.Follower, dict(corpus=CORPUS)),
    (pretraining.start, dict(b_target=20.0, prior=PRIOR)),
    (corpus_rule.size_start, dict(m=3, n=4, prior=PRIOR)),
    (corpus_rule.rule_scale_ratio, dict(prior=PRIOR, level=0.5)),
    (
        pretraining.train_to_scale,
        dict(corpus=CORPUS, theta0=(1.0, 2.0), eta=0.1, b_target=1.5, max_steps=3),
    ),
    (
        pretraining.train_until_noisy,
        dict(corpus=CORPUS, theta0=(1.0, 2.0), eta=0.1, max_steps=3),
    ),
    (
        corpus_rule.freeze_by_rule,
        dict(m=3, n=4, prior=PRIOR, rng=0, level=0.5, divisor=1.0),
    ),
    (
        corpus_rule.freeze_certified,
        dict(m=3, n=4, prior=PRIOR, rng=0, level=0.5, divisor=1.0, fraction=0.5),
    ),
    (corpus_rule.sparse_sample, dict(m=3, n=4, b0=2.0, prior=PRIOR, rng=0)),
    (
        pretraining.train_from_start,
        dict(corpus=CORPUS, b_target=3.0, prior=PRIOR, ratio=1.0),
    ),
    (pretraining.stream, dict(seed=0)),
    (calibration.guess, dict(b=10.0, prior=PRIOR)),
    (calibration.a_star, dict(b=10.0, prior=PRIOR)),
    (calibration.min_loss, dict(b=10.0, prior=PRIOR)),
    (calibration.loss_at_infinity, dict(b=10.0, prior=PRIOR)),
    (calibration.scaled_loss_at_infinity, dict(b=10.0, prior=PRIOR)),
    (calibration.off_valley, dict(a=[20.0], b=[20.0], prior=PRIOR)),
    (calibration.offset, dict(a=20.0, b=20.0, prior=PRIOR)),
    (descent_lemma.curvature, dict(a=17.0, b=20.0, prior=PRIOR)),
    (descent_lemma.step_bound, dict(a=17.0, b=20.0, prior=PRIOR)),
    (descent_lemma.guaranteed_decrease, dict(rho=0.5, q=0.2)),
    (calibration.sampling_constant, dict(prior=PRIOR)),
    (calibration.sampling_correction, dict(prior=PRIOR)),
    (calibration.slow_layer, dict(prior=PRIOR)),
    (calibration.layer_moment, dict(top=2.0)),
    (symbolic_head.context_symbols, dict(size=3)),
    (symbolic_head.estimate, dict(size=2)),
    (symbolic_head.weighted_moments, dict(size=2)),
    (symbolic_head.derive, dict(size=2)),
    (symbolic_head.gradient_function, dict(size=2)),
    (symbolic_population.residual_high_precision, dict(a_=1.0, b_=2.0, s_=0.3)),
    (symbolic_population.interior_series, dict(order=2)),
    (symbolic_population.interior_terms_function, dict(order=2)),
    (symbolic_population.interior_valley, dict(order=1)),
    (symbolic_population.quadrature_check, dict(dps=15)),
    (LOSS_EXPANSION.coordinate, dict(a=1.0, b_=2.0)),
    (symbolic_dynamics.interior_expansion, dict(lo=0.25, hi=0.5)),
    (symbolic_dynamics.partials, dict(expansion=LOSS_EXPANSION)),
    (symbolic_dynamics.reduce_flow, dict(expansion=FULL_EXPANSION)),
    (LAW.at, dict(l=0.1, b_=[2.0])),
    (argument.fresh_errors, dict(a=9.0, b=10.0, sizes=(10,), contexts=2, seed=0)),
    (argument.argument_figure, dict(k=[320], a=[12.6], b=[12.0])),
    (claims.number, dict(value=1.5)),
    (claims.make_record, RECORD),
    (claims.check, RECORD),
    (plotting.subplots, dict(height=2.0)),
    (plotting.smallest_font, dict(fig=FIG)),
    (plotting.show, dict(fig=plt.figure())),
    (plotting.reference_slope, dict(ax=AX, x=[1.0, 2.0], slope=-1.0, anchor=1.0)),
    (plotting.phase_portrait, dict(ax=AX, portrait=PORTRAIT, vmax=4.0)),
    (plotting.excess_mesh, dict(ax=AX, portrait=PORTRAIT, vmax=4.0)),
    (plotting.flow_directions, dict(portrait=PORTRAIT)),
    (prose.rounded, dict(value=1.234, digits=2)),
    (prose.text, dict(value=1.5)),
    (prose.glue, dict(name="x", value=1.234, decimals=2)),
    (scales.seed, dict(stored=1)),
    (interactive.show, dict(figure_=interactive.Interactive("x", None, {}, None))),
    (playground.playground, dict(seed=0, n=4, n_max=8, b=20.0, s=0.5)),
    (corpus_playground.draw, dict(seed=1, m=3, n=4)),
    (corpus_playground.run, dict(seed=1, m=20, n=20, level=0.5, fraction=1.0)),
    (baselines.gap, dict(x=X, y=Y)),
    (baselines.nearest_positive, dict(x=X, y=Y)),
    (baselines.nearest_negative, dict(x=X, y=Y)),
    (baselines.midpoint, dict(x=X, y=Y)),
    (baselines.monte_carlo_risks, dict(rules=RULES, n=3, tasks_per_batch=10, rng=0)),
    (gradcheck.central_differences, dict(f=product, a=1.0, b=2.0, h=1e-3)),
    (
        gradcheck.compare,
        dict(gradient=(2.0, 1.0), differences=(2.0, 1.0), a=1.0, b=2.0, h=1e-3),
    ),
    (shapes.shape_of, dict(k=4, ratio=2.0)),
    (
        shapes.freeze_shapes,
        dict(k=4, ratios=[1.0], prior=PRIOR, corpora=1, seed=0, n_workers=1),
    ),
    (posthoc.cubed_loss, dict(a=[25.0], b=[20.0], prior=PRIOR)),
    (
        posthoc.crossover,
        dict(t=[1.0, 2.0, 3.0], first=[1.0, 2.0, 3.0], second=[3.0, 2.0, 1.0]),
    ),
    (
        risk_checks.largest_z,
        dict(measured=[0.1, 0.2], errors=[0.01, 0.02], exact=[0.1, 0.21]),
    ),
    (risk_checks.ratio, dict(numerator=(0.2, 0.01), denominator=(0.1, 0.01))),
    (
        risk_checks.pointwise_risks,
        dict(rules=RULES, n=4, thresholds=[0.3, 0.6], seed=(1, 2), tasks_per_batch=50),
    ),
    (
        risk_checks.risk_curves,
        dict(
            rules=RULES,
            sizes=[3, 4],
            prior=tasks.Fixed(0.3),
            tasks_per_size=20,
            seed=(1, 2),
            batch=100,
        ),
    ),
    (risk_checks.z_threshold, dict(comparisons=3, alpha=0.01)),
    (certified_law.flow_constant, dict(b_max=5.0, prior=PRIOR, b0=2.5, points=2)),
    (certified_law.predicted_ends, dict(sizes=[40], prior=PRIOR)),
    (certified_law.slow_over_valley, dict(b=20.0, prior=PRIOR)),
    (certified_law.slow_over_valley_limit, dict(prior=PRIOR)),
    (
        certified_runs.certified_run,
        dict(corpus=CORPUS, prior=PRIOR, theta0=(3.0, 2.5), eta=1.0, b_stop=2.0),
    ),
    (
        certified_runs.certified_end_of_size,
        dict(m=3, n=4, prior=PRIOR, corpora=2, seed=1, b0=2.5, b_stop=3.0, n_workers=1),
    ),
    (
        certified_runs.certified_end_of_ends,
        dict(b_cert=[2.0, 3.0], censored=[False, False], at_start=[False, True]),
    ),
    (certified_runs.certified_scales, dict(k=4)),
    (certification.population_task_gradients, dict(a=1.0, b=2.0, s=[0.3])),
    (certification.relative_error, dict(corpus=CORPUS, a=5.0, b=10.0, prior=PRIOR)),
    (
        certification.relative_errors,
        dict(m=3, n=4, a=[5.0], b=[10.0], prior=PRIOR, repetitions=1, rng=0),
    ),
    (certification.sampling_coefficient, dict(a=5.0, b=10.0, prior=PRIOR)),
    (
        certification.task_sampling_errors,
        dict(a=5.0, b=10.0, prior=PRIOR, m=3, repetitions=2, rng=0),
    ),
    (certification.unseen_share, dict(a=5.0, b=10.0, prior=PRIOR, s_max=0.5)),
    (certification.context_bias, dict(corpus=CORPUS, a=5.0, b=10.0, prior=PRIOR)),
    (certification.certified_end, dict(b=[1.0, 2.0], ratio=[0.1, 0.2], level=0.15)),
    (certification.crossing, dict(b=[1.0, 2.0], values=[0.1, 0.3], level=0.2)),
    (
        certification.bias_crossing,
        dict(b=[1.0, 2.0], biases=[BIAS, BIAS._replace(ratio=0.9)], level=0.5),
    ),
    (certification.squared_error_law, dict(a=5.0, b=10.0, prior=PRIOR, m=3)),
    (fitting.inverse_expansion, dict(b=[1.0, 2.0, 3.0, 4.0], y=[1.0, 0.5, 0.3, 0.2])),
    (
        fitting.extrapolate,
        dict(b=[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], y=[1.0, 0.5, 0.3, 0.2, 0.2, 0.1]),
    ),
    (fitting.power_law, dict(x=[1.0, 2.0, 4.0], y=[1.0, 0.5, 0.26])),
    (
        fitting.least_squares,
        dict(design=[[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], y=[0.0, 1.0, 2.1]),
    ),
    (fitting.pooled, dict(values=[1.0, 2.0], se=[0.1, 0.2])),
    (fitting.bound_trend, dict(x=[1.0, 2.0, 3.0], y=[1.0, 1.0, 1.0])),
    (
        ladder.ladder,
        dict(  # three sizes of two runs: a trend and each size's spread are defined
            k=[10.0, 10.0, 20.0, 20.0, 40.0, 40.0],
            error=[0.5, 0.4, 0.2, 0.3, 0.1, 0.15],
            inside=[1, 0, 1, 1, 1, 1],
        ),
    ),
    (ladder.clopper_pearson, dict(inside=3, runs=8, confidence=0.95)),
    (
        ladder.price,
        dict(
            certified=ladder.ladder([10, 100], [0.1, 0.01], [1, 1]),
            edge=ladder.ladder([10, 100], [0.1, 0.01], [1, 1]),
        ),
    ),
    (EXPANSION.__call__, dict(b=[2.0])),
    (FIT.__call__, dict(x=[2.0])),
    (dynamics.slow_curve, dict(b=[10.0, 20.0], p=0.9, m=1.0, xi0=1.0)),
    (dynamics.phase_times, dict(trajectory=TRAJ, curve=np.sqrt)),
    (dynamics.aligned, dict(b=20.0, prior=PRIOR)),
    (dynamics.rate, dict(a=[5.0], b=[10.0], prior=PRIOR)),
    (dynamics.portrait, dict(prior=PRIOR, b=[10.0, 20.0], offset=[0.0, 2.0], p=0.9)),
    (
        dynamics.stable_steps,
        dict(prior=PRIOR, a0=[9.0], b0=[10.0], steps=2, iterations=1),
    ),
    (dynamics.hessian, dict(gradient=quadratic_gradient, a=1.0, b=2.0)),
    (
        dynamics.descends,
        dict(loss_and_gradient=quadratic, theta0=(1.0, 1.0), eta=0.1, steps=3),
    ),
    (
        dynamics.largest_stable_step,
        dict(
            loss_and_gradient=quadratic,
            theta0=(1.0, 1.0),
            guess=1.0,
            steps=3,
            iterations=2,
        ),
    ),
    (dynamics.reduced_time, dict(b_start=1.0, b_end=2.0, kappa=1.0, e=0.5)),
    (frozen.fresh_errors, dict(a=[5.0], b=[10.0], sizes=[3], contexts=4, rng=0)),
    (
        frozen.localization_rate,
        dict(
            a=120.0, b=150.0, sizes=[4, 6, 8, 12], thresholds=[0.3], contexts=4, seed=0
        ),
    ),
    (frozen.pooled_slope, dict(fits=[FIT, FIT])),
    (frozen.local_sizes, dict(sizes=[3, 4], b=10.0, s=0.3)),
    (frozen.interior_error, dict(a=11.0, b=10.0)),
    (frozen.excess_tilt, dict(excess=0.1, decades=1.0)),
    (
        frozen.scaled_difference,
        dict(value=1.0, value_se=0.1, reference=1.1, reference_se=0.1, allowance=0.05),
    ),
    (
        separation.separation,
        dict(
            errors={
                0.5: frozen.FreshErrors(
                    frozen.Errors(np.full((1, 2), 0.1), np.zeros((1, 2))),
                    {"nearest positive": frozen.Errors(np.full(2, 0.1), np.zeros(2))},
                )
            },
            floors={0.5: [0.1]},
            sizes=[4, 100],
            b=[40.0],
            alpha=0.01,
        ),
    ),
    (
        sampling_study.monte_carlo,
        dict(prior=PRIOR, m=[10], b=[20.0], repetitions=2, stream=0),
    ),
    (infinite_corpus.task_gradients, dict(a=1.0, b=2.0, s=[0.3])),
    (
        infinite_corpus.freeze_infinite,
        dict(m=3, prior=PRIOR, rng=0, level=0.5, rtol=1e-6),
    ),
    (infinite_corpus.predicted_freeze, dict(m=400, prior=PRIOR, level=0.5)),
    (infinite_corpus.predicted_share, dict(level=0.5)),
    (past_freeze.certified_step, dict(m=8, n=8, prior=PRIOR)),
    (
        past_freeze.run_far,
        dict(sizes=[(6, 6)], prior=PRIOR, corpora=1, seed=0, steps=3, points=2),
    ),
    (past_freeze.corpus_valley, dict(corpus=CORPUS, b=4.0, guess=3.0)),
    (
        past_freeze.collapse_points,
        dict(m=4, n=4, prior=PRIOR, corpora=1, seed=0, index=0),
    ),
    (past_freeze.lost_share, dict(c=[0.8, 0.95], prior=PRIOR)),
    (past_freeze.averaged_error, dict(a=4.0, b=4.0, prior=PRIOR)),
    (
        past_freeze.valley_errors,
        dict(shape=(4, 4), prior=PRIOR, corpora=1, seed=0, index=0, factors=[1.0]),
    ),
    (past_freeze.rms_error, dict(a=4.0, b=4.0, prior=PRIOR)),
    (starts.rule_corpus, dict(m=4, n=4, prior=PRIOR, rng=0)),
    (starts.start_step, dict(theta0=(3.0, 3.0), prior=PRIOR)),
    (starts.freeze_from, dict(corpus=CORPUS, prior=PRIOR, theta0=(4.0, 4.0))),
    (
        past_freeze.plain_descent,
        dict(
            shape=(4, 4),
            prior=PRIOR,
            seed=0,
            index=0,
            starts=[[4.0, 4.0]],
            eta=1.0,
            steps=2,
            points=2,
        ),
    ),
    (sparse_corpus.SparseCorpus.sample, dict(m=3, n=4, b_min=5.0, seed=0)),
    (SPARSE.members, dict(task=1)),
    (sparse_corpus.lowest_anchor, dict(b0=5.0, n=10)),
    (SPARSE.left_out_bound, dict(a=1.0, b=5.0)),
    (sparse_corpus.SparseFollower, dict(corpus=SPARSE)),
    (head.estimate, dict(a=1.0, b=2.0, x=X, y=Y)),
    (head.gradient, dict(a=1.0, b=2.0, x=X, y=Y)),
    (head.estimate_and_gradient, dict(a=1.0, b=2.0, x=XB, y=YB)),
    (head.scores, dict(a=1.0, b=2.0, x=X, y=Y)),
    (head.weights, dict(a=1.0, b=2.0, x=X, y=Y)),
    (head.hard_limit, dict(x=X, y=Y)),
    (head.hard_limit_expansion, dict(a=[1.0], b=[2.0], x=X, y=Y)),
    (head.Contexts, dict(x=XB, y=YB)),
    (head.distance_to_limit, dict(a=[1.0], b=[2.0], x=X, y=Y)),
    (CONTEXTS.summaries, dict(a=1.0, b=2.0)),
    (CONTEXTS.log_positive_share, dict(a=1.0, b=2.0)),
    (head.limit_ratio, dict(a=[1.0], b=[2.0], x=X, y=Y)),
    (head.limit_decay, dict(a=[1.0, 3.0], b=[2.0, 4.0], x=X, y=Y)),
    (symmetrization.mirrored_estimate, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.average_estimate, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.average_estimate_and_gradient, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.positive_mass, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.log_positive_mass, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.evidence_estimate, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.joint_estimate, dict(a=1.0, b=2.0, x=X, y=Y)),
    (symmetrization.mirrored_hard_limit, dict(x=X, y=Y)),
    (symmetrization.average_hard_limit, dict(x=X, y=Y)),
    (symmetrization.evidence_hard_limit, dict(x=X, y=Y)),
    (symmetrization.joint_hard_limit, dict(x=X, y=Y)),
    (symmetrization.edge_terms, dict(a=1.0, b=2.0, s=0.3)),
    (symmetrization.side, dict(a=1.0, b=2.0, s=0.3, q=0.7)),
    (symmetrization.average_residual, dict(a=1.0, b=2.0, s=0.3)),
    (symmetrization.evidence_residual, dict(a=1.0, b=2.0, s=0.3)),
    (symmetrization.threshold_nodes, dict(a=1.0, b=2.0, prior=PRIOR)),
    (symmetrization.loss_and_gradient, dict(a=1.0, b=2.0, prior=PRIOR)),
    (
        symmetrization.flow,
        dict(loss_and_gradient=quadratic, theta0=(1.0, 1.0), t_max=1.0, points=3),
    ),
    (symmetrization.rates, dict(loss_and_gradient=quadratic, trajectory=TRAJ)),
    (tasks.Uniform, dict(lo=0.1, hi=0.9)),
    (tasks.Beta, dict(alpha=2.0, beta=3.0)),
    (tasks.Fixed, dict(s=0.3)),
    (tasks.labels, dict(x=X, s=0.3)),
    (tasks.mirror, dict(x=X, y=Y, s=0.3)),
    (tasks.sample_contexts, dict(m=3, n=4, rng=0)),
    (PRIOR.sample, dict(size=3, rng=0)),
    (PRIOR.density, dict(s=[0.3])),
    (PRIOR.log_density, dict(s=[0.3])),
    (PRIOR.cdf, dict(x=[0.3])),
    (BETA.sample, dict(size=3, rng=0)),
    (BETA.density, dict(s=[0.3])),
    (BETA.log_density, dict(s=[0.3])),
    (BETA.cdf, dict(x=[0.3])),
    (FIXED.sample, dict(size=3)),
    (rank_test.stratified_rank_sum, dict(first=[[1.0, 2.0]], second=[[3.0]])),
]
CALL_IDS = [f"{c[0].__qualname__}" for c in CALLS]

_RESULT = "a result record, built by stumplib from validated input"
_SYMPY = "takes SymPy expressions, symbols or exact numbers (symbolic, no float input)"
_NO_ARGUMENTS = "takes no arguments"
_FIGURE = (
    "draws a chapter's figure from arrays the library computed and validated "
    "(machinery, no input of its own)"
)

# Public callables outside the table: {callable: why no bad-number row applies}.
NO_NUMERIC_INPUT = {
    sampling_study.SamplingStudy: _RESULT,
    separation.Separation: _RESULT,
    baselines.Estimate: _RESULT,
    risk_checks.RiskCurves: _RESULT,
    risk_checks.RiskCurves.z: "takes a dict of exact risks (arrays)",
    contexts.equation: "shows SymPy expressions (LaTeX strings and expressions)",
    contexts.residual: _SYMPY,
    contexts.constant: _SYMPY,
    contexts.context_figure: "draws arrays made by stumplib (tests/test_contexts.py)",
    contexts.risk_rates_figure: "draws RiskCurves results (tests/test_contexts.py)",
    contexts.attention_figure: "draws arrays made by stumplib (test_contexts.py)",
    contexts.hard_limit_figure: "draws arrays made by stumplib (test_contexts.py)",
    calibration.OffValley: _RESULT,
    certification.ContextBias: _RESULT + "; bias_crossing checks its fields",
    certification.Crossing: _RESULT,
    certified_runs.CertifiedRun: _RESULT,
    certified_runs.CertifiedEnd: _RESULT,
    certification.SquaredErrorLaw: _RESULT,
    calibration.SlowLayer: _RESULT,
    calibration.SamplingCorrection: _RESULT,
    certified_runs.CertifiedScales: _RESULT,
    certified_law.FlowConstant: _RESULT,
    certified_law.PredictedEnds: _RESULT,
    certified_law.SlowOverValley: _RESULT,
    certified_runs.certified_end_over: (
        "takes CertifiedRun records (TypeError naming runs)"
    ),
    dynamics.Phases: _RESULT,
    fitting.Expansion: _RESULT,
    fitting.Limit: _RESULT,
    dynamics.Portrait: _RESULT,
    dynamics.StableSteps: _RESULT,
    fitting.PowerLaw: _RESULT + "; pooled_slope checks the fields it reads",
    fitting.Pooled: _RESULT,
    fitting.LinearFit: _RESULT,
    argument.frozen_runs: (
        "takes a path (as full_data.load; ValueError naming the path if it has no runs)"
    ),
    full_data.load: "takes a path (FileNotFoundError, or ValueError naming the path)",
    full_data.save: "takes a path and a dict (ValueError names the missing provenance)",
    fitting.BoundTrend: _RESULT + "; made by bound_trend, which checks its inputs",
    claims.independent: "takes a check record (a dict the library made)",
    ladder.Ladder: _RESULT + "; made by ladder, which checks its inputs",
    ladder.Rung: _RESULT + "; made by ladder, which checks its inputs",
    fitting.BoundTrend.log_power: _NO_ARGUMENTS,
    gradcheck.Comparison: _RESULT,
    pretraining.Freeze: _RESULT,
    past_freeze.FarRun: _RESULT,
    past_freeze.ValleyErrors: _RESULT,
    past_freeze.PlainRuns: _RESULT,
    starts.StartFreeze: _RESULT,
    past_freeze.valley_rms: "takes ValleyErrors made by valley_errors (TypeError)",
    shapes.Shapes: _RESULT,
    shapes.Corpora: _RESULT,
    shapes.corpora_of: "takes Shapes grids made by freeze_shapes (test_shapes.py)",
    rank_test.RankTest: _RESULT,
    certification.GridCrossing: _RESULT,
    frozen.Errors: _RESULT,
    frozen.FreshErrors: _RESULT,
    frozen.Localization: _RESULT,
    sparse_corpus.SparseCorpus: "drawn by SparseCorpus.sample (TypeError naming it)",
    sparse_corpus.SparseFollower.state: _NO_ARGUMENTS,
    sparse_corpus.SparseFollower.restore: (
        "takes a state dict (ValueError naming it; tests/test_sparse_corpus.py)"
    ),
    corpus_rule.CertifiedFreeze: _RESULT,
    infinite_corpus.InfiniteFreeze: _RESULT,
    infinite_corpus.Prediction: _RESULT,
    infinite_corpus.ShareRange: _RESULT,
    frozen_data.Run: _RESULT,
    frozen_data.Data: _RESULT,
    frozen_data.LevelRow: _RESULT,
    frozen_data.LawRow: _RESULT,
    frozen_data.certified_runs: "reads a committed data file (a path)",
    frozen_data.level_runs: "reads a committed data file (a path)",
    frozen_data.headline_runs: "reads a committed data file (a path)",
    frozen_data.headline_declaration: "reads a committed data file (a path)",
    frozen_data.by_level: "takes Run records read by the library",
    frozen_data.law_rows: "takes Run records read by the library",
    symmetrization.Side: _RESULT,
    symmetrization.Rates: _RESULT,
    training.Trajectory: _RESULT + "; its readers check it (validation.trajectory)",
    claims.ClaimFailed: "an exception class",
    claims.RecordRenderer: "a myst-nb plugin class",
    claims.RecordRenderer.handle_mime: "takes a myst-nb renderer and MIME data",
    claims.line: "takes a claim record (a dict of strings made by make_record)",
    claims.records: "takes a notebook (a dict)",
    claims.parse_lines: "takes text",
    claims.resolves: "takes a claim record (a dict of strings made by make_record)",
    claims.read_margin: "takes a claim record (a dict of strings made by make_record)",
    claims.find: "takes claim records and a reference string (tested in test_claims)",
    claims.verdict: "takes claim records and reference strings",
    scales.sized: "takes the two values to choose between, of any kind",
    scales.scale: _NO_ARGUMENTS
    + " (STUMPLIB_SCALE is checked, TestNonNumericArguments)",
    scales.setting: "reads the environment; names the variable (tests/test_scales.py)",
    scales.seed_offset: _NO_ARGUMENTS
    + " (STUMPLIB_SEED_OFFSET is checked, tests/test_scales.py)",
    claims.failures: _NO_ARGUMENTS
    + " (STUMPLIB_CLAIM_FAILURES is checked, tests/test_claims.py)",
    progress.bar: "takes an iterable and tqdm's own options",
    sweep.examples: (
        "takes an item of any shape; its (m, n) is checked (tests/test_sweep.py)"
    ),
    sweep.workers: _NO_ARGUMENTS
    + " (STUMPLIB_WORKERS is checked, tests/test_sweep.py)",
    plotting.use_book_style: _NO_ARGUMENTS,
    posthoc.Strategies: _RESULT,
    posthoc.Strategies.crossover: _NO_ARGUMENTS,
    posthoc.compare: (
        "runs two population flows per call; tests/test_posthoc.py names each bad "
        "argument"
    ),
    symbolic_posthoc.PosthocLimits: _RESULT,
    symbolic_posthoc.PosthocLimits.differences: _NO_ARGUMENTS,
    symbolic_posthoc.limits: _SYMPY,
    identities.check: _SYMPY + "; the record it makes is claims.check's",
    boundary_plots.edge_band: _FIGURE,
    certified_plots.law_figure: _FIGURE,
    certified_plots.signal_noise_figure: _FIGURE,
    certified_plots.task_sampling_figure: _FIGURE,
    certified_plots.portrait_figure: _FIGURE,
    frozen_plots.ladder_figure: _FIGURE,
    frozen_plots.size_colours: "a number of colours (machinery)",
    frozen_plots.fresh_figure: _FIGURE,
    frozen_plots.ratio_figure: _FIGURE,
    certified_data.load: "takes a path (FileNotFoundError, or json's errors)",
    certified_data.LawSize: _RESULT,
    certified_data.LawData: _RESULT,
    boundary_plots.collapse: _FIGURE,
    boundary_plots.pointwise_risks: _FIGURE,
    boundary_plots.strategies: _FIGURE,
    interactive.Interactive: _RESULT,
    interactive.Interactive.html: _NO_ARGUMENTS,
    interactive.Interactive.png: _NO_ARGUMENTS,
    interactive.on_ready: "takes Bokeh models (machinery)",
    interactive.book_axes: "takes a Bokeh plot (machinery)",
    interactive.note_div: "takes the note's HTML text (machinery)",
    live_portrait.phase_portrait: (
        "each valid call precomputes every path (seconds); tests/test_interactive.py "
        "tries every bad value its declared constraints list"
    ),
    corpus_playground.start: _NO_ARGUMENTS,
    corpus_playground.quadrature: _NO_ARGUMENTS,
    corpus_playground.corpus_playground: (
        "each valid call runs its expected settings (seconds); "
        "tests/test_corpus_playground.py tries every bad value its declared "
        "constraints list"
    ),
    prose.Shown: "a float subclass for display; glue builds it from a validated value",
    symbolic_boundary.empty_side_survival: _NO_ARGUMENTS,
    symbolic_boundary.empty_side_moments: _NO_ARGUMENTS,
    symbolic_boundary.edge_term: _SYMPY,
    symbolic_boundary.mirrored: _SYMPY,
    symbolic_boundary.risk: "takes a rule name (ValueError naming rule)",
    symbolic_boundary.integrated_leading: _SYMPY,
    symbolic_dynamics.LossExpansion: _RESULT,
    symbolic_dynamics.Reduction: _RESULT,
    symbolic_dynamics.LossExpansion.loss: _NO_ARGUMENTS,
    symbolic_dynamics.LossExpansion.numeric_loss: _NO_ARGUMENTS
    + " (its function checks via coordinate)",
    symbolic_dynamics.full_expansion: _NO_ARGUMENTS,
    symbolic_dynamics.shared_descent_kappa: _SYMPY,
    symbolic_head.Derivation: _RESULT,
    symbolic_head.score_weight: _SYMPY,
    symbolic_population.ClosedForm: _RESULT,
    symbolic_sampling.LayerConstant: _RESULT,
    symbolic_sampling.SlowLayerConstant: _RESULT,
    symbolic_sampling.layer_constant: _NO_ARGUMENTS,
    symbolic_sampling.slow_layer_constant: _NO_ARGUMENTS,
    symbolic_sampling.LayerCorrection: _RESULT,
    symbolic_sampling.layer_correction: _NO_ARGUMENTS,
    symbolic_population.GradientIdentities: _RESULT,
    symbolic_population.InnerLayer: _RESULT,
    symbolic_population.Valley: _RESULT,
    symbolic_population.FullPrior: _RESULT,
    symbolic_population.closed_form: _NO_ARGUMENTS,
    symbolic_population.gradient_identities: "takes a ClosedForm (symbolic)",
    symbolic_population.logistic_form: _NO_ARGUMENTS,
    symbolic_population.inner_layer: _NO_ARGUMENTS,
    symbolic_population.full_prior: _NO_ARGUMENTS,
    symbolic_risks.survival: _NO_ARGUMENTS,
    symbolic_risks.gap_moments: _NO_ARGUMENTS,
    symbolic_risks.risks: _NO_ARGUMENTS,
    symbolic_risks.integrated: _SYMPY,
    symbolic_risks.interior: _SYMPY,
    symbolic_risks.leading_constant: _SYMPY,
    symbolic_risks.numeric: _SYMPY,
    symbolic_risks.readable: _SYMPY,
    symbolic_symmetrized.Law: _RESULT,
    symbolic_symmetrized.interior_loss: _SYMPY,
    symbolic_symmetrized.layer_loss: _SYMPY,
    symbolic_symmetrized.interior_laws: _SYMPY,
    symbolic_symmetrized.zeta_constant: _NO_ARGUMENTS,
    symbolic_symmetrized.inner_profiles: _NO_ARGUMENTS,
    symbolic_symmetrized.leakage_coefficient: (
        "takes a rule name (ValueError naming rule)"
    ),
    symbolic_symmetrized.full_laws: "takes a rule name (ValueError naming rule)",
}
NO_NUMERIC_INPUT.update(
    {
        validation.Constraint: "a check itself, tested in tests/test_constraints.py",
        validation.Constraint.__call__: "a check itself (tests/test_constraints.py)",
        validation.Constraint.bad_values: "its record (tests/test_constraints.py)",
    }
)
NO_NUMERIC_INPUT.update(
    {
        check: "a check itself, tested in tests/test_validation.py"
        for name, check in vars(validation).items()
        if not name.startswith("_")
        and inspect.isfunction(check)
        and check.__module__.startswith(validation.__name__)
    }
)


def _public_callables():
    """``(qualified name, callable)`` of every public function, class and method of
    stumplib.

    Methods (``__call__`` included) are their functions, as defined in the class body.
    """
    for info in pkgutil.walk_packages(stumplib.__path__, "stumplib."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                name.startswith("_")
                or not callable(obj)
                or obj.__module__ != module.__name__
            ):
                continue
            yield f"{module.__name__}.{name}", obj
            for attr, member in vars(obj).items() if inspect.isclass(obj) else ():
                function = getattr(
                    member, "__func__", member
                )  # class and static methods
                if inspect.isfunction(function) and (
                    attr == "__call__" or attr[0] != "_"
                ):
                    yield f"{module.__name__}.{name}.{attr}", function


def test_every_public_callable_is_in_the_table_or_exempt():
    tabled = {getattr(case[0], "__func__", case[0]) for case in CASES + CALLS}
    public = dict(_public_callables())
    missing = [
        name
        for name, obj in public.items()
        if obj not in tabled | set(NO_NUMERIC_INPUT)
    ]
    assert not missing, (
        f"add these to CASES (or, with a reason, NO_NUMERIC_INPUT): {missing}"
    )
    assert not tabled & set(NO_NUMERIC_INPUT)
    assert set(NO_NUMERIC_INPUT) <= set(public.values())  # no stale exemption


# bad values of a real argument: (value, exception)
NOT_REAL = [
    (1 + 2j, TypeError),
    ("1.5", TypeError),
    (None, TypeError),
    (np.array([0.5], dtype=object), TypeError),
    ([0.5, "x"], TypeError),
    (b"1", TypeError),
    (np.array([1 + 0j]), TypeError),
]
NOT_FINITE = [(np.nan, ValueError), (np.inf, ValueError), (-np.inf, ValueError)]
RAGGED = [([[0.1, 0.2], [0.3]], ValueError)]
BAD_LAWS = [None, "uniform", 0.5, object(), tasks.Fixed(0.5), np.array([0.1, 0.9])]


def _call(case, name, value):
    func, kwargs = case[0], dict(case[1])
    kwargs[name] = value
    return func(**kwargs)


def _names(field):
    return field.split()


def _names_in(name, message):
    """Whether ``message`` names the argument ``name`` as a word (not inside one)."""
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", message) is not None


def _none_is_valid(func, name):
    """Whether ``None`` is the documented default of argument ``name`` of ``func``."""
    parameter = inspect.signature(func).parameters.get(name)
    return parameter is not None and parameter.default is None


@pytest.mark.parametrize("case", CASES + CALLS, ids=IDS + CALL_IDS)
def test_the_valid_call_runs(case):
    case[0](**case[1])


def _constraints(func):
    """The declared constraints of ``func`` (of its ``__init__`` for a class)."""
    return getattr(
        func.__init__ if inspect.isclass(func) else func, "__constraints__", None
    )


def _generated(case):
    """``(name, value, error)``: each declared argument against its bad values."""
    for name, constraint in _constraints(case[0]).items():
        for value, error in constraint.bad_values():
            yield name, value, error


DECLARED = CALLS + [c for c in CASES if _constraints(c[0]) is not None]


@pytest.mark.parametrize("case", DECLARED, ids=[c[0].__qualname__ for c in DECLARED])
def test_every_declared_constraint_rejects_its_bad_values(case):
    """Generated: every argument, every bad value its constraint lists (a value just
    outside it, NaN, inf, a wrong type, a wrong shape, a bool for an int), raises the
    constraint's error naming the argument (a point's entries are named a and b)."""
    for name, value, error in _generated(case):
        with pytest.raises(error) as info:
            _call(case, name, value)
        message = str(info.value)
        assert _names_in(name, message) or (
            _constraints(case[0])[name].check is validation.arrays.point
            and (_names_in("a", message) or _names_in("b", message))
        ), (case[0].__qualname__, name, value, message)


def test_the_generated_cases_are_counted():
    count = sum(len(list(_generated(case))) for case in DECLARED)
    assert count >= 10 * len(DECLARED)  # at least ten bad values a function


PUBLIC_FUNCTIONS = [
    (name, vars(obj)["__init__"] if inspect.isclass(obj) else obj)
    for name, obj in _public_callables()
    if obj not in NO_NUMERIC_INPUT
    and not (inspect.isclass(obj) and "__init__" not in vars(obj))
]
PUBLIC_FUNCTIONS = [  # a function of no arguments declares nothing
    (name, function)
    for name, function in PUBLIC_FUNCTIONS
    if set(inspect.signature(function).parameters) - {"self", "cls"}
]


@pytest.mark.parametrize(
    "name, function", PUBLIC_FUNCTIONS, ids=[n for n, _ in PUBLIC_FUNCTIONS]
)
def test_every_public_function_declares_its_constraints(name, function):
    """A class declares them on its ``__init__``."""
    assert hasattr(function, "__constraints__"), (
        f"{name} declares no constraints: decorate it with validation.constrained"
    )


def _rejects_real(case, name, value, error):
    """A bad value of real argument ``name`` raises ``error`` naming it."""
    if value is None and _none_is_valid(case[0], name):
        return  # None is the documented default
    if name in _names(case[3]) and not np.isscalar(value):
        error = TypeError  # a count given as an array is not an integer
    with pytest.raises(error) as info:
        _call(case, name, value)
    assert _names_in(name, str(info.value)), (
        case[0].__qualname__,
        name,
        value,
        str(info.value),
    )


def _rejects_law(case, name, value):
    """A bad law for argument ``name`` is a TypeError naming it."""
    if isinstance(value, tasks.Fixed) and name in _names(case[5]):
        return  # a point mass is a valid law to sample from
    if value is None and name == "features":
        return  # the default: uniform features
    with pytest.raises(TypeError) as info:
        _call(case, name, value)
    assert _names_in(name, str(info.value)), (
        case[0].__qualname__,
        name,
        str(info.value),
    )


BAD_REALS = NOT_REAL + NOT_FINITE + RAGGED


@settings(max_examples=400, deadline=None)
@given(case=st.sampled_from([c for c in CASES if c[2]]), data=st.data())
def test_not_a_real_number_is_a_type_error_naming_the_argument(case, data):
    name = data.draw(st.sampled_from(_names(case[2])))
    _rejects_real(case, name, *data.draw(st.sampled_from(BAD_REALS)))


@settings(max_examples=200, deadline=None)
@given(case=st.sampled_from([c for c in CASES if c[4] or c[5]]), data=st.data())
def test_not_a_law_is_a_type_error_naming_the_argument(case, data):
    name = data.draw(st.sampled_from(_names(case[4]) + _names(case[5])))
    _rejects_law(case, name, data.draw(st.sampled_from(BAD_LAWS)))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_every_argument_rejects_every_bad_value(case):
    """The same checks, exhaustively: every real argument against every bad real value
    and every law argument against every bad law (the hypothesis tests above sample
    these combinations, a few percent per run)."""
    for name in _names(case[2]):
        for value, error in BAD_REALS:
            _rejects_real(case, name, value, error)
    for name in _names(case[4]) + _names(case[5]):
        for value in BAD_LAWS:
            _rejects_law(case, name, value)


@settings(max_examples=200, deadline=None)
@given(
    case=st.sampled_from([c for c in CASES if c[3]]),
    data=st.data(),
    bad=st.one_of(st.integers(-5, 0), st.floats(0.1, 0.9), st.just(True)),
)
def test_bad_counts_are_value_errors_naming_the_argument(case, data, bad):
    name = data.draw(st.sampled_from(_names(case[3])))
    zero_is_valid = name in (
        "steps",
        "degree",
        "max_steps",
        "decimals",
        "seed",
        "stored",
        "task",
        "index",
    ) or (name == "size" and case[0].__name__ == "sample")
    if zero_is_valid and bad == 0 and bad is not True:
        # zero steps (degree, decimals, seed, task index; a sample of size 0) is valid
        return
    with pytest.raises(ValueError) as info:
        _call(case, name, bad)
    assert _names_in(name, str(info.value)), (
        case[0].__qualname__,
        name,
        str(info.value),
    )


CORPUS_CASES = [c for c in CASES if "corpus" in inspect.signature(c[0]).parameters]


@pytest.mark.parametrize(
    "case", CORPUS_CASES, ids=[c[0].__qualname__ for c in CORPUS_CASES]
)
@pytest.mark.parametrize(
    "value", [*BAD_LAWS, head.Contexts(XB, YB)], ids=lambda v: type(v).__name__
)
def test_not_a_corpus_is_a_type_error_naming_it(case, value):
    with pytest.raises(TypeError, match="^corpus must be a Corpus"):
        _call(case, "corpus", value)


@settings(max_examples=100, deadline=None)
@given(imag=st.floats(1e-300, 1e300), real=st.floats(-1e3, 1e3))
def test_complex_is_never_truncated(imag, real):
    for func in (
        head.estimate,
        symmetrization.evidence_estimate,
        symmetrization.joint_estimate,
    ):
        with pytest.raises(TypeError, match="^a must"):
            func(complex(real, imag), 1.0, X, Y)


class TestShapes:
    def test_labels_thresholds_must_match_the_batch(self):
        with pytest.raises(ValueError, match="^s of shape"):
            tasks.labels(np.zeros(4), np.zeros(4))
        assert tasks.labels(np.zeros((4, 3)), np.zeros(4)).shape == (4, 3)

    def test_contexts_with_labels_given_twice(self):
        ctx = head.Contexts(XB, YB)
        with pytest.raises(ValueError, match="^y must be omitted"):
            head.estimate(1.0, 2.0, ctx, YB)

    def test_parameters_must_broadcast_against_the_batch(self):
        with pytest.raises(ValueError, match="^a of shape"):
            head.estimate([1.0, 2.0, 3.0], 2.0, XB, YB)
        with pytest.raises(ValueError, match="^a of shape"):
            head.scores([1.0, 2.0, 3.0], 2.0, XB, YB)
        with pytest.raises(ValueError, match="a .*b .*s"):
            population.estimate([1.0, 2.0], 2.0, [0.1, 0.2, 0.3])

    @pytest.mark.parametrize(
        "x, y, s, match",
        [
            (
                XB,
                [[1.0, 1.0, 1.0], [0.0, 0.0, 1.0]],
                [0.3, 0.6],
                r"^y must be 1\{x > s\}",
            ),
            (X, Y, 0.3, r"^x must have shape \(m, n\)"),
            ([XB], [YB], [[0.3, 0.6]], r"^x must have shape \(m, n\)"),
            (XB, YB, [0.3], r"^s must have shape"),
        ],
    )
    def test_corpus_consistency(self, x, y, s, match):
        with pytest.raises(ValueError, match=match):
            corpus.Corpus(x, y, s)

    def test_q_must_be_the_complement_of_s(self):
        with pytest.raises(ValueError, match="^s and q must have the same shape"):
            population.residual(1.0, 2.0, [0.3, 0.4], q=[0.7])
        with pytest.raises(ValueError, match="^q must be 1 - s"):
            population.residual(1.0, 2.0, 0.3, q=0.6)

    def test_uniform_narrower_than_normal_floats_is_rejected(self):
        with pytest.raises(ValueError, match="^hi - lo must be at least"):
            tasks.Uniform(0.0, 1e-310)


EMPTY = [
    head.estimate,
    head.gradient,
    head.estimate_and_gradient,
    head.hard_limit,
    head.scores,
    head.weights,
    baselines.midpoint,
    baselines.gap,
    symmetrization.mirrored_estimate,
    symmetrization.average_estimate,
    symmetrization.positive_mass,
    symmetrization.evidence_estimate,
    symmetrization.joint_estimate,
    symmetrization.joint_hard_limit,
    symmetrization.evidence_hard_limit,
    symmetrization.average_hard_limit,
]


@pytest.mark.parametrize("func", EMPTY, ids=[f.__qualname__ for f in EMPTY])
def test_an_empty_batch_gives_an_empty_result(func):
    x = y = np.zeros((0, 5))
    args = (
        (x, y)
        if next(iter(inspect.signature(func).parameters)) == "x"
        else (1.0, 2.0, x, y)
    )
    out = func(*args)
    for part in out if isinstance(out, tuple) else (out,):
        assert np.shape(part)[0] == 0


def test_an_empty_context_is_a_value_error():
    with pytest.raises(ValueError, match="context is empty"):
        head.estimate(1.0, 2.0, np.zeros((3, 0)), np.zeros((3, 0)))


class TestTraining:
    def test_non_finite_gradient_stops_naming_step_and_state(self):
        def broken(a, b):
            return (1.0, np.nan, 0.0) if a < 0.5 else (a**2, 2 * a, 0.0)

        match = r"non-finite loss or gradient at step 4 \(a=0\.4"
        with pytest.raises(FloatingPointError, match=match):
            training.gradient_descent(broken, (1.0, 0.0), eta=0.1, steps=10)

    def test_population_descent_reports_divergence(self):
        with pytest.raises(FloatingPointError, match="diverged at step 1.*eta=1e\\+12"):
            training.population_descent(FULL, (40.0, 20.0), eta=1e12, steps=5)

    def test_non_finite_state_stops(self):
        with pytest.raises(
            FloatingPointError, match="diverged at step 0: non-finite state"
        ):
            training.gradient_descent(
                lambda a, b: (0.0, 1e308, 0.0), (0.0, 0.0), eta=1e10, steps=3
            )

    @pytest.mark.parametrize("t_max", [1e-6, 1e-3, 2e-3])
    @pytest.mark.parametrize("points", [1, 2, 5])
    def test_gradient_flow_ends_at_t_max(self, t_max, points):
        traj = training.gradient_flow(PRIOR, (8.0, 10.0), t_max, points=points)
        assert traj.t[0] == 0.0 and traj.t[-1] == t_max and len(traj.t) == points + 1
        assert np.all(np.diff(traj.t) > 0)

    @pytest.mark.parametrize("rtol", [0.0, -1e-9, np.nan, 1.0])
    def test_gradient_flow_rtol(self, rtol):
        with pytest.raises(ValueError, match="^rtol must"):
            training.gradient_flow(PRIOR, (8.0, 10.0), 1.0, rtol=rtol)

    @pytest.mark.parametrize(
        "eta, steps, match",
        [
            (0.0, 3, "^eta must be positive"),
            (-1.0, 3, "^eta must be positive"),
            (0.1, -1, "^steps must be an integer"),
        ],
    )
    def test_descends_validates(self, eta, steps, match):
        with pytest.raises(ValueError, match=match):
            dynamics.descends(quadratic, (1.0, 1.0), eta, steps)

    @pytest.mark.parametrize("theta0", [(1.0,), (1.0, 2.0, 3.0), "ab", 1.0])
    def test_theta0_must_be_a_pair(self, theta0):
        with pytest.raises(ValueError, match="^theta0 must be a pair"):
            training.gradient_descent(quadratic, theta0, 0.1, 3)


class TestNonNumericArguments:
    """Arguments outside the table: tuples of summaries, figures, records, workers."""

    @pytest.mark.parametrize(
        "neg, error, match",
        [
            (None, ValueError, "^neg must be a triple"),
            ((0.0, 0.1), ValueError, "^neg must be a triple"),
            ((0.0, "0.1", 0.0), TypeError, r"^neg\[1\]"),
            ((1j, 0.1, 0.0), TypeError, r"^neg\[0\]"),
            ((np.nan, 0.1, 0.0), ValueError, r"^neg\[0\]"),
            ((np.inf, 0.1, 0.0), ValueError, r"^neg\[0\]"),
            ((0.0, np.nan, 0.0), ValueError, r"^neg\[1\]"),
            ((0.0, 0.1, [0.0, 0.1, 0.2]), ValueError, "neg"),
        ],
    )
    def test_combine(self, neg, error, match):
        pos = (0.0, [0.2, 0.3], 0.01)
        with pytest.raises(error, match=match):
            moments.combine(neg, pos)

    def test_combine_accepts_an_empty_class(self):
        offset, d_a, d_b = moments.combine((-np.inf, 0.0, 0.0), (0.0, 0.2, 0.01))
        assert (offset, d_a, d_b) == (0.2, 0.0, -0.01)

    @pytest.mark.parametrize(
        "height, error",
        [("2", TypeError), (1j, TypeError), (0.0, ValueError), ([1.0], ValueError)],
    )
    def test_subplots_height(self, height, error):
        with pytest.raises(error, match="^height"):
            plotting.subplots(height=height)

    @pytest.mark.parametrize("fig", [None, "fig", AX])
    def test_show_needs_a_figure(self, fig):
        for func in (plotting.show, plotting.smallest_font):
            with pytest.raises(TypeError, match="^fig must be a matplotlib Figure"):
                func(fig)

    def test_reference_slope_needs_axes_and_a_1d_x(self):
        with pytest.raises(TypeError, match="^ax must"):
            plotting.reference_slope(None, [1.0, 2.0], -1.0, 1.0)
        with pytest.raises(ValueError, match="^x must be a non-empty 1-D"):
            plotting.reference_slope(AX, [], -1.0, 1.0)
        with pytest.raises(ValueError, match="^x must be positive"):
            plotting.reference_slope(AX, [0.0, 1.0], -1.0, 1.0)

    @pytest.mark.parametrize("measured", ["1.0", 1j, None, [1.0, 2.0]])
    def test_claim_measured_must_be_one_real_number(self, measured):
        with pytest.raises((TypeError, ValueError), match="^measured"):
            claims.make_record(**{**RECORD, "measured": measured})

    def test_claim_with_a_non_finite_measurement_fails_without_error(self):
        assert not claims.make_record(**{**RECORD, "measured": np.nan})["holds"]

    def test_sweep_function_must_be_callable(self):
        with pytest.raises(TypeError, match="^function must be callable"):
            sweep.run(None, [1, 2], n_workers=1)
        for bad, error in (
            ("2", TypeError),
            (1j, TypeError),
            (1.5, ValueError),
            (0, ValueError),
        ):
            with pytest.raises(error, match="^n_workers"):
                sweep.run(abs, [1, 2], n_workers=bad)

    def test_experiment_scale_is_checked(self, monkeypatch):
        monkeypatch.setenv("STUMPLIB_SCALE", "huge")
        with pytest.raises(ValueError, match="^STUMPLIB_SCALE"):
            scales.scale()
        with pytest.raises(ValueError, match="^STUMPLIB_SCALE"):
            scales.sized(1, 2)

    @pytest.mark.parametrize(
        "fits, error, match",
        [
            ([], ValueError, "^fits must not be empty"),
            (None, TypeError, "^fits must be a sequence"),
            ([FIT, 0.5], TypeError, "^fits must be a law providing slope, slope_se"),
            ([FIT._replace(slope="1")], TypeError, r"^fits\.slope must hold real"),
            (
                [FIT._replace(slope_se=np.nan)],
                ValueError,
                r"^fits\.slope_se must be finite",
            ),
            ([FIT._replace(slope_se=0.0)], ValueError, "^fits must have positive"),
        ],
    )
    def test_pooled_slope_checks_its_fits(self, fits, error, match):
        with pytest.raises(error, match=match):
            frozen.pooled_slope(fits)

    @pytest.mark.parametrize(
        "trajectory, error, match",
        [
            (None, TypeError, "^trajectory must be a law providing t, a, b"),
            (
                dataclasses.replace(TRAJ, a=np.array([1.0, np.nan])),
                ValueError,
                r"^trajectory\.a must be",
            ),
            (
                dataclasses.replace(TRAJ, b=np.array([3.0])),
                ValueError,
                r"^trajectory\.t, \.a and \.b",
            ),
            (
                dataclasses.replace(TRAJ, t=np.array([-1.0, 1.0])),
                ValueError,
                r"^trajectory\.t must be non",
            ),
        ],
    )
    def test_rates_check_the_trajectory(self, trajectory, error, match):
        with pytest.raises(error, match=match):
            symmetrization.rates(quadratic, trajectory)
        with pytest.raises(TypeError, match="^loss_and_gradient must be callable"):
            symmetrization.rates(None, TRAJ)

    @pytest.mark.parametrize(
        "sizes, error",
        [
            ([(2, 0)], ValueError),
            ([(2, 2.5)], ValueError),
            ([2, 3], ValueError),
            ([(2, "3")], TypeError),
        ],
    )
    def test_pretraining_sizes_are_pairs_of_counts(self, sizes, error):
        with pytest.raises(error, match="^sizes must"):
            corpus_rule.pretrain_noisy(sizes, PRIOR, 1, 0, n_workers=1)
        with pytest.raises(
            ValueError, match="^sizes and targets must have equal lengths"
        ):
            pretraining.pretrain([(2, 3), (3, 4)], [3.0], PRIOR, 1, 0, n_workers=1)

    def test_path_parameters_must_broadcast(self):
        with pytest.raises(ValueError, match="^a and b must broadcast"):
            head.distance_to_limit([1.0, 2.0], [1.0, 2.0, 3.0], X, Y)
        with pytest.raises(ValueError, match="^a and b must broadcast"):
            gradcheck.compare(
                ([1.0, 2.0],) * 2, ([1.0, 2.0],) * 2, [1.0, 2.0], [1.0, 2.0, 3.0], 0.1
            )

    @pytest.mark.parametrize(
        "sizes, error", [([3, 0], ValueError), ([3, 2.5], ValueError)]
    )
    def test_sizes_are_counts(self, sizes, error):
        with pytest.raises(error, match="^sizes must be an integer"):
            frozen.local_sizes(sizes, 10.0, 0.3)
        with pytest.raises(error, match="^sizes must be an integer"):
            frozen.fresh_errors([5.0], [10.0], sizes, contexts=4, rng=0)
        with pytest.raises(error, match="^sizes must be an integer"):
            certified_law.predicted_ends(sizes, PRIOR)

    @pytest.mark.parametrize("theta0", [None, "ab", (1.0,), (1.0, "2")])
    def test_theta0_of_the_pretraining_and_flow_loops(self, theta0):
        with pytest.raises((TypeError, ValueError), match="theta0|^b must"):
            pretraining.train_to_scale(CORPUS, theta0, 0.1, 1.5, max_steps=3)
        with pytest.raises((TypeError, ValueError), match="theta0|^b must"):
            symmetrization.flow(quadratic, theta0, 1.0, points=3)


class TestIssue27:
    """The bad inputs of issue 27: each a clean error naming the argument first."""

    def test_one_context_does_not_broadcast_parameters(self):
        for a, b in (
            (np.array([1.0, 1.0, 1.0]), 2.0),
            (np.array([]), 2.0),
            (1.0, np.ones(2)),
        ):
            name = "a" if np.ndim(a) else "b"
            for func in (head.scores, head.weights, head.estimate):
                with pytest.raises(ValueError, match=f"^{name}"):
                    func(a, b, X, Y)

    @pytest.mark.parametrize("ratio", [[-0.1, 0.2], [0.1, -np.inf]])
    def test_certified_end_rejects_negative_ratios(self, ratio):
        with pytest.raises(ValueError, match="^ratio"):
            certification.certified_end([1.0, 2.0], ratio, 0.15)

    def test_certified_end_nan_ratio_is_above_the_level_by_design(self):
        assert (
            certification.certified_end([1.0, 2.0, 3.0], [0.1, np.nan, 0.1], 0.15)
            == 1.0
        )
        assert np.isnan(certification.certified_end([1.0, 2.0], [np.nan, 0.1], 0.15))

    @pytest.mark.parametrize("func", [fitting.inverse_expansion, fitting.extrapolate])
    def test_fits_need_distinct_scales(self, func):
        b = [10.0, 10.0, 10.0, 20.0, 20.0, 20.0]
        with pytest.raises(ValueError, match="^b must"):
            func(b, [1.0, 1.1, 0.9, 2.0, 2.1, 1.9], degree=2)

    def test_fit_with_a_repeated_scale_among_enough_distinct_ones_is_finite(self):
        fit = fitting.extrapolate(
            [10.0, 10.0, 20.0, 40.0, 80.0, 160.0], [1, 1, 2, 3, 4, 5.0]
        )
        assert np.all(np.isfinite(fit))

    def test_sizes_reject_booleans(self):
        with pytest.raises(ValueError, match="^sizes"):
            frozen.fresh_errors([5.0], [10.0], [5, True], contexts=4, rng=0)
        with pytest.raises(ValueError, match="^sizes"):
            validation.counts(np.array([True, False]), "sizes")

    def test_phase_times_rejects_a_nan_curve(self):
        with pytest.raises(ValueError, match="^curve"):
            dynamics.phase_times(TRAJ, lambda b: np.full_like(b, np.nan))

    def test_count_given_as_an_array_names_its_shape(self):
        for value in (np.array([3, 4]), [3], np.array([[2]])):
            with pytest.raises(
                ValueError, match=r"^m must be a single integer .*shape"
            ):
                validation.count(value, "m")
        with pytest.raises(ValueError, match="^m must"):
            certification.squared_error_law(5.0, 10.0, PRIOR, np.array([10, 20]))

    @pytest.mark.parametrize(
        "rng, error",
        [(-1, ValueError), (np.nan, ValueError), (1.5, ValueError), ("x", TypeError),
         ((1, -2), ValueError), (1j, TypeError)],
    )  # fmt: skip
    def test_bad_seeds_name_rng(self, rng, error):
        calls = [
            lambda: tasks.Uniform().sample(3, rng),
            lambda: tasks.sample_contexts(2, 3, rng=rng),
            lambda: baselines.monte_carlo_risks(RULES, 3, tasks_per_batch=4, rng=rng),
            lambda: frozen.fresh_errors([5.0], [10.0], [5], contexts=4, rng=rng),
            lambda: corpus.Corpus.sample(2, 3, rng=rng),
        ]
        for call in calls:
            with pytest.raises(error, match="^rng"):
                call()

    def test_valid_seeds_still_work(self):
        for rng in (None, 0, 3, (1, 2, 3), np.random.default_rng(0), np.int64(4)):
            assert tasks.Uniform().sample(2, rng).shape == (2,)

    def test_parse_lines_needs_text(self):
        with pytest.raises(TypeError, match="^text"):
            claims.parse_lines(None)

    def test_broadcast_errors_name_the_arguments_first(self):
        with pytest.raises(ValueError, match="^a and b must broadcast"):
            head.distance_to_limit(np.zeros(0) + 1.0, [1.0, 2.0], X, Y)
        with pytest.raises(
            ValueError, match="^measured, errors and exact must broadcast"
        ):
            risk_checks.largest_z([1.0, 2.0, 3.0], [1.0, 2.0], 1.0)

    def test_beta_with_huge_parameters_works(self):
        law = tasks.Beta(1e300, 1e300)
        loss, d_a, d_b = population.loss_and_gradient(18.0, 20.0, law)
        assert np.all(np.isfinite([loss, d_a, d_b]))
        moderate = population.loss_and_gradient(18.0, 20.0, tasks.Beta(1e12, 1e12))
        np.testing.assert_allclose([loss, d_a, d_b], moderate, rtol=1e-6)


def _call_of(func, kwargs, **changes):
    return lambda: func(**dict(kwargs, **changes))


def _wrong_shape_rule(x, y):
    return np.zeros(3)  # not one estimate per context


_CURVES = risk_checks.RiskCurves(
    np.array([2, 4]),
    {"midpoint": baselines.Estimate(np.array([0.1, 0.05]), np.array([0.01, 0.01]))},
    np.array([10, 10]),
)
_FOLLOWER = SPARSE.follow()
_FRESH = dict(a=[5.0], b=[10.0], sizes=[3], contexts=4, rng=0)
_LOCAL = dict(a=120.0, b=150.0, sizes=[4, 6, 8, 12], thresholds=[0.3], contexts=4)
_LEAST_SQUARES = dict(design=[[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]], y=[0.0, 1.0, 2.1])
_VALLEY = dict(shape=(4, 4), prior=PRIOR, corpora=1, seed=0, index=0)
_NODES = dict(weights=[0.5, 0.5], r=[0.1, 0.2], r_a=[1.0, 1.0], r_b=[0.0, 0.0])
#: The bad inputs an adversarial test found without a clean error (issue 50): each
#: call, its exception and the argument its message must name.
ISSUE_50 = [
    (
        _call_of(frozen.fresh_errors, _FRESH, rules={"bad": _wrong_shape_rule}),
        ValueError,
        "rules['bad']",
    ),
    (lambda: sparse_corpus.SparseCorpus.sample(2, 10**15, 1), ValueError, "b_min"),
    (
        lambda: descent_lemma.guaranteed_decrease([0.1, 0.2], [0.1, 0.2, 0.3]),
        ValueError,
        "rho",
    ),
    (
        _call_of(frozen.localization_rate, _LOCAL, thresholds=[]),
        ValueError,
        "thresholds",
    ),
    (
        _call_of(frozen.localization_rate, _LOCAL, thresholds=[[0.5]]),
        ValueError,
        "thresholds",
    ),
    (
        _call_of(fitting.least_squares, _LEAST_SQUARES, weights=[1.0, 1.0]),
        ValueError,
        "weights",
    ),
    (
        lambda: symmetrization.flow(quadratic, (1.0, 1.0), 1.0, points=3, rtol=2.0),
        ValueError,
        "rtol",
    ),
    (
        lambda: moments.combine((-np.inf, 0.0, 0.0), (-np.inf, 0.2, 0.01)),
        ValueError,
        "neg",
    ),
    (_call_of(population.squared_error, _NODES, r=[0.1]), ValueError, "weights"),
    (_call_of(population.squared_error, _NODES, r_a=[1.0]), ValueError, "r_a"),
    (
        _call_of(population.squared_error, _NODES, weights=[[0.5, 0.5]]),
        ValueError,
        "weights",
    ),
    (
        lambda: dynamics.stable_steps(PRIOR, [[9.0]], [[10.0]], steps=2, iterations=1),
        ValueError,
        "a0",
    ),
    (lambda: certified_law.predicted_ends([], PRIOR), ValueError, "sizes"),
    (
        lambda: certified_runs.certified_end_of_ends([2.0], [False], [False]),
        ValueError,
        "b_cert",
    ),
    (lambda: certified_runs.certified_end_of_ends([], [], []), ValueError, "b_cert"),
    (
        lambda: corpus_rule.freeze_certified(160, 160, PRIOR, (4, 1), resume={}),
        ValueError,
        "resume",
    ),
    (lambda: past_freeze.averaged_error(4.0, 0.0, PRIOR), ValueError, "b"),
    (lambda: past_freeze.averaged_error(4.0, -1.0, PRIOR), ValueError, "b"),
    (_call_of(past_freeze.valley_errors, _VALLEY, factors=[]), ValueError, "factors"),
    (lambda: _CURVES.z({}), ValueError, "exact"),
    (
        lambda: _CURVES.z({"midpoint": [0.1, 0.05, 0.0]}),
        ValueError,
        "exact['midpoint']",
    ),
    (lambda: _CURVES.z({"midpoint": [0.1, np.nan]}), ValueError, "exact['midpoint']"),
    (
        lambda: _FOLLOWER.restore({"anchor": np.nan, "last": None, "anchors": 1}),
        ValueError,
        "state['anchor']",
    ),
    (lambda: certified_law.predicted_ends([40, 10**400], PRIOR), ValueError, "sizes"),
    (lambda: tasks.Beta(2, 3).density([0.5], [0.2]), ValueError, "q"),
    (lambda: tasks.Beta(2, 3).density([0.5, 0.5], [0.5]), ValueError, "q"),
    (lambda: tasks.Beta(2, 3).log_density([0.5], [0.2]), ValueError, "q"),
    (lambda: tasks.Beta(2, 3).log_density([0.5, 0.5], [0.5]), ValueError, "q"),
    (lambda: PRIOR.log_density([0.5], [0.2]), ValueError, "q"),
    (lambda: PRIOR.log_density([0.5, 0.5], [0.5]), ValueError, "q"),
]


@pytest.mark.parametrize("case", ISSUE_50, ids=range(len(ISSUE_50)))
def test_the_bad_inputs_of_issue_50_get_a_clean_error(case):
    call, error, name = case
    with pytest.raises(error) as info:
        call()
    assert name in str(info.value)


@pytest.mark.parametrize(
    "call",
    [
        lambda: validation.finite([1.0, 10**30], "x"),
        lambda: validation.counts([3, 10**30], "sizes"),
        lambda: certified_law.predicted_ends([40, 10**17], PRIOR),
    ],
)
def test_a_python_int_beyond_int64_inside_a_list_is_a_real_number(call):
    # it was "must hold real numbers"; a count beyond 2**53 is a ValueError naming it
    try:
        call()
    except ValueError as err:
        assert "must be at most" in str(err)


def test_the_empty_batch_of_gauss_legendre_rows():
    g, h, w = quadrature.gauss_legendre_rows(np.zeros((0, 3)), np.ones((0, 3)))
    assert g.shape == h.shape == w.shape == (0, 2 * quadrature.NODES_PER_PANEL)
