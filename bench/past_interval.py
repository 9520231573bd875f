"""Past the certified interval, across corpora: what training on does to the frozen head.

Usage: ``python bench/past_interval.py``. For each size ``m = n = k`` (with its
population-based ``b_cert`` as measured in chapter 6) it trains 16 corpora from the
large-resolution start ``b_0 = b_cert / 1.2`` with the constant step ``0.1 b_0^3`` and
records, as each run passes ``f * b_cert`` (f = 1, 2, 4; 8 is affordable only with far more time), the infinite-context interior error (RMS over
``s = 0.3, 0.5, 0.7`` of ``|s_hat_inf(s) - s|``) and the offset ``a - a*(b)``; it prints their
quantiles and how often, and by how much, the error at ``f * b_cert`` is below (training on
helps) or above (hurts) the error at ``b_cert``.
"""

import numpy as np

from stumplib import calibration, population, pretraining, sweep, tasks
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)
FIXED_S = np.array([0.3, 0.5, 0.7])
SIZES = {100: (11.6, (1, 2, 4)), 200: (17.3, (1, 2, 4)), 400: (24.7, (1, 2, 4))}


def follow(item):
    """One corpus: errors and offsets at each multiple of b_cert."""
    k, b_cert, factors, rng = item
    corpus = Corpus.sample(k, k, PRIOR, rng=rng)
    theta, eta = pretraining.start(b_cert, PRIOR, 1.2)
    out = []
    for f in factors:
        run = pretraining.train_to_scale(corpus, theta, eta, f * b_cert, max_steps=10**7)
        theta = (run.a, run.b)
        err = np.sqrt(np.mean((population.estimate(run.a, run.b, FIXED_S) - FIXED_S) ** 2))
        out.append((float(err), run.a - float(calibration.a_star(run.b, PRIOR)), run.b))
    return out


def main(corpora=16):
    for i, (k, (b_cert, factors)) in enumerate(SIZES.items()):
        runs = np.array(
            sweep.run(follow, [(k, b_cert, factors, (12, i, r)) for r in range(corpora)])
        )
        err, offset, b = runs[..., 0], runs[..., 1], runs[..., 2]
        for j, f in enumerate(factors):
            q = np.quantile(err[:, j], [0, 0.5, 1])
            qo = np.quantile(offset[:, j], [0, 0.5, 1])
            line = (
                f"k={k} f={f}: b {b[:, j].mean():.1f}, error min/median/max {q[0]:.4f}/{q[1]:.4f}/{q[2]:.4f}, "
                f"error*b median {np.median(err[:, j] * b[:, j]):.3f}, offset {qo[0]:+.2f}/{qo[1]:+.2f}/{qo[2]:+.2f}"
            )
            if j:
                ratio = err[:, j] / err[:, 0]
                line += (
                    f"; helps {np.sum(ratio < 1)}/{corpora} (median x{np.median(ratio[ratio < 1]) if np.any(ratio < 1) else float('nan'):.2f}), "
                    f"hurts {np.sum(ratio > 1)}/{corpora} (max x{ratio.max():.2f})"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main()
