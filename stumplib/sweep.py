"""Sweeps in parallel: independent items over cores (joblib) or over a cluster (Dask).

Every item of a sweep carries everything it needs, its random stream included (the
structured seeds ``(seed, i, r)`` of each experiment), so the results do not depend on
which process computes which item, nor in what order: a parallel sweep returns exactly
what the serial loop returns. The number of local workers is ``STUMPLIB_WORKERS``
(default: all cores). On a cluster, connect a ``dask.distributed.Client`` and pass
``backend="dask"``: joblib then ships the items to the Dask workers.
"""

import os

import joblib
import numpy as np

from . import progress, validation


def workers():
    """Local workers for sweeps: ``STUMPLIB_WORKERS``, or the number of cores.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``STUMPLIB_WORKERS`` is set to anything but an integer ``>= 1``.
    """
    value = os.environ.get("STUMPLIB_WORKERS")
    if value is None:
        return os.cpu_count() or 1
    try:
        count = int(value)
    except ValueError:
        count = 0
    if count < 1:
        raise ValueError(f"STUMPLIB_WORKERS must be an integer >= 1 (got {value!r})")
    return count


#: A callable sent to the workers as given (a wrapper would not pickle).
SENT = validation.Constraint(
    validation.function, ((None, TypeError), (0.5, TypeError), ("abs", TypeError))
)


# n_workers and backend are checked where used: the library passes them on as given
@validation.constrained(function=SENT, cost=validation.Function(optional=True))
def run(function, items, n_workers=None, backend=None, desc="sweep", cost=None):
    """``[function(item) for item in items]``, computed in parallel.

    Parameters
    ----------
    function : callable
        A module-level function (it is pickled to the workers).
    items : iterable
        Its arguments, one per call.
    n_workers : int, optional
        Local processes (default :func:`workers`); 1 runs the plain loop in this
        process.
    backend : {None, "dask"}
        ``"dask"`` sends the calls to the workers of the active
        ``dask.distributed.Client``.
    desc : str
        Progress-bar label.
    cost : callable, optional
        An estimate of each item's cost: the items are dispatched most costly first, so
        that a long item does not start last and leave the other workers idle.

    Returns
    -------
    list
        The results, in the order of ``items``.

    Raises
    ------
    ValueError
        If ``backend`` is neither None nor ``'dask'``.
    """
    items = list(items)
    if backend not in (None, "dask"):
        raise ValueError(f"backend must be None or 'dask' (got {backend!r})")
    if cost is not None:
        order = sorted(range(len(items)), key=lambda i: -cost(items[i]))  # stable
        done = run(function, [items[i] for i in order], n_workers, backend, desc)
        out = [None] * len(items)
        for i, result in zip(order, done):
            out[i] = result
        return out
    if backend == "dask":
        with joblib.parallel_config(backend="dask"):
            return joblib.Parallel()(joblib.delayed(function)(item) for item in items)
    n_workers = (
        workers() if n_workers is None else validation.count(n_workers, "n_workers")
    )
    if n_workers == 1 or len(items) <= 1:
        return [function(item) for item in progress.bar(items, desc=desc)]
    calls = (joblib.delayed(function)(item) for item in items)
    return list(
        progress.bar(
            joblib.Parallel(n_jobs=n_workers, return_as="generator")(calls),
            total=len(items),
            desc=desc,
        )
    )


@validation.constrained(function=SENT)
def as_done(function, items, n_workers=None):
    """``function(item)`` for each item, in parallel, yielded as each call ends.

    ``items`` is read lazily, one item when a worker is free, so an iterator that stops
    early (at a deadline, say) starts no further calls. The results come in the order
    the calls end; with one worker, in the order of ``items``.

    Parameters
    ----------
    function : callable
        A module-level function (it is pickled to the workers).
    items : iterable
        Its arguments, one per call, each carrying everything the call needs.
    n_workers : int, optional
        Local processes (default :func:`workers`); 1 runs the calls in this process.

    Returns
    -------
    iterator
        The results.

    Raises
    ------
    TypeError, ValueError
        If ``function`` is not callable or ``n_workers`` is not an integer ``>= 1``.
    """
    n_workers = (
        workers() if n_workers is None else validation.count(n_workers, "n_workers")
    )
    if n_workers == 1:
        return (function(item) for item in items)
    calls = (joblib.delayed(function)(item) for item in items)
    return joblib.Parallel(
        n_jobs=n_workers,
        return_as="generator_unordered",
        pre_dispatch="n_jobs",
        batch_size=1,
    )(calls)


def examples(item):
    """The cost estimate of a sweep item that starts with a corpus size ``(m, n)``.

    ``m n``.

    Parameters
    ----------
    item : sequence
        A sweep item whose first entry is ``(m, n)``.

    Returns
    -------
    int

    Raises
    ------
    ValueError, TypeError
        If the item does not start with a pair of counts.

    Examples
    --------
    >>> examples(((400, 800), "any", "other", "entries"))
    320000
    """
    if isinstance(item, (str, bytes)) or not hasattr(item, "__getitem__"):
        raise TypeError(f"item must be a sequence starting with (m, n) (got {item!r})")
    if len(item) == 0 or np.shape(item[0]) != (2,):
        raise ValueError(f"item must start with a pair (m, n) (got {item!r})")
    m, n = validation.counts(item[0], "item[0]")
    return m * n
