"""Full-scale frozen-rate data from certified runs, saved as each ends, resumable.

``python tools/full_corpus.py [--plan P] [--hours H] [--jobs J] [--every S]`` trains,
for each size ``m = n = k`` of a :class:`Plan` in turn (small to large), its corpora
(sparse, from the size-tied start divided by the plan's divisor) with
:func:`stumplib.corpus_rule.freeze_certified`: the corpus rule at the plan's level, at
a constant step that keeps ``q = eta lambda_max <= 2/9`` (a third of the lemma's step at
the start). Each finished run is appended at once to the plan's data file in
:data:`stumplib.book.full_data.DATA`, with its ``q_max``, ``q_jump``, ``rho_max``,
``b_cert`` and whether it stayed ``inside`` the certificate, and the command, commit and
date it ran from. Two plans (:data:`PLANS`):

- ``half`` (``make full-corpus``): the rule at the certificate's edge, ``ℓ = 1/2``, four
  corpora a size over m ∧ n = 320 … 10⁵, and the first corpus again from half the start
  (is the frozen scale the rule's or the start's?); ``frozen-rate-certified.json``.
- ``headline`` (``make headline``): the certified level ``ℓ* = 1/4`` declared in
  ``frozen-headline.json`` before its first run, over m ∧ n = 320 … 10⁵.

**Cut and resumed anywhere.** Every ``--every`` seconds (default 300) a run in progress
writes its state and the commit of each sitting so far to the plan's checkpoint folder
(one small JSON file per run, replaced atomically), which is committed with the data
(:data:`CHECKPOINTS`): a later call, on this machine or on a fresh clone elsewhere,
resumes each run from its checkpoint, bit-identically to a run that was never cut if the
code is the same (the record's ``commits`` says which code ran each sitting), and skips
the runs the data file holds. ``--hours`` stops the target that long after it began: a
run in progress saves its state at its next checkpoint and stops, and no new run
starts; ``--jobs`` runs that many at once (one process each, one BLAS thread each under
``make``).
"""

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import NamedTuple

import numpy as np

from stumplib import corpus_rule, descent_lemma, frozen, pretraining, sweep, tasks
from stumplib.book import full_data

ROOT = Path(__file__).resolve().parents[1]
#: Checkpoints of the runs in progress, one folder a plan (committed, so that a run
#: resumes on any machine).
CHECKPOINTS = full_data.DATA / "checkpoints"
PRIOR = tasks.Uniform(0.1, 0.9)


class Plan(NamedTuple):
    """A ladder of certified runs: where it is written, and what it runs."""

    name: str
    data: Path
    command: str
    seed: tuple
    level: float
    sizes: tuple
    corpora: tuple  # per size
    divisor: float  # of the size-tied start
    half_start: bool  # the first corpus of each size again from half the start


PLANS = {
    "half": Plan(
        "half",
        full_data.DATA / "frozen-rate-certified.json",
        "make full-corpus",
        (6, 2),
        0.5,
        (320, 560, 1000, 1800, 3200, 5600, 10000, 18000, 32000, 56000, 100000),
        (4,) * 11,
        1.0,
        True,
    ),
    "headline": Plan(
        "headline",
        full_data.DATA / "frozen-headline.json",
        "make headline",
        (6, 12),
        0.25,
        (320, 1000, 3200, 10000, 32000, 100000),
        (16, 16, 16, 8, 8, 8),
        4.0,
        False,
    ),
}


class Stopped(Exception):
    """A run saved its state at the target's deadline and stopped."""


def runs_to_do(plan):
    """Every run of a plan, in order: ``(i, k, r, divisor)``."""
    for i, (k, corpora) in enumerate(zip(plan.sizes, plan.corpora, strict=True)):
        for r in range(corpora):
            yield i, k, r, plan.divisor
        if plan.half_start:
            yield i, k, 0, 2.0 * plan.divisor


def commit():
    """The commit the runs come from (``+dirty`` if its library differs, data aside)."""
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    data_folder = full_data.DATA.relative_to(ROOT)
    dirty = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "stumplib", f":!{data_folder}"],
        cwd=ROOT,
    )
    return head + ("+dirty" if dirty.returncode else "")


def checkpoint_path(plan, k, r, divisor):
    """The checkpoint file of run ``(k, r, divisor)`` of a plan."""
    return CHECKPOINTS / plan.name / f"k{k}-corpus{r}-divisor{divisor:g}.json"


def run(job):
    """One run ``(plan, i, k, r, divisor, deadline, every, source)`` of the target.

    Its data-file record (without its provenance), or ``None`` if it stopped at the
    deadline (its state saved). A checkpoint keeps the commit of each sitting
    (``source``; ``unknown`` for a checkpoint written before they were kept), and the
    record lists them as ``commits``: a run resumed under other code says so.
    """
    plan, i, k, r, divisor, deadline, every, source = job
    path = checkpoint_path(plan, k, r, divisor)
    saved = json.loads(path.read_text()) if path.exists() else None
    start, before = time.monotonic(), saved["seconds"] if saved else 0.0
    sittings = saved["sittings"] + 1 if saved else 1
    earlier = saved.get("commits", ["unknown"] * saved["sittings"]) if saved else []
    commits = [*earlier, source]

    def save(state):
        seconds = before + time.monotonic() - start
        _write(
            path, dict(state=state, seconds=seconds, sittings=sittings, commits=commits)
        )
        if time.time() >= deadline:
            raise Stopped

    try:
        h = corpus_rule.freeze_certified(
            k,
            k,
            PRIOR,
            pretraining.stream(plan.seed, i, r),
            plan.level,
            divisor,
            resume=saved["state"] if saved else None,
            save=save,
            every=every,
        )
    except Stopped:
        return None
    record = dict(
        k=k,
        index=i,
        corpus=r,
        divisor=divisor,
        corpus_kind="sparse",
        b0=corpus_rule.size_start(k, k, PRIOR)[0][1] / divisor,
        eta=h.eta,
        a=h.a,
        b=h.b,
        steps=h.steps,
        error=float(frozen.interior_error(h.a, h.b)),
        q_max=h.q_max,
        q_jump=h.q_jump,
        rho_max=h.rho_max,
        b_cert=h.b_cert,
        inside=bool(
            h.q_max <= descent_lemma.Q_MAX and h.rho_max <= descent_lemma.RHO_MAX
        ),
        checks=h.checks,
        seconds=round(before + time.monotonic() - start, 1),
        sittings=sittings,
        commits=commits,
    )
    path.unlink(missing_ok=True)
    return record


def _write(path, data):
    """Write JSON to ``path`` atomically (a cut never leaves half a checkpoint)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    part.write_text(json.dumps(data))
    os.replace(part, path)


def record(plan, data, result, source):
    """Add ``result`` with its provenance to ``data`` and save the file.

    ``source`` is the commit the target's code came from (read when it started: a
    commit made while it runs does not change the code it runs). The runs are kept in
    the target's order.
    """
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    result = dict(result, command=plan.command, commit=source, date=date)
    data["runs"] = sorted(
        [*data["runs"], result],
        key=lambda run: (run["index"], run["divisor"], run["corpus"]),
    )
    data.update(commit=result["commit"], date=result["date"])
    full_data.save(plan.data, data)
    print(
        f"k={result['k']} corpus {result['corpus']} from b0={result['b0']:.4g}: "
        f"b_T={result['b']:.4g} in {result['steps']} steps, "
        f"error*k={result['error'] * result['k']:.3g}, q_max={result['q_max']:.3f}, "
        f"rho_max={result['rho_max']:.2f}, {result['seconds']:.0f} s",
        flush=True,
    )


def main(argv=None):
    """Run what the data file does not hold yet, appending each run as it ends."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plan", choices=sorted(PLANS), default="half")
    parser.add_argument(
        "--hours", type=float, default=np.inf, help="stop after this long"
    )
    parser.add_argument("--jobs", type=int, default=1, help="runs at once")
    parser.add_argument(
        "--every", type=float, default=300.0, help="seconds between checkpoints"
    )
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1 (got {args.jobs})")
    if not args.every >= 0:
        parser.error(f"--every must be at least 0 (got {args.every})")
    plan, source = PLANS[args.plan], commit()
    data = full_data.load(plan.data) if plan.data.exists() else {"runs": []}
    data.update(
        command=plan.command,
        seed=list(plan.seed),
        level=plan.level,
        prior=[PRIOR.lo, PRIOR.hi],
        sizes=list(plan.sizes),
        corpora=list(plan.corpora),
        divisor=plan.divisor,
        fraction=corpus_rule.CERTIFIED_FRACTION,
    )
    done = {(run["k"], run["corpus"], run["divisor"]) for run in data["runs"]}
    deadline = time.time() + 3600 * min(args.hours, 1e6)
    todo = (
        (plan, i, k, r, divisor, deadline, args.every, source)
        for i, k, r, divisor in runs_to_do(plan)
        if (k, r, divisor) not in done
    )
    stopped = False
    for result in sweep.as_done(run, _until(deadline, todo), args.jobs):
        if result is None:
            stopped = True
        else:
            record(plan, data, result, source)
    if stopped or time.time() >= deadline:
        print(f"stopped after {args.hours} h; run again to resume", file=sys.stderr)


def _until(deadline, jobs):
    """``jobs`` up to the ``deadline``."""
    for job in jobs:
        if time.time() >= deadline:
            return
        yield job


if __name__ == "__main__":
    main()
