"""Store the chapter notebooks' outputs; check that they reproduce on other machines.

``python tools/notebooks.py store [NOTEBOOK ...]`` executes each notebook in place and
removes the volatile metadata (execution timestamps), so re-running an unchanged
notebook leaves git clean. ``python tools/notebooks.py check [NOTEBOOK ...]`` runs
nbval against the stored outputs under three other floating-point environments (other
OpenBLAS kernels, BLAS thread counts and numpy SIMD code paths: :func:`environments`)
and names every cell whose output would not reproduce there; ``store`` ends with it.
``python tools/notebooks.py validate [NOTEBOOK ...]`` runs this machine's own
environment and the first of the others (what ``make test`` runs). All default to
every notebook of the book, chapters and appendices: ``book/*.ipynb``.
"""

import argparse
import os
import platform
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
VOLATILE = ("execution",)  # cell metadata written by every run (timestamps)


def environments(machine=None):
    """The floating-point environments of the check, as (name, variables) pairs.

    Each differs from a native run in the BLAS kernel, the BLAS threads and numpy's SIMD
    code paths, and from the others in at least two of the three. On x86-64: OpenBLAS's
    SSE kernel (Prescott: no AVX, no FMA, whatever the caller's ``OPENBLAS_CORETYPE``
    says), one thread, numpy without AVX2 and AVX-512 (X86_V3, X86_V4); the Haswell
    kernel (AVX2 and FMA: the one OpenBLAS picks on most Intel and AMD Zen machines),
    one thread, numpy without AVX-512; the Sandybridge kernel (AVX, no FMA), two
    threads, numpy without AVX-512. Elsewhere: one BLAS thread and numpy without its
    widest SIMD targets; two threads and numpy without its half-precision and
    dot-product targets.
    ``make test`` checks the first (with the native run, the book executes twice on the
    2 cores); ``make notebooks`` checks all of them when it stores outputs.
    """
    machine = machine or platform.machine()
    if machine in ("x86_64", "AMD64"):
        return [
            _environment("Prescott", "1", "X86_V3 X86_V4", "AVX2/AVX-512"),
            _environment("Haswell", "1", "X86_V4", "AVX-512"),
            _environment("Sandybridge", "2", "X86_V4", "AVX-512"),
        ]
    return [
        _environment(None, "1", "ASIMDHP ASIMDDP SVE", "its widest SIMD"),
        _environment(None, "2", "ASIMDHP ASIMDDP", "half-precision and dot products"),
    ]


def _environment(kernel, threads, disabled, without):
    """One environment: OpenBLAS ``kernel`` (or its own), threads, numpy ``without``."""
    variables = {"OPENBLAS_NUM_THREADS": threads, "NPY_DISABLE_CPU_FEATURES": disabled}
    if kernel:
        variables["OPENBLAS_CORETYPE"] = kernel
    plural = "s" if threads != "1" else ""
    name = f"{threads} BLAS thread{plural}, numpy without {without}"
    return (f"{kernel} kernel, {name}" if kernel else name), variables


def chapters(names):
    """The notebooks named, or every notebook of the book (chapters and appendices)."""
    paths = [Path(n) for n in names] or sorted((ROOT / "book").glob("*.ipynb"))
    return [p.resolve() for p in paths]


def strip_volatile(path):
    """Remove execution timestamps from a stored notebook; return True if it changed."""
    notebook = nbformat.read(path, as_version=4)
    changed = False
    for cell in notebook.cells:
        for key in VOLATILE:
            changed |= cell.metadata.pop(key, None) is not None
    if changed:
        nbformat.write(notebook, path)
    return changed


def store(paths):
    """Execute each notebook in place, then strip its volatile metadata."""
    for path in paths:
        print(f"executing {path.relative_to(ROOT)}", flush=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "jupyter",
                "execute",
                "--inplace",
                "--timeout=600",
                str(path),
            ],
            check=True,
        )
        strip_volatile(path)


def nbval(paths, variables):
    """Run nbval on ``paths`` with extra environment ``variables``; return.

    Rc, output.
    """
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-o",
        "addopts=",
        "--nbval",
        "--nbval-current-env",
        "--nbval-cell-timeout=600",
        "--nbval-sanitize-with",
        str(ROOT / "tests" / "nbval_sanitize.cfg"),
        "-q",
        "-rf",
        *map(str, paths),
    ]
    env = dict(os.environ, **variables)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


FAILED = re.compile(r"^FAILED (\S+::Cell \d+)", re.MULTILINE)
PASSED = re.compile(r"(\d+) passed")


def check(paths, native=False, count=None):
    """Nbval under the first ``count`` environments (all by default), in parallel.

    The environments are those of :func:`environments`. Return 0 if all pass.

    With ``native``, this machine's own environment is checked alongside the others.
    """
    envs = ([("this machine", {})] if native else []) + environments()[:count]
    print(
        f"nbval on {len(paths)} notebook(s) under {len(envs)} floating-point "
        "environments"
        f"{' (this one and others)' if native else ' (other than this one)'}:",
        flush=True,
    )
    t0 = time.monotonic()
    with ThreadPoolExecutor(len(envs)) as pool:
        results = list(pool.map(lambda e: nbval(paths, e[1]), envs))
    failures = 0
    for (name, variables), (rc, output) in zip(envs, results):
        setting = " ".join(f"{k}={v}" for k, v in variables.items())
        cells = FAILED.findall(output)
        passed = PASSED.search(output)
        print(
            f"  [{name}] {setting}: {passed[1] if passed else 0} cells reproduce"
            + (f", {len(cells)} do not:" if cells else "")
        )
        for cell in cells:
            print(f"    {cell}")
        if rc != 0:
            failures += 1
            print(output[-4000:])
    print(
        f"portability: {'all outputs reproduce' if not failures else 'FAILED'} "
        f"({time.monotonic() - t0:.0f} s)"
    )
    return 1 if failures else 0


def main(argv=None):
    """Store or check the notebooks named (every chapter by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("store", "check", "validate"))
    parser.add_argument("notebooks", nargs="*")
    args = parser.parse_args(argv)
    paths = chapters(args.notebooks)
    if args.command == "store":
        store(paths)
        print("checking that the stored outputs reproduce elsewhere")
    if args.command == "validate":  # make test: this machine and one other
        return check(paths, native=True, count=1)
    return check(paths)


if __name__ == "__main__":
    sys.exit(main())
