"""Cost of declared constraints in a hot loop: this tree against an older stumplib.

Runs the same descents with the working tree's stumplib and with an older copy of the
package imported under another name (``OLD=path/containing/stumplib_old``), alternating,
and prints the best time of each and their ratio (CPU time of the process, steadier than
the wall clock on a shared machine; ``REPEATS`` alternations, 7 unless set). The descents run one loss and gradient
evaluation a step, through the public functions (checked once, at the boundary).

    OLD=/tmp/old .venv/bin/python bench/run_checks.py
"""

import importlib
import os
import sys
import time
from types import SimpleNamespace

REPEATS, STEPS = int(os.environ.get("REPEATS", 7)), 400
MODULES = ("tasks", "corpus", "training")


def package(name):
    """The modules of the package ``name`` that the loops use."""
    modules = {m: importlib.import_module(f"{name}.{m}") for m in MODULES}
    # the corpus rule's module since pretraining.py was split (an older copy may not
    # have it)
    try:
        rule = importlib.import_module(f"{name}.corpus_rule")
    except ImportError:
        rule = importlib.import_module(f"{name}.pretraining")
    return SimpleNamespace(**modules, rule=rule)


def loops(lib):
    """The timed loops of ``lib`` (a stumplib package): name -> callable."""
    prior = lib.tasks.Uniform(0.1, 0.9)
    sample = lib.corpus.Corpus.sample(200, 50, prior, rng=0)
    return {
        "population descent": lambda: lib.training.population_descent(
            prior, (9.0, 10.0), 50.0, STEPS
        ),
        "corpus descent": lambda: lib.training.corpus_descent(
            sample, (9.0, 10.0), 50.0, STEPS
        ),
        "corpus rule (freeze_by_rule, 200 x 200)": lambda: lib.rule.freeze_by_rule(
            200, 200, prior, (1, 2)
        ),
    }


def main():
    """Print the best time of each loop under both packages and their ratio."""
    sys.path.insert(0, os.environ["OLD"])
    new, old = loops(package("stumplib")), loops(package("stumplib_old"))
    for name in new:
        best = {"new": float("inf"), "old": float("inf")}
        for _ in range(REPEATS):
            for key, run in (("old", old[name]), ("new", new[name])):
                start = time.process_time()
                run()
                best[key] = min(best[key], time.process_time() - start)
        print(
            f"{name}: old {1e3 * best['old']:.1f} ms, new {1e3 * best['new']:.1f} ms, "
            f"new/old {best['new'] / best['old']:.3f}"
        )


if __name__ == "__main__":
    main()
