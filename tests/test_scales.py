"""Tests for stumplib.book.scales and stumplib.progress."""

import pytest

from stumplib import progress
from stumplib.book import scales


def test_default_scale_is_book(monkeypatch):
    monkeypatch.delenv("STUMPLIB_SCALE", raising=False)
    assert scales.scale() == "book"
    assert scales.sized(10, 1000) == 10


def test_full_scale(monkeypatch):
    monkeypatch.setenv("STUMPLIB_SCALE", "full")
    assert scales.sized(10, 1000) == 1000


def test_bad_scale_is_rejected(monkeypatch):
    monkeypatch.setenv("STUMPLIB_SCALE", "huge")
    with pytest.raises(ValueError, match="STUMPLIB_SCALE"):
        scales.scale()


def test_progress_is_silent_when_disabled(monkeypatch, capsys):
    monkeypatch.setenv("STUMPLIB_PROGRESS", "0")
    assert list(progress.bar(range(3))) == [0, 1, 2]
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


def test_seed_is_the_stored_seed_by_default(monkeypatch):
    monkeypatch.delenv("STUMPLIB_SEED_OFFSET", raising=False)
    assert scales.seed_offset() == 0
    assert scales.seed(5) == 5 and isinstance(scales.seed(5), int)


def test_seed_offsets_give_distinct_reproducible_seeds(monkeypatch):
    seen = set()
    for offset in range(1, 21):
        monkeypatch.setenv("STUMPLIB_SEED_OFFSET", str(offset))
        value = scales.seed(5)
        assert value == scales.seed(5) and isinstance(value, int) and value >= 0
        seen.add(value)
    assert len(seen) == 20 and 5 not in seen
    monkeypatch.setenv("STUMPLIB_SEED_OFFSET", "1")
    assert scales.seed(5) != scales.seed(6)


@pytest.mark.parametrize("value", ["-1", "1.5", "one", ""])
def test_bad_seed_offset_is_rejected(monkeypatch, value):
    monkeypatch.setenv("STUMPLIB_SEED_OFFSET", value)
    with pytest.raises(ValueError, match="^STUMPLIB_SEED_OFFSET"):
        scales.seed(1)


@pytest.mark.parametrize(
    "stored, error", [(-1, ValueError), (1.5, ValueError), ("1", TypeError)]
)
def test_bad_stored_seed_is_rejected(stored, error):
    with pytest.raises(error, match="^stored"):
        scales.seed(stored)


def test_setting_defaults_to_the_first_choice_and_names_a_bad_variable(monkeypatch):
    monkeypatch.delenv("STUMPLIB_TEST_CHOICE", raising=False)
    assert scales.setting("STUMPLIB_TEST_CHOICE", ("a", "b")) == "a"
    monkeypatch.setenv("STUMPLIB_TEST_CHOICE", "b")
    assert scales.setting("STUMPLIB_TEST_CHOICE", ("a", "b")) == "b"
    monkeypatch.setenv("STUMPLIB_TEST_CHOICE", "c")
    with pytest.raises(ValueError, match="^STUMPLIB_TEST_CHOICE must be one of"):
        scales.setting("STUMPLIB_TEST_CHOICE", ("a", "b"))
