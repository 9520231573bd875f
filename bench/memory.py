"""Benchmark: peak memory of a corpus of ``m n`` examples and one gradient step on it.

Usage: ``python bench/memory.py [m] [n]`` (default ``m = n = 10000``, ``m n = 1e8``);
prints ``corpus <m>x<n>: peak RSS <GB> GB, build <s> s, step at b=<b> <ms> ms`` for
``b = 20`` and ``b = 400``. The corpus holds its sorted features, their deviations from
the class leaders and the window search keys (24 bytes per example); it is sampled and
laid out in row blocks, so nothing of size ``m n`` is built besides those three.
"""

import resource
import sys
import time

import numpy as np

from stumplib.corpus import Corpus


def main(m=10_000, n=10_000):
    """Print the peak memory of each engine."""
    start = time.perf_counter()
    corpus = Corpus.sample(m, n, rng=0)
    build = time.perf_counter() - start
    steps = []
    for b in (20.0, 400.0):
        start = time.perf_counter()
        corpus.loss_and_gradient(0.9 * b + np.log(b), b)
        steps.append((b, time.perf_counter() - start))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # kB -> GB
    print(
        f"corpus {m}x{n}: peak RSS {peak:.2f} GB, build {build:.1f} s, "
        + ", ".join(f"step at b={b:g} {t * 1e3:.0f} ms" for b, t in steps)
    )
    return peak


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:3]))
