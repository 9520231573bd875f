"""Small modules: no module of the library, the book's extensions, the tools or the
benchmarks is over 800 lines (one subject a module)."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 800
MODULES = sorted(
    p
    for folder in ("stumplib", "book/_ext", "tools", "bench")
    for p in (ROOT / folder).rglob("*.py")
)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_the_limit(path):
    lines = len(path.read_text().splitlines())
    assert lines <= LIMIT, (
        f"{path.relative_to(ROOT)} has {lines} lines (at most {LIMIT})"
    )
