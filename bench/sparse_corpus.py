"""Benchmark: memory and time of the sparse and the dense corpus as the corpus grows.

For ``m = n = k`` the sparse corpus (:class:`~stumplib.sparse_corpus.SparseCorpus`, drawn
for ``b_min = b_0 - R(b_0)``, the lowest anchor of a Follower run from ``b_0``:
:func:`~stumplib.sparse_corpus.lowest_anchor`) and, where
``m n <= DENSE_LIMIT``, the dense one (:meth:`Corpus.sample
<stumplib.corpus.Corpus.sample>`) are evaluated side by side in one process at the scale
where training at that size starts (:func:`stumplib.corpus_rule.size_start`, on the
valley). Memory is what the corpus holds (its arrays); time per evaluation is the least
processor time (not wall time: the machine is shared) of a few evaluations of the loss and
gradient; a Follower step is one evaluation within the radius of an anchor already made
(the anchor's own time in parentheses). Drawing time is wall time.

Usage: ``python bench/sparse_corpus.py [k ...]`` (default ``1e3 3e3 1e4 3e4 1e5``);
prints one line per size::

    k=<k>: sparse <MiB> MiB, <ms> ms per evaluation; dense <MiB> MiB, <ms> ms;
    follower step sparse <ms> ms (anchor <s> s), dense <ms> ms (anchor <s> s); ...

with ``-`` for the dense figures where it does not fit.
"""

import resource
import sys
import time

import numpy as np

from stumplib import corpus_rule, tasks
from stumplib.corpus import Corpus
from stumplib.sparse_corpus import SparseCorpus, lowest_anchor

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES = (1_000, 3_000, 10_000, 30_000, 100_000)
#: Largest ``m n`` drawn densely (24 bytes per example: 2.4 GB).
DENSE_LIMIT = 10**8


def held_bytes(corpus):
    """Bytes of the arrays a corpus holds (lists of arrays included)."""
    total = 0
    for value in vars(corpus).values():
        for array in value if isinstance(value, list) else [value]:
            total += array.nbytes if isinstance(array, np.ndarray) else 0
    return total


def best_time(call, repeats):
    """Least processor time of ``repeats`` calls, in seconds (robust to other load)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return min(times)


def measure(corpus, a, b, repeats):
    """``(MiB, ms per evaluation, ms per Follower step, s per anchor)``."""
    evaluation = best_time(lambda: corpus.loss_and_gradient(a, b), repeats)
    follower = corpus.follow()
    anchor = best_time(lambda: follower.loss_and_gradient(a, b), 1)
    step = best_time(lambda: follower.loss_and_gradient(a, b + 1e-3), max(repeats, 3))
    return held_bytes(corpus) / 2**20, 1e3 * evaluation, 1e3 * step, anchor


def main(sizes=SIZES):
    """Print one line per size: memory and time of both engines."""
    for k in sizes:
        (a, b), _ = corpus_rule.size_start(k, k, PRIOR)
        repeats = 3 if k <= 30_000 else 1
        start = time.perf_counter()
        sparse = SparseCorpus.sample(k, k, lowest_anchor(b, k), PRIOR, seed=(28, k))
        drawn = time.perf_counter() - start
        held = sparse.held.sum() / k
        s_mib, s_ms, s_step, s_anchor = measure(sparse, a, b, repeats)
        extended = sparse.held.sum() / k - held
        del sparse
        dense = "dense - MiB, - ms"
        follow_dense = "dense -"
        if k * k <= DENSE_LIMIT:
            corpus = Corpus.sample(k, k, PRIOR, rng=(28, k))
            d_mib, d_ms, d_step, d_anchor = measure(corpus, a, b, repeats)
            del corpus
            dense = f"dense {d_mib:.0f} MiB, {d_ms:.1f} ms"
            follow_dense = f"dense {d_step:.2f} ms (anchor {d_anchor:.2f} s)"
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
        print(
            f"k={k}: sparse {s_mib:.0f} MiB, {s_ms:.1f} ms per evaluation; {dense}; "
            f"follower step sparse {s_step:.2f} ms (anchor {s_anchor:.2f} s), "
            f"{follow_dense}; b={b:.1f}, {held:.0f} members held per task "
            f"({extended:.0f} drawn later), drawn in {drawn:.1f} s; peak RSS {peak:.2f} GB",
            flush=True,
        )


if __name__ == "__main__":
    main(tuple(int(float(v)) for v in sys.argv[1:]) or SIZES)
