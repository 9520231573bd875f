"""Whether the corpus rule's frozen scale depends on the start.

Usage: ``python bench/start_independence.py``. For the first corpora of chapter 6's
sizes ``m = n = k`` (streams ``(6, 2, i, r)``) it runs the corpus rule from the
size-tied start ``b_0 = k/40`` and from ``b_0/2`` (:func:`stumplib.corpus_rule.lower_starts`,
each on the valley with its own step ``0.1 b_0^3``) and prints both frozen scales and
steps. Equal ``b_T`` means the freeze is the rule's own; a lower ``b_T`` from ``b_0/2``
means the size-tied start was already past the point where the noise reaches the level.
"""

from stumplib import corpus_rule, tasks

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES = [(k, k) for k in (100, 200, 400, 800, 1600)]  # chapter 6's, in its order


def main(ks=(100, 400, 800, 1600), corpora=2):
    """Print the frozen scales from both starts."""
    indices = [SIZES.index((k, k)) for k in ks]
    runs = {
        d: corpus_rule.lower_starts(SIZES, indices, PRIOR, corpora, (6, 2), divisor=d)
        for d in (1.0, 2.0)
    }
    for j, k in enumerate(ks):
        b0 = corpus_rule.size_start(k, k, PRIOR)[0][1]
        for r, (full, half) in enumerate(zip(runs[1.0][j], runs[2.0][j])):
            print(
                f"k={k} corpus {r}: b_T from b_0={b0:.2f}: {full.b:.2f} ({full.steps} steps); "
                f"from b_0={b0 / 2:.2f}: {half.b:.2f} ({half.steps} steps)"
            )


if __name__ == "__main__":
    main()
