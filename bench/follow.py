"""Benchmark: gradient descent on a corpus evaluated directly against its Follower.

One run of constant-step descent from ``b_0`` on the population valley, the first time
with :meth:`Corpus.loss_and_gradient <stumplib.corpus.Corpus.loss_and_gradient>` at every
step, the second with a :class:`~stumplib.corpus.Follower` (the expansions in the scale
that training uses), side by side in one process. Usage: ``python bench/follow.py``;
prints one line per corpus
``<m> x <n>, <k> steps to b=<b>: direct <s> s, follower <s> s (<anchors> anchors), ratio <r>;
final (a, b) relative difference <d>``.
"""

import time

import numpy as np

from stumplib import calibration, tasks, training
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)
#: ``(m, n, b_0, eta, steps)``: the constant step of chapter 5 and larger starts.
RUNS = (
    (100, 100, 20.0, 2000.0, 2000),
    (400, 400, 20.0, 2000.0, 2000),
    (1600, 400, 20.0, 2000.0, 2000),
    (1000, 1000, 100.0, 1e5, 500),
)


def timed(loss_and_gradient, theta0, eta, steps):
    """Seconds for one gradient-descent run of ``steps`` steps."""
    start = time.perf_counter()
    run = training.gradient_descent(loss_and_gradient, theta0, eta, steps, points=2)
    return time.perf_counter() - start, np.array([run.a[-1], run.b[-1]])


def main(runs=RUNS):
    """Print the timings and their ratios."""
    ratios = []
    for m, n, b0, eta, steps in runs:
        corpus = Corpus.sample(m, n, PRIOR, rng=0)
        theta0 = (float(calibration.a_star(b0, PRIOR)), b0)
        direct, end = timed(corpus.loss_and_gradient, theta0, eta, steps)
        follower = corpus.follow()
        followed, end_f = timed(follower.loss_and_gradient, theta0, eta, steps)
        ratios.append(direct / followed)
        print(
            f"{m} x {n}, {steps} steps to b={end[1]:.1f}: direct {direct:.2f} s, follower "
            f"{followed:.2f} s ({follower.anchors} anchors), ratio {ratios[-1]:.1f}; final "
            f"(a, b) relative difference {np.max(np.abs(end_f - end) / end):.1e}"
        )
    return ratios


if __name__ == "__main__":
    main()
