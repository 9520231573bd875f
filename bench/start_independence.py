"""Does the corpus rule's frozen scale depend on the start?

Usage: ``python bench/start_independence.py``. For corpora of chapter 6 (``m = n = k``,
streams ``(6, 2, i, r)``) it runs :func:`stumplib.pretraining.train_until_noisy` from the
size-tied start ``b_0 = k/40`` (:func:`stumplib.pretraining.size_start`) and from
``b_0/2`` (each on the population valley, with its own step ``0.1 b_0^3``), and prints
the frozen scale ``b_T`` and the steps of each. Equal ``b_T`` means the freeze is the
rule's own; a ``b_T`` from ``b_0`` above the one from ``b_0/2`` means the start was
already past the point where the corpus's noise reaches the level.
"""

from stumplib import calibration, pretraining, sweep, tasks
from stumplib.corpus import Corpus

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES = {400: 2, 800: 3, 1600: 4}  # k -> its index i in chapter 6's sizes


def frozen_from(item):
    """``b_T`` and steps of one corpus from ``b_0 / divisor``."""
    k, i, r, divisor = item
    corpus = Corpus.sample(k, k, PRIOR, rng=pretraining.stream((6, 2), i, r))
    b0 = pretraining.size_start(k, k, PRIOR)[0][1] / divisor
    theta0 = (float(calibration.a_star(b0, PRIOR)), b0)
    run = pretraining.train_until_noisy(corpus, theta0, pretraining.STEP * b0**3)
    return b0, run.b, run.steps


def main(corpora=2):
    items = [(k, i, r, d) for k, i in SIZES.items() for r in range(corpora) for d in (1, 2)]
    runs = iter(sweep.run(frozen_from, items, desc="starts"))
    for k in SIZES:
        for r in range(corpora):
            (b0, b_full, s_full), (b_half0, b_half, s_half) = next(runs), next(runs)
            print(
                f"k={k} corpus {r}: b_T from b_0={b0:.1f}: {b_full:.1f} ({s_full} steps); "
                f"from b_0={b_half0:.1f}: {b_half:.1f} ({s_half} steps)"
            )


if __name__ == "__main__":
    main()
