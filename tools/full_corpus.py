"""Full-scale frozen-rate data: corpora frozen by the corpus rule, saved as each ends.

``python tools/full_corpus.py [--hours H]`` (``make full-corpus``) trains, for each
size ``m = n = k`` of :data:`SIZES` in turn, :data:`CORPORA` corpora from the size-tied
start and the first of them again from half that start (is the frozen scale the rule's
or the start's?), each with :func:`stumplib.pretraining.freeze_by_rule` on the streams
``(6, 2, i, r)`` that chapter 6 uses for its book-scale sizes (size ``i`` of
:data:`SIZES`). Each finished run is appended at once to ``frozen-rate.json`` in
:data:`stumplib.book.full_data.DATA`
with the command, commit and date; a later call resumes where the file stops, so the
target can be cut off at any point. ``--hours`` stops before starting a run once that
much time has passed; ``--jobs`` runs that many at once (one process each, in the
order above). From :data:`SPARSE_FROM` on the corpora are sparse (the same law).
"""

import argparse
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from stumplib import frozen, pretraining, sweep, tasks
from stumplib.book import full_data

ROOT = Path(__file__).resolve().parents[1]
DATA = full_data.DATA / "frozen-rate.json"
SIZES = (320, 560, 1000, 1800, 3200, 5600, 10000, 18000, 32000, 56000, 100000)
CORPORA = 4
# From this size on the corpora are sparse (stumplib.sparse_corpus: the same law, only
# the members that can carry weight held): a dense corpus of m = n = 18000 holds
# 3.2e8 features (2.6 GB per copy), one of 32000 over 8 GB.
SPARSE_FROM = 18000
SEED = (6, 2)
LEVEL = 0.5
PRIOR = tasks.Uniform(0.1, 0.9)


def runs_to_do():
    """Every run of the target, in order: ``(i, k, r, divisor)``."""
    for i, k in enumerate(SIZES):
        for r in range(CORPORA):
            yield i, k, r, 1.0
        yield i, k, 0, 2.0


def commit():
    """The commit the runs come from (``+dirty`` if its library differs, data aside)."""
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    data_folder = DATA.parent.relative_to(ROOT)
    dirty = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "stumplib", f":!{data_folder}"],
        cwd=ROOT,
    )
    return head + ("+dirty" if dirty.returncode else "")


def run(job):
    """One run ``(i, k, r, divisor, sparse)`` of the target, as its data-file record."""
    i, k, r, divisor, sparse = job
    start = time.monotonic()
    h = pretraining.freeze_by_rule(
        k, k, PRIOR, pretraining.stream(SEED, i, r), LEVEL, divisor, sparse
    )
    return dict(
        k=k,
        index=i,
        corpus=r,
        divisor=divisor,
        corpus_kind="sparse" if sparse else "dense",
        b0=pretraining.size_start(k, k, PRIOR)[0][1] / divisor,
        a=h.a,
        b=h.b,
        steps=h.steps,
        error=float(frozen.interior_error(h.a, h.b)),
        seconds=round(time.monotonic() - start, 1),
    )


def record(data, result):
    """Add ``result`` to ``data`` (runs in the target's order) and save the file."""
    data["runs"] = sorted(
        [*data["runs"], result],
        key=lambda run: (run["index"], run["divisor"], run["corpus"]),
    )
    data.update(commit=commit(), date=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))
    full_data.save(DATA, data)
    print(
        f"k={result['k']} corpus {result['corpus']} from b0={result['b0']:.4g}: "
        f"b_T={result['b']:.4g} in {result['steps']} steps, "
        f"error*k={result['error'] * result['k']:.3g}, {result['seconds']:.0f} s",
        flush=True,
    )


def main(argv=None):
    """Run what the data file does not hold yet, appending each run as it ends."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hours", type=float, default=np.inf, help="stop after this long"
    )
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1 (got {args.jobs})")
    data = full_data.load(DATA) if DATA.exists() else {"runs": []}
    data.update(
        command="make full-corpus",
        seed=list(SEED),
        level=LEVEL,
        prior=[PRIOR.lo, PRIOR.hi],
        sizes=list(SIZES),
        corpora=CORPORA,
    )
    done = {(run["k"], run["corpus"], run["divisor"]) for run in data["runs"]}
    deadline = time.monotonic() + 3600 * args.hours
    todo = (
        (i, k, r, divisor, k >= SPARSE_FROM)
        for i, k, r, divisor in runs_to_do()
        if (k, r, divisor) not in done
    )
    for result in sweep.as_done(run, _until(deadline, todo, args.hours), args.jobs):
        record(data, result)


def _until(deadline, jobs, hours):
    """``jobs`` up to the ``deadline``; then say that the target stopped early."""
    for job in jobs:
        if time.monotonic() >= deadline:
            print(f"stopped after {hours} h; run again to resume", file=sys.stderr)
            return
        yield job


if __name__ == "__main__":
    main()
