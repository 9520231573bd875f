"""Claim checks: one stable line per check, recorded for the claims ledger.

Every claim of the book is checked by :func:`check`, which compares a measured
value with its expectation under an explicit tolerance, prints exactly one line

    claim <id>: holds | measured <value> | expected <value> ± <tol>

(``FAILS`` in place of ``holds``, and then raises), and writes a JSON record, keyed
by claim id and statement, to the ledger directory (``$STUMPLIB_LEDGER``, default
``_build/claims`` at the repository root) from which a claims-ledger page can be built.
"""

import json
import math
import os
import re
from pathlib import Path

#: The claim ids of the book, in the order of the claims ledger.
IDS = ("rule", "hard-limit", "gradients", "population-form", "calibration",
       "coordinated-divergence", "quarter-law", "gradient-control", "frozen-rate",
       "separation", "boundary", "symmetrization", "symmetrized-dynamics")


LINE = re.compile(r"^claim (?P<id>[a-z-]+): (?P<status>holds|FAILS) \| measured (?P<measured>\S+)"
                  r" \| expected (?P<expected>\S+) ± (?P<tol>\S+)$")


class ClaimFailed(AssertionError):
    """A measured value fell outside the tolerance of its claim."""


def ledger_dir():
    """Directory where claim records are written."""
    default = Path(__file__).resolve().parents[1] / "_build" / "claims"
    return Path(os.environ.get("STUMPLIB_LEDGER", default))


def _fmt(value, digits):
    return f"{value:.{digits}g}"


def check(claim_id, measured, expected, tol, statement, digits=4):
    """Check ``|measured - expected| <= tol``, print the claim line, record it.

    Parameters
    ----------
    claim_id : str
        One of :data:`IDS`.
    measured, expected, tol : float
        Measured value, theoretical expectation and absolute tolerance.
    statement : str
        What this check establishes, in words (shown in the ledger).
    digits : int
        Significant digits printed and recorded (keeps stored outputs stable).

    Returns
    -------
    float
        ``measured`` rounded to ``digits`` significant digits.

    Raises
    ------
    ClaimFailed
        If the measured value is outside the tolerance (or not finite).
    """
    if claim_id not in IDS:
        raise ValueError(f"claim_id must be one of {IDS} (got {claim_id!r})")
    measured, expected, tol = float(measured), float(expected), float(tol)
    if not (math.isfinite(expected) and math.isfinite(tol) and tol >= 0):
        raise ValueError("expected and tol must be finite, with tol >= 0")
    holds = math.isfinite(measured) and abs(measured - expected) <= tol
    shown = [_fmt(v, digits) for v in (measured, expected, tol)]
    status = "holds" if holds else "FAILS"
    print(f"claim {claim_id}: {status} | measured {shown[0]} | expected {shown[1]} ± {shown[2]}")
    _record(claim_id, statement, shown, holds)
    if not holds:
        raise ClaimFailed(f"claim {claim_id} fails: {statement}")
    return float(shown[0])


def _record(claim_id, statement, shown, holds):
    """Store the check under its claim id, replacing an earlier run of the same check."""
    folder = ledger_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{claim_id}.json"
    records = json.loads(path.read_text()) if path.exists() else {}
    records[statement] = {"id": claim_id, "statement": statement, "measured": shown[0],
                          "expected": shown[1], "tol": shown[2], "holds": holds}
    path.write_text(json.dumps(records, indent=1))


def read_ledger(folder=None):
    """All recorded checks, as a list of dicts ordered by claim id."""
    folder = Path(folder) if folder else ledger_dir()
    records = []
    for claim_id in IDS:
        path = folder / f"{claim_id}.json"
        if path.exists():
            records += list(json.loads(path.read_text()).values())
    return records


def parse_lines(text):
    """The claim checks printed in ``text``, one dict per ``claim ...`` line.

    Each dict has the keys ``id``, ``holds`` (bool), ``measured``, ``expected`` and
    ``tol`` (the printed strings); lines of any other form are skipped.
    """
    found = []
    for line in text.splitlines():
        match = LINE.match(line.strip())
        if match:
            found.append({"id": match["id"], "holds": match["status"] == "holds",
                          "measured": match["measured"], "expected": match["expected"],
                          "tol": match["tol"]})
    return found
