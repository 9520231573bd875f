"""Benchmark: a corpus step of a training run against its floor, and a certified run.

For ``m = n = k`` one sparse corpus (:class:`~stumplib.sparse_corpus.SparseCorpus`) is
drawn for a run from the size-tied start (:func:`stumplib.corpus_rule.size_start`), and
side by side in this process:

* *step*: one step of a corpus-rule run with the corpus's own follower
  (:class:`~stumplib.sparse_corpus.SparseFollower`): the per-task gradients and the noise
  ratio, at points spread over one anchor's reach as a run meets them (``b - b_0`` from
  ``-0.9 R`` to ``R``, so the series' term counts are a run's), each point the best of
  ``REPEATS`` interleaved calls, averaged over the points (the anchors themselves, one per
  few hundred steps, are left out);
* *old*: the same step with the :class:`~stumplib.corpus.Follower` (what
  ``SparseCorpus.follow`` returned before issue 43) on the same corpus and points;
* *floor*: one matrix-vector pass over the full 20-term anchor series in today's
  representation: an array of ``3 x 20 x 2 m`` doubles, term-major, times the 20
  coefficients (the time does not depend on the values, only on the shape);
* *run*: one certified run to its freeze (:func:`stumplib.corpus_rule.freeze_certified`),
  for ``k <= RUN_UP_TO`` (``run -`` above, where a run takes hours).

Usage: ``python bench/run_cost.py [k ...]`` (default ``1e3 1e4 1e5``; one BLAS thread,
set here); prints per size ``k=<k>: old step <ms> ms, new/old <r>``, then
``k=<k>: step <ms> ms, floor <ms> ms, ratio <r>; run <s> s, <steps> steps to b_T=<b>``.
At ``k = 10^5`` the corpus holds about 7 GB: run that size alone. With
``--copies C`` the corpus is ``C`` stacked copies of one of ``k / C`` tasks
(:meth:`Corpus.stack <stumplib.corpus.Corpus.stack>`): the same arrays, step and floor
(a step's cost depends on ``m`` and the series' terms, not on which tasks), drawn ``C``
times faster and in ``C`` times less memory; its run is skipped.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads OpenBLAS

import sys
import time

import numpy as np

from stumplib import corpus_rule, tasks
from stumplib.corpus import Corpus, Follower, expansion_radius
from stumplib.sparse_corpus import SparseCorpus, lowest_anchor

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES = (1_000, 10_000, 100_000)
RUN_UP_TO = 10_000
POINTS, REPEATS = 40, 5
TERMS = Follower.TERMS


def step_times(followers, corpus, theta0):
    """Mean over the points of the best of REPEATS step times (ms), per follower."""
    (a0, b0), s = theta0, corpus.s
    for follower in followers:
        follower.summaries(a0, b0)
    anchor = followers[0].state()["anchor"]
    radius = expansion_radius(anchor, corpus.cutoff)
    scales = anchor + np.linspace(-0.9, 1.0, POINTS) * radius * (1 - 1e-9)
    best = np.full((len(followers), POINTS), np.inf)
    for _ in range(REPEATS):
        for p, b in enumerate(scales):
            for f, follower in enumerate(followers):
                start = time.perf_counter()
                gradients = follower.task_gradients(a0, b)
                noise(gradients, s)
                best[f, p] = min(best[f, p], time.perf_counter() - start)
    assert all(f.anchors == 1 for f in followers)  # every point within one anchor
    return 1e3 * best.mean(axis=1)


def noise(gradients, s):
    """The rule's statistic, as a run computes it at every step."""
    mean = gradients.mean(axis=0)
    return np.sqrt(np.sum((gradients - mean) ** 2) / (s.size * (s.size - 1)))


def floor_time(m):
    """Best of REPEATS * POINTS matrix-vector passes over a 20-term anchor series (ms)."""
    series = np.ones((3, TERMS, 2 * m))
    coef = np.ones(TERMS)
    best = np.inf
    for _ in range(REPEATS * POINTS // 4):
        start = time.perf_counter()
        np.matmul(coef, series)
        best = min(best, time.perf_counter() - start)
    return 1e3 * best


def main(sizes=SIZES, copies=1):
    """Print the step, its floor and a run for each size."""
    for k in sizes:
        theta0, _ = corpus_rule.size_start(k, k, PRIOR)
        corpus = SparseCorpus.sample(
            k // copies, k, lowest_anchor(theta0[1], k), PRIOR, seed=(43, k)
        )
        corpus = corpus if copies == 1 else Corpus.stack([corpus] * copies)
        new, old = step_times([corpus.follow(), Follower(corpus)], corpus, theta0)
        floor = floor_time(k)
        del corpus
        print(f"k={k}: old step {old:.2f} ms, new/old {new / old:.2f}", flush=True)
        print(
            f"k={k}: step {new:.2f} ms, floor {floor:.2f} ms, ratio {new / floor:.2f}; ",
            end="" if k <= RUN_UP_TO and copies == 1 else "run -\n",
            flush=True,  # the step's numbers show while the run goes on
        )
        if k <= RUN_UP_TO and copies == 1:
            start = time.perf_counter()
            h = corpus_rule.freeze_certified(k, k, PRIOR, (43, k))
            print(
                f"run {time.perf_counter() - start:.0f} s, {h.steps} steps to "
                f"b_T={h.b:.1f}",
                flush=True,
            )


if __name__ == "__main__":
    args, copies = sys.argv[1:], 1
    if "--copies" in args:
        at = args.index("--copies")
        copies, args = int(args[at + 1]), args[:at] + args[at + 2 :]
    main(tuple(int(float(v)) for v in args) or SIZES, copies)
