"""Re-draw sweep.

Re-execute the seeded chapters under other seeds and count failing checks.

``python tools/seeds.py [--offsets K] [--jobs J] [NOTEBOOK ...]`` executes each seeded
chapter (default: every chapter whose ``SEED`` comes from ``scales.seed``) under
``STUMPLIB_SEED_OFFSET=1..K`` (another, independent draw each), with
``STUMPLIB_CLAIM_FAILURES=record`` so that a failing check is shown as ``FAILS`` and the
run goes on, ``J`` runs at a time. Each run is executed in memory; nothing in
``book/`` is written. The check records of every run are read from its outputs and
kept in ``stumplib/book/data/seeds.json`` with the other committed results (one entry
per chapter and offset, so later sweeps add to earlier ones; the file carries the
command, commit and date of its last sweep, :mod:`stumplib.book.full_data`), from which
``tools/seeds-report.md`` is written: for each chapter
and check, in how many runs it was made and in how many it failed, and every run that
stopped on an error. ``make seeds`` runs it; it is not part of CI (a full sweep takes
about ``K`` times the book's execution time over the cores).
"""

import argparse
import os
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import nbformat
from full_corpus import commit

from stumplib.book import full_data

ROOT = Path(__file__).resolve().parents[1]
RESULTS = full_data.DATA / "seeds.json"
REPORT = ROOT / "tools" / "seeds-report.md"
SEEDED = re.compile(r"SEED = scales\.seed\(")
MIME = "application/vnd.stumplib.claim+json"  # stumplib.book.claims.MIME


def seeded_chapters():
    """The chapter notebooks whose ``SEED`` is taken from ``scales.seed``."""
    return [
        p
        for p in sorted((ROOT / "book").glob("*.ipynb"))
        if SEEDED.search(p.read_text(encoding="utf-8"))
    ]


def summarize(notebook):
    """The check records and the first error of an executed notebook.

    Returns
    -------
    (list of dict, str or None)
        One ``{"id", "statement", "holds", "measured", "expected", "tol"}`` per check
        shown, in order; ``"<ename>: <evalue>"`` of the first error output, if any.
    """
    checks, error = [], None
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        for output in cell.get("outputs", []):
            record = output.get("data", {}).get(MIME)
            if record is not None:
                keys = ("id", "statement", "holds", "measured", "expected", "tol")
                checks.append({k: record[k] for k in keys})
            if output.get("output_type") == "error" and error is None:
                error = f"{output.get('ename')}: {output.get('evalue')}"[:300]
    return checks, error


def run(path, offset, timeout=1800):
    """Execute ``path`` under seed ``offset``.

    In memory, in the kernel's environment only.

    The kernel runs in the notebook's folder, as in the book build; errors do not stop
    the run (the first one is reported). Returns the run's summary.
    """
    from nbclient import NotebookClient

    env = dict(
        os.environ,
        STUMPLIB_SEED_OFFSET=str(offset),
        STUMPLIB_CLAIM_FAILURES="record",
        STUMPLIB_PROGRESS="0",
        PYTHONHASHSEED="0",
    )
    start = time.monotonic()
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        allow_errors=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute(env=env)
    except Exception as exc:  # a dead kernel or a timeout: report what ran
        checks, error = summarize(notebook)
        error = error or f"{type(exc).__name__}: {exc}"[:300]
    else:
        checks, error = summarize(notebook)
    return {
        "chapter": path.name,
        "offset": offset,
        "seconds": round(time.monotonic() - start),
        "checks": checks,
        "error": error,
    }


def load(path=RESULTS):
    """The stored results, keyed by ``(chapter, offset)``."""
    if not path.exists():
        return {}
    return {(r["chapter"], r["offset"]): r for r in full_data.load(path)["runs"]}


def save(results, path=RESULTS):
    """Write the results, one row per run, to ``path``, with their provenance."""
    rows = [results[k] for k in sorted(results)]
    date = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    data = {"command": "make seeds", "commit": commit(), "date": date, "runs": rows}
    full_data.save(path, data)


def report(results):
    """The markdown report of the stored results."""
    by_chapter = defaultdict(list)
    for (chapter, _), result in sorted(results.items()):
        by_chapter[chapter].append(result)
    total_runs = sum(len(v) for v in by_chapter.values())
    total_fail = sum(
        1 for v in by_chapter.values() for r in v if r["error"] or not all_hold(r)
    )
    lines = [
        "# Re-draw sweep: claim checks under other seeds",
        "",
        "Written by `tools/seeds.py` (`make seeds`) from "
        "`stumplib/book/data/seeds.json`. Each",
        "seeded chapter was re-executed under `STUMPLIB_SEED_OFFSET=j` "
        "(an independent draw",
        "per offset; offset 0 is the stored draw and is not part of the sweep), "
        "with failing",
        "checks recorded instead of raised. A check is one `claims.check` call, "
        "named by its",
        "claim id and the start of its statement, counted in the order the chapter "
        "makes it.",
        "",
        f"Runs: {total_runs}; runs with a failing check or an error: {total_fail}.",
        "",
        "| chapter | offsets | runs | runs with a failure | errors |",
        "|---|---|---|---|---|",
    ]
    for chapter, runs in by_chapter.items():
        offsets = sorted(r["offset"] for r in runs)
        failing = sum(1 for r in runs if not all_hold(r))
        errors = sum(1 for r in runs if r["error"])
        lines.append(
            f"| {chapter} | {span(offsets)} | {len(runs)} | {failing} | {errors} |"
        )
    for chapter, runs in by_chapter.items():
        lines += ["", f"## {chapter}", ""]
        lines += [
            "| # | check | made | failed "
            "| failing offsets (measured vs expected ± tol) |"
        ]
        lines += ["|---|---|---|---|---|"]
        table = defaultdict(lambda: {"made": 0, "failed": []})
        names = {}
        for run_ in runs:
            for k, check in enumerate(run_["checks"]):
                key = (k, check["id"])
                statement = shorten(check["statement"]).replace("|", "\\|")
                names[key] = f"`{check['id']}`: {statement}"
                table[key]["made"] += 1
                if not check["holds"]:
                    table[key]["failed"].append(
                        f"{run_['offset']} ({check['measured']} vs "
                        f"{check['expected']} ± {check['tol']})"
                    )
        for (k, claim), row in sorted(table.items()):
            failed = "; ".join(row["failed"]) or "-"
            lines.append(
                f"| {k + 1} | {names[k, claim]} | {row['made']} | "
                f"{len(row['failed'])} | {failed} |"
            )
        for run_ in runs:
            if run_["error"]:
                lines.append("")
                lines.append(f"Offset {run_['offset']} stopped: `{run_['error']}`")
    return "\n".join(lines) + "\n"


def shorten(text, width=90):
    """``text`` cut at a word boundary to at most ``width`` characters.

    With an ellipsis.
    """
    if len(text) <= width:
        return text
    return text[: text.rfind(" ", 0, width - 1)] + " …"


def all_hold(result):
    """Whether every check of one run held."""
    return all(c["holds"] for c in result["checks"])


def span(offsets):
    """``1..10`` for a contiguous run of offsets, else the list."""
    if offsets and offsets == list(range(offsets[0], offsets[-1] + 1)):
        return f"{offsets[0]}..{offsets[-1]}"
    return ", ".join(map(str, offsets))


def main(argv=None):
    """Run the sweep over the notebooks named and write its report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="default: every seeded chapter")
    parser.add_argument(
        "--offsets", type=int, default=10, help="offsets 1..K (default 10)"
    )
    parser.add_argument("--first", type=int, default=1, help="first offset (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args(argv)
    results = load()
    if not args.report_only:
        paths = [Path(p).resolve() for p in args.notebooks] or seeded_chapters()
        # offset by offset, so that a sweep cut short has covered every chapter evenly
        jobs = [
            (p, j) for j in range(args.first, args.first + args.offsets) for p in paths
        ]
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for result in pool.map(lambda job: run(*job), jobs):
                results[result["chapter"], result["offset"]] = result
                failed = [c["id"] for c in result["checks"] if not c["holds"]]
                print(
                    f"{result['chapter']} offset {result['offset']}: "
                    f"{len(result['checks'])} checks, failed {failed or 'none'}, "
                    f"error {result['error'] or 'none'} ({result['seconds']} s)",
                    flush=True,
                )
                save(results)
                REPORT.write_text(report(results))
    REPORT.write_text(report(results))
    print(f"report: {REPORT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
