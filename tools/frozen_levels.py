"""Chapter 6's sweep of freeze levels and sizes, saved as each run ends, resumable.

``python tools/frozen_levels.py [--hours H]`` (``make frozen-levels``) runs, in the
order of :func:`runs_to_do` (cheapest first), two kinds of frozen runs and appends each
to ``frozen-levels.json`` in :data:`stumplib.book.full_data.DATA` as it ends, with the
command, commit and date it ran from; a later call skips the runs the file holds.

- ``"infinite"``: infinite-context corpora of ``m`` tasks
  (:func:`stumplib.infinite_corpus.freeze_infinite`), frozen by the corpus rule at
  level ``ℓ``, with the finite-``b`` prediction of
  :func:`stumplib.infinite_corpus.predicted_freeze`: the frozen scale's law at
  ``ℓ = 1/2`` over :data:`LAW_SIZES`, and every level of :data:`LEVELS` at
  :data:`LEVEL_SIZES`.
- ``"certified"``: corpora with ``m = n`` frozen at level ``ℓ < 1/2`` by
  :func:`stumplib.corpus_rule.freeze_certified` (a third of the lemma's step at the
  start, ``q`` and ``rho`` recorded), from the size-tied start divided by
  ``(1 / (2ℓ))²`` so that the freeze lies as far above the start as at ``ℓ = 1/2``
  (whose runs are ``frozen-rate-certified.json``'s).
"""

import argparse
import functools
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from full_corpus import commit

from stumplib import corpus_rule, frozen, infinite_corpus, tasks
from stumplib.book import full_data

DATA = full_data.DATA / "frozen-levels.json"
COMMAND = "make frozen-levels"
PRIOR = tasks.Uniform(0.1, 0.9)
LEVELS = (1 / 2, 1 / 3, 1 / 4, 1 / 8)
LAW_SIZES = (400, 1600, 6400, 25600, 102400)
LEVEL_SIZES = (6400,)
CORPORA = 6
#: Certified runs with m = n at the levels below 1/2: (level, k).
CERTIFIED = ((1 / 3, 1000), (1 / 3, 1800), (1 / 4, 1800), (1 / 4, 3200), (1 / 8, 5600))
CERTIFIED_CORPORA = 4
SEED = 6


def runs_to_do():
    """Every run of the target, cheapest first: ``(kind, level, k, r)``."""
    infinite = {(0.5, m) for m in LAW_SIZES} | {
        (v, m) for v in LEVELS for m in LEVEL_SIZES
    }
    jobs = [("infinite", v, m, r) for v, m in infinite for r in range(CORPORA)]
    jobs += [
        ("certified", v, k, r) for v, k in CERTIFIED for r in range(CERTIFIED_CORPORA)
    ]
    cost = {"infinite": 1.0, "certified": 5.0}  # seconds per thousand tasks, roughly
    return sorted(jobs, key=lambda job: (cost[job[0]] * job[2], -job[1], job[3]))


def stream(kind, level, k, r):
    """The run's seed: ``(6, 10 or 11, level index, k, r)``."""
    return (SEED, 10 if kind == "infinite" else 11, LEVELS.index(level), k, r)


def run(kind, level, k, r):
    """One run's record (without its provenance)."""
    start = time.monotonic()
    rng = stream(kind, level, k, r)
    if kind == "infinite":
        h = infinite_corpus.freeze_infinite(k, PRIOR, rng, level)
        predicted = _predicted(k, level)
        extra = dict(
            noise=h.noise,
            rho=h.rho,
            predicted_b=predicted.b,
            predicted_c=predicted.constant,
        )
    else:
        divisor = (0.5 / level) ** 2
        h = corpus_rule.freeze_certified(k, k, PRIOR, rng, level, divisor)
        extra = dict(steps=h.steps, eta=h.eta, q_max=h.q_max, q_jump=h.q_jump)
    return dict(
        kind=kind,
        level=level,
        k=k,
        corpus=r,
        seed=list(rng),
        a=h.a,
        b=h.b,
        error=float(frozen.interior_error(h.a, h.b)),
        rho_max=h.rho_max,
        b_cert=h.b_cert,
        seconds=round(time.monotonic() - start, 1),
        **extra,
    )


@functools.cache
def _predicted(k, level):
    """The prediction of a size and level (one per size and level, not per corpus)."""
    return infinite_corpus.predicted_freeze(k, PRIOR, level)


def main(argv=None):
    """Run what the data file does not hold yet, appending each run as it ends."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hours", type=float, default=np.inf, help="stop after this long"
    )
    args = parser.parse_args(argv)
    source = commit()
    data = full_data.load(DATA) if DATA.exists() else {"runs": []}
    data.update(
        command=COMMAND,
        prior=[PRIOR.lo, PRIOR.hi],
        levels=list(LEVELS),
        fraction=corpus_rule.CERTIFIED_FRACTION,
    )
    done = {(v["kind"], v["level"], v["k"], v["corpus"]) for v in data["runs"]}
    deadline = time.time() + 3600 * min(args.hours, 1e6)
    for job in runs_to_do():
        if job in done:
            continue
        if time.time() >= deadline:
            print(f"stopped after {args.hours} h; run again to resume", file=sys.stderr)
            return
        result = run(*job)
        date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        data["runs"].append(dict(result, command=COMMAND, commit=source, date=date))
        data.update(commit=source, date=date)
        full_data.save(DATA, data)
        print(
            f"{job[0]} level {job[1]:.3g} k={job[2]} corpus {job[3]}: "
            f"b_T={result['b']:.4g}"
            f" error*k={result['error'] * job[2]:.3g} rho_max={result['rho_max']:.2f}"
            f" b_cert={result['b_cert']:.4g} ({result['seconds']:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
