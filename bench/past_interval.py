"""Past the freeze, across corpora: what training on does to the frozen head.

Usage: ``python bench/past_interval.py [corpora]``. For each size ``m = n = k`` it
freezes ``corpora`` corpora (default 16) by the corpus rule (chapter 6), then trains each
on with :func:`stumplib.pretraining.train_side_by_side` to 2, 4 and 8 times its frozen
scale ``b_T``, and prints the quantiles of the infinite-context interior error (RMS over
``s = 0.3, 0.5, 0.7`` of ``|s_hat_inf(s) - s|``) and of the offset ``a - a*(b)``, and how
often, and by how much, the error at ``f * b_T`` is below (training on helps) or above
(hurts) the error at the freeze.
"""

import sys
import time

import numpy as np

from stumplib import calibration, frozen, past_freeze, tasks

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES = [(50, 50), (100, 100), (200, 200)]
FACTORS = (2.0, 4.0, 8.0)


def main(corpora=16):
    """Print the measurements, one line per size."""
    start = time.perf_counter()
    runs = past_freeze.train_past_freeze(SIZES, PRIOR, corpora, (12, 1), FACTORS)
    print(f"{time.perf_counter() - start:.1f} s", flush=True)
    for (k, _), size in zip(SIZES, runs):
        a = np.array([[h.a for h in row] for row in size])
        b = np.array([[h.b for h in row] for row in size])
        err = frozen.interior_error(a, b)
        offset = calibration.offset(a, b, PRIOR)
        for j, f in enumerate((1.0, *FACTORS)):
            q = np.quantile(err[:, j], [0, 0.5, 1])
            qo = np.quantile(offset[:, j], [0, 0.5, 1])
            line = (
                f"k={k} f={f:g}: b median {np.median(b[:, j]):.1f}, error min/median/max "
                f"{q[0]:.4f}/{q[1]:.4f}/{q[2]:.4f}, error*b median "
                f"{np.median(err[:, j] * b[:, j]):.3f}, offset {qo[0]:+.2f}/{qo[1]:+.2f}/{qo[2]:+.2f}"
            )
            if j:
                ratio = err[:, j] / err[:, 0]
                line += (
                    f"; helps {np.sum(ratio < 1)}/{corpora} (ratio min {ratio.min():.2f}), "
                    f"hurts {np.sum(ratio > 1)}/{corpora} (ratio max {ratio.max():.2f})"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:]))
