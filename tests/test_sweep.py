"""Tests for stumplib.sweep: parallel sweeps give exactly the serial results."""

import pytest

from stumplib import pretraining, sweep, tasks

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES, TARGETS = [(40, 30), (60, 40)], [9.0, 11.0]


def square(v):
    return v * v


def test_workers_from_the_environment(monkeypatch):
    monkeypatch.delenv("STUMPLIB_WORKERS", raising=False)
    assert sweep.workers() >= 1
    monkeypatch.setenv("STUMPLIB_WORKERS", "3")
    assert sweep.workers() == 3
    for bad in ("0", "two", "-1", "1.5"):
        monkeypatch.setenv("STUMPLIB_WORKERS", bad)
        with pytest.raises(
            ValueError, match=r"STUMPLIB_WORKERS must be an integer >= 1"
        ):
            sweep.workers()


def test_run_keeps_the_order():
    assert sweep.run(square, range(7), n_workers=1) == [v * v for v in range(7)]
    assert sweep.run(square, range(7), n_workers=2) == [v * v for v in range(7)]
    assert sweep.run(square, [], n_workers=2) == []


def test_run_dispatches_the_costliest_first_and_keeps_the_order():
    calls = []

    def record(v):
        calls.append(v)
        return -v

    items = [3, 9, 1, 9, 4]
    assert sweep.run(record, items, n_workers=1, cost=abs) == [-v for v in items]
    assert calls == [9, 9, 4, 3, 1]  # ties keep their order (stable)
    assert sweep.run(square, items, n_workers=2, cost=abs) == [v * v for v in items]
    assert sweep.examples(((30, 40), "anything")) == 1200


def test_run_bad_arguments():
    with pytest.raises(TypeError, match=r"^cost must be callable"):
        sweep.run(square, [1], cost=3)
    with pytest.raises(ValueError, match=r"backend must be None or 'dask'"):
        sweep.run(square, [1], backend="ray")
    with pytest.raises(ValueError, match=r"n_workers must be an integer >= 1"):
        sweep.run(square, [1, 2], n_workers=0)


@pytest.fixture(scope="module")
def serial():
    return pretraining.pretrain(SIZES, TARGETS, PRIOR, 2, seed=3, n_workers=1)


def test_parallel_pretraining_is_identical_to_serial(serial):
    assert pretraining.pretrain(SIZES, TARGETS, PRIOR, 2, seed=3, n_workers=2) == serial


def test_dask_local_cluster_is_identical_to_serial(serial):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        assert (
            pretraining.pretrain(SIZES, TARGETS, PRIOR, 2, seed=3, backend="dask")
            == serial
        )


def test_as_done_yields_every_result_and_reads_items_lazily():
    assert list(sweep.as_done(square, range(7), n_workers=1)) == [
        v * v for v in range(7)
    ]
    assert sorted(sweep.as_done(square, range(7), n_workers=2)) == [
        v * v for v in range(7)
    ]
    taken = []

    def items():
        for v in range(100):
            taken.append(v)
            yield v

    results = sweep.as_done(square, items(), n_workers=1)
    assert next(results) == 0 and taken == [0]


def test_as_done_bad_arguments():
    with pytest.raises(TypeError, match=r"^function must be callable"):
        sweep.as_done(None, [1])
    with pytest.raises(ValueError, match=r"n_workers must be an integer >= 1"):
        sweep.as_done(square, [1, 2], n_workers=0)


@pytest.mark.parametrize(
    ("item", "error", "match"),
    [
        ((("a", 2),), TypeError, r"^item\[0\] must hold real numbers"),  # was "aa"
        (((2.5, 2),), ValueError, r"^item\[0\] must be an integer >= 1"),
        (((True, 2),), ValueError, r"^item\[0\] must hold integers, not booleans"),
        (((2,),), ValueError, r"^item must start with a pair \(m, n\)"),
        ((), ValueError, r"^item must start with a pair \(m, n\)"),
        ("ab", TypeError, r"^item must be a sequence starting with \(m, n\)"),
        (((2, 2.0**60),), ValueError, r"^item\[0\] must be at most"),
        # past int64 numpy sees objects: still numbers, too large a count (issue 50)
        (((10**30, 2),), ValueError, r"^item\[0\] must be at most"),
    ],
)
def test_examples_checks_the_pair(item, error, match):
    with pytest.raises(error, match=match):
        sweep.examples(item)
