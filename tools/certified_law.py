"""The certified interval's end as a law of the corpus size: runs from a fixed start.

``python tools/certified_law.py [--sizes K ...] [--corpora R] [--out F]`` (``make
certified-law`` runs 8 corpora a size up to 1600 and 4 at 3200) draws, for each size
``m = n = k``, ``R`` corpora on the streams ``(5, 60, k, k, r)``
and runs each with :func:`stumplib.certified_runs.certified_end_of_size` from the valley
at ``b0 = START`` (independent of ``k``), with a third of the lemma's step re-set at
each record (``reset``), until its first failing record, with a distant stop at
``b = k / 4`` (past the end the finite-context bias alone would set, near ``0.15 n``).
Each finished size is written at once to ``certified-law.json`` in
:data:`stumplib.book.full_data.DATA` (each run's ``b_cert``, whether it was censored,
which hypothesis ended it, its largest ``q`` and ``rho`` before the end, its steps),
with the command, commit and date it ran from; chapter 5 reads it and replays the
smallest sizes live.
"""

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from full_corpus import commit

from stumplib import certified_runs, tasks
from stumplib.book import full_data

DATA = full_data.DATA / "certified-law.json"
SIZES = (100, 200, 400, 800, 1600, 3200)
CORPORA = 8
SEED = (5, 60)
START = 2.5
STOP = 0.25  # the stop, b = STOP * k
PRIOR = tasks.Uniform(0.1, 0.9)
COMMAND = "make certified-law"


def run_size(k, corpora):
    """The runs of size ``k``, as plain numbers."""
    _, runs = certified_runs.certified_end_of_size(
        k, k, PRIOR, corpora, SEED, START, STOP * k, n_workers=1, reset=True
    )
    return [
        {
            "b_cert": float(r.b_cert),
            "censored": bool(r.censored),
            "ended_by": r.ended_by,
            "q_max": float(r.q.max()),
            "rho_max_inside": float(r.rho[r.inside].max()) if r.inside.any() else None,
            "steps": int(r.step[-1]),
        }
        for r in runs
    ]


def main():
    """Run the sizes asked for and write each to the data file as it ends."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=SIZES)
    parser.add_argument("--corpora", type=int, default=CORPORA)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args()
    out = args.out
    data = json.loads(out.read_text()) if out.exists() else {"sizes": {}}
    for k in args.sizes:
        runs = run_size(k, args.corpora)
        provenance = {
            "command": COMMAND,
            "commit": commit(),
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        }
        data["sizes"][str(k)] = {
            "runs": runs,
            "seed": list(SEED),
            "start": START,
            "stop": STOP * k,
            **provenance,
        }
        data.update(provenance)  # the file's: its latest size's
        out.write_text(json.dumps(data, indent=1) + "\n")
        ends = np.array([r["b_cert"] for r in runs])
        print(f"m = n = {k}: median b_cert {np.median(ends):.3g}", flush=True)


if __name__ == "__main__":
    main()
