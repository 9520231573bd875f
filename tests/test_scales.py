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
