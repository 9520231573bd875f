"""Benchmark: a pretraining sweep run serially and over local workers, side by side.

Usage: ``python bench/sweep.py [workers]`` (default: ``STUMPLIB_WORKERS`` or all cores);
prints ``speedup <x> with <w> workers; identical: yes|no``. The sweep trains 8 corpora
(two sizes, four corpora each, m n up to 2.6e6) from large-resolution starts to fixed
scales; the parallel run must return exactly the serial results (each corpus has its own
structured stream). The workers are started once before the timing (a session pays that
start, about a second, once: joblib keeps them), and the serial run goes first.
"""

import sys
import time

from stumplib import pretraining, sweep, tasks


def main(n_workers=None):
    """Print the timings, the speedup and whether the results agree."""
    n_workers = sweep.workers() if n_workers is None else n_workers
    args = ([(1200, 1200), (1600, 1600)], [40.0, 50.0], tasks.Uniform(0.1, 0.9), 4, 12)
    sweep.run(abs, range(n_workers), n_workers=n_workers)  # start the workers
    start = time.perf_counter()
    serial = pretraining.pretrain(*args, n_workers=1)
    serial_time = time.perf_counter() - start
    start = time.perf_counter()
    parallel = pretraining.pretrain(*args, n_workers=n_workers)
    parallel_time = time.perf_counter() - start
    print(
        f"speedup {serial_time / parallel_time:.2f} with {n_workers} workers; "
        f"identical: {'yes' if parallel == serial else 'no'}"
    )
    return serial_time / parallel_time


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:2]))
