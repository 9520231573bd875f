"""Benchmark: one corpus gradient step against one ``np.exp`` pass over as many elements.

For each scale ``b`` (on the population valley, ``a = 0.9 b + log b``) the step and the
``exp`` pass run side by side in one process, each repeated back to back and timed by
its best run (interleaving them would flatter the ratio: ``exp`` would then start from
a cold cache). Usage: ``python bench/gd_step.py [m] [n]``; prints one line per scale
``b=<b>: step <ms> ms, np.exp pass <ms> ms, ratio <r>``.

What a step costs: at ``b = 20`` every example carries weight and the step is a dense
pass (one multiply, one ``exp``, two products and three segment sums per example, on row
blocks that stay in cache); as ``b`` grows only the examples within
:attr:`stumplib.corpus.Corpus.cutoff` score units of their task's leader are summed, a
share of order ``cutoff / b`` of each context, so the step becomes cheaper than one
``exp`` pass over the corpus.
"""

import sys
import timeit

import numpy as np

from stumplib.corpus import Corpus

SCALES = (20.0, 100.0, 400.0)


def main(m=1000, n=1000, repeat=30, scales=SCALES):
    """Print the timings and their ratios."""
    corpus = Corpus.sample(m, n, rng=0)
    arr = np.random.default_rng(1).random(m * n)
    out = np.empty_like(arr)
    ratios = {}
    for b in scales:
        a = 0.9 * b + np.log(b)
        corpus.loss_and_gradient(a, b)  # warm the work buffers
        step = min(
            timeit.repeat(
                lambda a=a, b=b: corpus.loss_and_gradient(a, b), number=1, repeat=repeat
            )
        )
        exp = min(timeit.repeat(lambda: np.exp(arr, out=out), number=1, repeat=repeat))
        ratios[b] = step / exp
        print(
            f"b={b:g}: step {step * 1e3:.3f} ms, np.exp pass {exp * 1e3:.3f} ms, "
            f"ratio {step / exp:.2f}"
        )
    return ratios


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:3]))
