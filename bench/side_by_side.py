"""Corpora trained side by side against one after another, in one process.

Usage: ``python bench/side_by_side.py``. For each size ``m = n = k`` it trains 8 corpora
from ``b_0 = 10`` on the valley to ``b = 20`` with :func:`stumplib.pretraining.train_side_by_side`,
once with all 8 stacked and once corpus by corpus, and prints
``k=<k>: side by side <s> s, one by one <s> s, ratio <r>; identical: yes|no``.
"""

import time

import numpy as np

from stumplib import calibration, pretraining, tasks
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)


def main(sizes=(50, 100, 200, 400), corpora=8):
    """Print the timings and their ratios."""
    theta0 = [(float(calibration.a_star(10.0, PRIOR)), 10.0)] * corpora
    for k in sizes:
        drawn = [Corpus.sample(k, k, PRIOR, rng=(3, k, r)) for r in range(corpora)]
        start = time.perf_counter()
        together = pretraining.train_side_by_side(drawn, theta0, [20.0], PRIOR)
        side = time.perf_counter() - start
        start = time.perf_counter()
        alone = [
            pretraining.train_side_by_side([c], theta0[:1], [20.0], PRIOR)[0]
            for c in drawn
        ]
        one = time.perf_counter() - start
        same = np.array_equal(
            [(h.a, h.b, h.steps) for row in together for h in row],
            [(h.a, h.b, h.steps) for row in alone for h in row],
        )
        print(
            f"k={k}: side by side {side:.2f} s, one by one {one:.2f} s, "
            f"ratio {one / side:.2f}; identical: {'yes' if same else 'no'}",
            flush=True,
        )


if __name__ == "__main__":
    main()
