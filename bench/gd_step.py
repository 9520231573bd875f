"""Benchmark: one corpus gradient step against one ``np.exp`` pass of the same size.

Both run side by side in one process, each repeated back to back and timed by its best
run (interleaving them would flatter the ratio: ``exp`` would then start from a cold
cache); the printed ratio is what DESIGN's budget (at most 3x) refers to.
Usage: ``python bench/gd_step.py [m] [n]``.

What the step costs: per example, one multiply (``-b * d``), one ``exp``, two products
(``w d``, ``w d^2``) and three segment sums (``np.add.reduceat`` over the two classes of
each task), all in float64; then O(m) work on the class summaries. ``exp`` is
compute-bound (about 0.55 ns per element on the reference box, in or out of cache) and
is the floor; the other six passes are cheap only if their operands stay in cache, so
:class:`stumplib.head.Contexts` runs them on row blocks of ``2**15`` elements
(three work arrays fit in L2). Measured on the 2-core box at 1000x1000: about 1.55 ms
against 0.55 ms, a ratio of 2.7-3.0 depending on load (it was 3.6 with whole-array
passes, which each went to main memory). For many short contexts (e.g. 10000x100) the
per-task summary work dominates and the ratio is higher (about 4).
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
    print(
        f"corpus {m}x{n}: gd step {step * 1e3:.3f} ms, np.exp pass {exp * 1e3:.3f} ms, "
        f"ratio {step / exp:.2f}"
    )
    return step / exp


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:3]))
