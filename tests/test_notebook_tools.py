"""Tests for tools/notebooks.py.

The environments of the portability check, stored metadata.
"""

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import notebooks


def test_x86_environments_differ_in_kernel_threads_and_simd():
    envs = [v for _, v in notebooks.environments("x86_64")]
    assert [v["OPENBLAS_CORETYPE"] for v in envs] == [
        "Prescott",  # SSE: no AVX, no FMA
        "Haswell",  # AVX2 and FMA: most Intel and AMD Zen machines
        "Sandybridge",  # AVX, no FMA
    ]
    assert [v["OPENBLAS_NUM_THREADS"] for v in envs] == ["1", "1", "2"]
    assert "X86_V3" in envs[0]["NPY_DISABLE_CPU_FEATURES"]
    assert all("X86_V4" in v["NPY_DISABLE_CPU_FEATURES"] for v in envs)
    assert len({tuple(sorted(v.items())) for v in envs}) == 3


def test_other_machines_change_threads_and_simd():
    envs = [v for _, v in notebooks.environments("aarch64")]
    assert len(envs) == 2
    assert all("OPENBLAS_CORETYPE" not in v for v in envs)
    assert [v["OPENBLAS_NUM_THREADS"] for v in envs] == ["1", "2"]
    assert all(v["NPY_DISABLE_CPU_FEATURES"] for v in envs)


def test_make_test_checks_one_other_environment_and_store_all(monkeypatch):
    seen = []
    monkeypatch.setattr(
        notebooks, "nbval", lambda paths, variables: seen.append(variables) or (0, "")
    )
    assert notebooks.main(["validate", "book/x.ipynb"]) == 0
    assert seen == [{}, notebooks.environments()[0][1]]
    seen.clear()
    assert notebooks.main(["check", "book/x.ipynb"]) == 0
    assert seen == [v for _, v in notebooks.environments()]


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
    assert [n[:2] for n in names[:4]] == ["01", "02", "05", "06"]
    assert names[4:] == [
        "certificate",
        "d-symmetrization-checks",
        "head-checks",
        "past-freeze",
    ]
