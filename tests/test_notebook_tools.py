"""Tests for tools/notebooks.py.

The environments of the portability check, stored metadata.
"""

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import notebooks


def test_x86_environment_sets_its_own_kernel_threads_and_simd():
    ((_, variables),) = notebooks.environments("x86_64")
    assert variables["OPENBLAS_CORETYPE"] == "Prescott"  # SSE: no AVX, no FMA
    assert variables["OPENBLAS_NUM_THREADS"] == "1"
    assert "X86_V3" in variables["NPY_DISABLE_CPU_FEATURES"]
    assert "X86_V4" in variables["NPY_DISABLE_CPU_FEATURES"]


def test_other_machines_change_threads_and_simd():
    ((_, variables),) = notebooks.environments("aarch64")
    assert "OPENBLAS_CORETYPE" not in variables
    assert variables["OPENBLAS_NUM_THREADS"] == "1"
    assert variables["NPY_DISABLE_CPU_FEATURES"]


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
    assert nbformat.read(path, as_version=4).cells[0].metadata == {
        "tags": ["remove-input"]
    }
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


def test_seed_sweep_reads_checks_and_first_error():
    import seeds

    record = {
        "id": "rule",
        "statement": "s",
        "holds": False,
        "measured": "4.1",
        "expected": "0",
        "tol": "4",
        "evidence": "numerical",
        "span": "N=1",
    }
    cells = [
        nbformat.v4.new_code_cell(
            "1",
            outputs=[nbformat.v4.new_output("display_data", data={seeds.MIME: record})],
        ),
        nbformat.v4.new_code_cell(
            "2",
            outputs=[
                nbformat.v4.new_output(
                    "error", ename="IndexError", evalue="i", traceback=[]
                )
            ],
        ),
    ]
    checks, error = seeds.summarize(nbformat.v4.new_notebook(cells=cells))
    assert [c["holds"] for c in checks] == [False] and error == "IndexError: i"
    result = {"chapter": "01-x.ipynb", "offset": 3, "seconds": 1, "checks": checks}
    text = seeds.report({("01-x.ipynb", 3): dict(result, error=error)})
    assert "| 01-x.ipynb | 3..3 | 1 | 1 | 1 |" in text
    assert "3 (4.1 vs 0 ± 4)" in text and "Offset 3 stopped: `IndexError: i`" in text


def test_seed_sweep_finds_the_seeded_chapters():
    import seeds

    names = [p.stem.removeprefix("appendix-") for p in seeds.seeded_chapters()]
    assert [n[:2] for n in names[:5]] == ["01", "02", "05", "06", "07"]
    assert names[5:] == [
        "certificate",
        "d-symmetrization-checks",
        "head-checks",
        "past-freeze",
        "starts",
    ]
