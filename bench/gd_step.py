"""Benchmark: one corpus gradient step against one ``np.exp`` pass of the same size.

Both run side by side in one process; the printed ratio is what DESIGN's budget
(at most 3x) refers to. Usage: ``python bench/gd_step.py [m] [n]``.
"""

import sys
import timeit

import numpy as np

from stumplib.corpus import Corpus


def main(m=1000, n=1000, repeat=30):
    corpus = Corpus.sample(m, n, rng=0)
    arr = np.random.default_rng(1).random(m * n)
    out = np.empty_like(arr)
    a, b = 0.9 * 20 + np.log(20), 20.0
    corpus.loss_and_gradient(a, b)  # warm the cached layout
    step = min(timeit.repeat(lambda: corpus.loss_and_gradient(a, b), number=1, repeat=repeat))
    exp = min(timeit.repeat(lambda: np.exp(arr, out=out), number=1, repeat=repeat))
    print(f"corpus {m}x{n}: gd step {step * 1e3:.3f} ms, np.exp pass {exp * 1e3:.3f} ms, "
          f"ratio {step / exp:.2f}")
    return step / exp


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:3]))
