"""Benchmark: a pretraining sweep run serially and over local workers, side by side.

Usage: ``python bench/sweep.py [workers]`` (default: ``STUMPLIB_WORKERS`` or all cores);
prints ``speedup <x> with <w> workers; identical: yes|no``. The sweep trains 8 corpora
(two sizes, four corpora each, m n up to 1.6e5) from large-resolution starts to fixed scales; the parallel
run must return exactly the serial results (each corpus has its own structured stream).
"""

import sys
import time

from stumplib import pretraining, sweep, tasks


def main(n_workers=None):
    n_workers = sweep.workers() if n_workers is None else n_workers
    args = ([(300, 300), (400, 400)], [20.0, 28.0], tasks.Uniform(0.1, 0.9), 4, 12)
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
