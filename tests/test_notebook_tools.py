"""Tests for tools/notebooks.py: the environments of the portability check, stored metadata."""

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import notebooks


def test_x86_environments_set_their_own_kernel_threads_and_simd():
    envs = dict(notebooks.environments("x86_64"))
    assert len(envs) >= 2
    assert all("OPENBLAS_CORETYPE" in v for v in envs.values())
    assert len({v["OPENBLAS_CORETYPE"] for v in envs.values()}) == len(envs)
    assert any(v.get("OPENBLAS_NUM_THREADS") == "1" for v in envs.values())
    assert any("X86_V4" in v.get("NPY_DISABLE_CPU_FEATURES", "") for v in envs.values())


def test_other_machines_still_get_two_environments():
    envs = dict(notebooks.environments("aarch64"))
    assert len(envs) == 2 and not any("OPENBLAS_CORETYPE" in v for v in envs.values())


def test_strip_volatile_removes_timestamps_only(tmp_path):
    cell = nbformat.v4.new_code_cell(
        "1",
        metadata={
            "execution": {"iopub.execute_input": "2026-12-01T08:09:12Z"},
            "tags": ["remove-input"],
        },
    )
    path = tmp_path / "nb.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[cell]), path)
    assert notebooks.strip_volatile(path)
    assert nbformat.read(path, as_version=4).cells[0].metadata == {"tags": ["remove-input"]}
    assert not notebooks.strip_volatile(path)


def test_failing_cells_are_read_from_nbval_output():
    output = (
        "FAILED book/04-coordinated-divergence.ipynb::Cell 4\n"
        "FAILED book/03-population-limit.ipynb::Cell 12\n2 failed, 300 passed in 9s"
    )
    assert notebooks.FAILED.findall(output) == [
        "book/04-coordinated-divergence.ipynb::Cell 4",
        "book/03-population-limit.ipynb::Cell 12",
    ]
    assert notebooks.PASSED.search(output)[1] == "300"
