"""Claim checks: one stable line per check, and a structured record beside it.

Every claim of the book is checked by :func:`check`, which compares a measured
value with its expectation under an explicit tolerance and shows exactly one line

    claim <id>: holds | measured <v> | expected <v> ± <tol> | evidence <kind> [<span>]

(``FAILS`` in place of ``holds``, and then raises, unless
``STUMPLIB_CLAIM_FAILURES=record``: see :func:`failures`). In a notebook the line is the
``text/plain`` part of one output whose :data:`MIME` part holds the same check as a
record (id, statement, values, evidence). The claims ledger of the book is built
from these records in the executed outputs of the pages, and nothing else: running
a notebook elsewhere writes nothing that a later build reads.
"""

import math
import re
from typing import ClassVar

import numpy as np

from .. import validation
from . import scales

#: The claim ids of the book, in the order of the claims ledger.
IDS = (
    "rule",
    "hard-limit",
    "gradients",
    "population-form",
    "calibration",
    "coordinated-divergence",
    "quarter-law",
    "gradient-control",
    "frozen-rate",
    "separation",
    "boundary",
    "symmetrization",
    "symmetrized-dynamics",
)

#: Kinds of evidence, from the strongest. An identity or exact formula checked to
#: rounding, a derived limit or expansion checked numerically, a fitted or sampled
#: value; then two kinds that are not evidence for a claim and never count toward a
#: verdict: a replay (committed data or a result recomputed and compared with itself)
#: and an exercise (the answer of an exercise's solution, recomputed on every build).
EVIDENCE = ("exact", "asymptotic", "numerical", "replay", "exercise")

#: The one definition of each kind of evidence, shown by the claims ledger and the
#: results page and quoted in CONTRIBUTING.md (a test keeps the three the same).
DEFINITIONS = {
    "exact": (
        "an identity or an exact formula, checked to rounding (a sampled test of an "
        "exact formula is numerical)"
    ),
    "asymptotic": (
        "a derived limit or expansion (formal asymptotics), checked numerically at "
        "the stated scales"
    ),
    "numerical": (
        "a fitted, sampled or measured quantity, compared with a model or a bound over "
        "the stated range and no further"
    ),
    "replay": (
        "committed data or a result recomputed and compared with itself: it shows "
        "that a result reproduces, not that a claim holds, and never counts toward a "
        "verdict"
    ),
    "exercise": (
        "the answer of the solution of an exercise, recomputed on every build: it "
        "never counts toward a verdict"
    ),
}

#: The kinds that can make a sentence of the paper *reproduced* (see :func:`verdict`).
STRONG = ("exact", "asymptotic")

#: The kinds that are never evidence for a claim (shown apart in the ledger).
NOT_EVIDENCE = ("replay", "exercise")

#: The form of a check's optional key (lower-case words joined by hyphens), by which a
#: page names the check.
KEY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")

#: MIME type of the structured record shown with each claim line.
MIME = "application/vnd.stumplib.claim+json"

LINE = re.compile(
    r"^claim (?P<id>[a-z-]+): (?P<status>holds|FAILS) \| measured (?P<measured>\S+)"
    r" \| expected (?P<expected>\S+) ± (?P<tol>\S+)"
    r" \| evidence (?P<evidence>[a-z]+)(?: \[(?P<span>[^\]]*)\])?$"
)
SPAN = re.compile(r"^[^\[\]\n|]+$")


class ClaimFailed(AssertionError):
    """A measured value fell outside the tolerance of its claim.

    Parameters
    ----------
    *args
        The message, as for any exception.
    """


@validation.constrained(value=validation.Scalar(), digits=validation.Integer())
def number(value, digits=4):
    """Finite ``value`` to ``digits`` significant digits, as the ledger shows it.

    Never ``-0``.

    Parameters
    ----------
    value : float
        A real scalar.
    digits : int
        Significant digits, at least 1.

    Returns
    -------
    str

    Raises
    ------
    ValueError, TypeError
        If ``value`` is not a real scalar or ``digits`` not a positive integer.
    """
    return _number(value, digits)


def _number(value, digits):
    """:func:`number` of a float, NaN and inf included.

    A failed measurement is shown.
    """
    text = f"{float(value) + 0.0:.{digits}g}"
    return "0" if text in ("-0", "0") else text


def _real_scalar(value, name):
    """One real number, NaN and inf included (a failed measurement is shown)."""
    value = validation.real(value, name)
    if value.ndim:
        raise ValueError(f"{name} must be a scalar (got shape {value.shape})")
    return float(value)


def _tolerance(value, name):
    value = validation.scalar(value, name)
    if value < 0:
        raise ValueError(f"{name} must be >= 0 (got {value:g})")
    return value


_NOT_A_SCALAR = ((None, TypeError), ("1.0", TypeError), (1j, TypeError),
                 ([1.0, 2.0], ValueError))  # fmt: skip
#: The numbers of a check: a measured value (NaN fails the claim), the expected value
#: and the tolerance, the digits shown.
_NUMBERS = dict(
    measured=validation.Constraint(_real_scalar, _NOT_A_SCALAR),
    expected=validation.Scalar(),
    tol=validation.Constraint(
        _tolerance,
        (
            *_NOT_A_SCALAR,
            (np.nan, ValueError),
            (np.inf, ValueError),
            (-1e-300, ValueError),
        ),
    ),
    digits=validation.Integer(),
)


@validation.constrained(**_NUMBERS)
def check(
    claim_id,
    measured,
    expected,
    tol,
    statement,
    *,
    evidence,
    span=None,
    digits=4,
    key=None,
    sides=None,
):
    """Check ``|measured - expected| <= tol``, show the claim line and its record.

    Parameters
    ----------
    claim_id : str
        One of :data:`IDS`.
    measured, expected, tol : float
        Measured value, theoretical expectation and absolute tolerance.
    statement : str
        What this check establishes, in words (shown in the ledger).
    evidence : str
        One of :data:`EVIDENCE`.
    span : str, optional
        What the evidence spans, e.g. ``"k=128..4096"``; required unless the
        evidence is ``"exact"``.
    digits : int
        Significant digits of the measured and expected values shown (keeps stored
        outputs stable); the tolerance is shown rounded up to two.
    key : str, optional
        A name of this check that is unique in the book (lower-case words joined by
        hyphens, :data:`KEY`), by which a page refers to it (:func:`find`). Kept in
        the record only; the printed line does not change.
    sides : tuple of str, optional
        Where the two compared values come from, ``(measured, expected)``: for
        instance ``("stumplib.population.estimate", "SymPy derivation")``, or
        ``("library, 40 corpora", "closed form 2/((N+1)(N+2))")``. Kept in the record
        and shown by the claims ledger. The two must be independent computations; a
        check whose two sides are one computation is a replay (``evidence="replay"``)
        and never counts toward a verdict (see :func:`verdict`).

    Returns
    -------
    float
        ``measured`` rounded to ``digits`` significant digits.

    Raises
    ------
    ClaimFailed
        If the measured value is outside the tolerance (or not finite), unless
        :func:`failures` is ``"record"``: then the ``FAILS`` line and its record are
        shown and the run goes on (the re-draw sweep, ``make seeds``, counts them).
    """
    mode = failures()
    record = make_record(
        claim_id,
        measured,
        expected,
        tol,
        statement,
        evidence=evidence,
        span=span,
        digits=digits,
        key=key,
        sides=sides,
    )
    _show(record)
    if not record["holds"] and mode == "raise":
        raise ClaimFailed(f"claim {claim_id} fails: {statement}")
    return float(record["measured"])


#: What a failing check does, raise (the default) or record its FAILS line and go on.
FAILURES = ("raise", "record")


def failures():
    """What a failing :func:`check` does, from ``STUMPLIB_CLAIM_FAILURES``.

    Returns
    -------
    str
        ``"raise"`` (the default: the notebook stops with :class:`ClaimFailed`) or
        ``"record"`` (the ``FAILS`` line and its record are shown and execution goes
        on, so that one run counts every failing check; for ``make seeds`` only).

    Raises
    ------
    ValueError
        If ``STUMPLIB_CLAIM_FAILURES`` names another behaviour.
    """
    return scales.setting("STUMPLIB_CLAIM_FAILURES", FAILURES)


@validation.constrained(**_NUMBERS)
def make_record(
    claim_id,
    measured,
    expected,
    tol,
    statement,
    *,
    evidence,
    span=None,
    digits=4,
    key=None,
    sides=None,
):
    """The record of a check (arguments as for :func:`check`), validated, nothing shown.

    Returns
    -------
    dict
        ``id``, ``holds``, ``measured``, ``expected``, ``tol`` (strings as shown),
        ``evidence``, ``span``, ``statement`` and ``margin`` (an upper bound on
        ``abs(measured - expected) / tol`` from the shown values, to two decimals; see
        ``_margin``; :func:`read_margin` reads it), and ``key`` and ``sides`` (a list
        of two strings) when given (so a record without them is unchanged).

    Raises
    ------
    ValueError
        If ``claim_id`` or ``evidence`` is unknown, ``span`` is missing (for evidence
        other than "exact") or malformed, ``statement`` is empty, a value is not a real
        scalar, ``expected`` and ``tol`` are not finite with ``tol >= 0``, or ``key``
        is not of the form :data:`KEY`, or ``sides`` is not two different non-empty
        strings.
    TypeError
        If ``measured``, ``expected`` or ``tol`` is not a real number.
    """
    if sides is not None and not _two_sides(sides):
        raise ValueError(
            "sides must be two different non-empty strings, (measured, expected)"
            f" (got {sides!r})"
        )
    if key is not None and not (isinstance(key, str) and KEY.fullmatch(key)):
        raise ValueError(
            f"key must be lower-case words joined by hyphens (got {key!r})"
        )
    if claim_id not in IDS:
        raise ValueError(f"claim_id must be one of {IDS} (got {claim_id!r})")
    if evidence not in EVIDENCE:
        raise ValueError(f"evidence must be one of {EVIDENCE} (got {evidence!r})")
    if span is None and evidence != "exact":
        raise ValueError(
            f"span is required for {evidence} evidence (what does it span?)"
        )
    if span is not None and not (isinstance(span, str) and SPAN.match(span)):
        raise ValueError(
            f"span must be a one-line string without brackets or '|' (got {span!r})"
        )
    if not (isinstance(statement, str) and statement.strip()):
        raise ValueError("statement must be a non-empty string")
    holds = math.isfinite(measured) and abs(measured - expected) <= tol
    shown = [
        _number(measured, digits),
        _number(expected, digits),
        _number(_round_up(tol), 2),
    ]
    record = {
        "id": claim_id,
        "holds": holds,
        "measured": shown[0],
        "expected": shown[1],
        "tol": shown[2],
        "evidence": evidence,
        "span": span,
        "statement": statement,
        "margin": _margin(shown, holds, digits),
    }
    if key is not None:
        record["key"] = key
    if sides is not None:
        record["sides"] = [x.strip() for x in sides]
    return record


def _round_up(tol, digits=2):
    """``tol`` rounded up to ``digits`` significant digits.

    A tolerance is shown with two.
    """
    if tol == 0:
        return 0.0
    unit = 10.0 ** (math.floor(math.log10(tol)) - digits + 1)
    return math.ceil(tol / unit * (1 - 1e-12)) * unit


def _margin(shown, holds, digits):
    """How close a check came to its tolerance, from its shown values, to two decimals.

    An upper bound on ``abs(measured - expected) / tol`` that the shown digits support:
    the difference of the shown values plus half a unit in their last digit each, over
    the shown tolerance (rounded up), and at most 1 for a check that holds. Computed
    from the shown strings alone, so the stored record reproduces in every
    floating-point environment, and a check that holds never shows a margin above 1.
    None if undefined.
    """
    measured, expected, tol = (float(v) for v in shown)
    if not math.isfinite(measured):
        return None
    slack = _half_unit(measured, digits) + _half_unit(expected, digits)
    bound = abs(measured - expected) + slack
    if tol == 0:
        return 0.0 if bound == 0 else (1.0 if holds else None)
    return round(min(bound / tol, 1.0) if holds else bound / tol, 2) + 0.0


def resolves(record):
    """Whether the shown digits of a check say how close it came to its tolerance.

    A check whose ``margin`` (an upper bound) is below 1, or that fails, is resolved.
    A holding check at margin 1 is resolved only if its shown values also bound the
    margin from below: if the difference of the shown measured and expected values
    is at most their rounding (half a unit in the last digit of each, at the larger
    number of significant digits the two strings show, a lower bound on the digits
    they were shown with), the margin may be anywhere in [0, 1]: the tolerance is
    finer than the shown digits, the check holds and nothing more can be read. The
    ledger shows such checks apart, never as closest to failing.

    Parameters
    ----------
    record : dict
        A check record (:func:`make_record`).

    Returns
    -------
    bool
    """
    margin = record["margin"]
    if margin is None or margin < 1 or not record["holds"] or _zero_tol(record):
        return True
    measured, expected = float(record["measured"]), float(record["expected"])
    digits = max(_significant(record["measured"]), _significant(record["expected"]))
    slack = _half_unit(measured, digits) + _half_unit(expected, digits)
    return abs(measured - expected) > slack * (1 + 1e-9)  # equal up to float rounding


def _zero_tol(record):
    return float(record["tol"]) == 0


def read_margin(record):
    """The margin of a check as the ledger reads it: ``None`` if its digits cannot tell.

    The record's ``margin`` (an upper bound from the shown values), except 0 for a
    check of zero tolerance that holds (its values are equal) and ``None`` where
    :func:`resolves` is false.

    Parameters
    ----------
    record : dict
        A check record (:func:`make_record`).

    Returns
    -------
    float or None
    """
    if record["margin"] is None or not resolves(record):
        return None
    if _zero_tol(record) and record["holds"]:
        return 0.0
    return record["margin"]


def _significant(text):
    """The number of significant digits of a number shown as ``text`` (0 for 0)."""
    digits = text.lower().partition("e")[0].lstrip("+-").replace(".", "").lstrip("0")
    return len(digits)


def _half_unit(value, digits):
    """Half a unit in the last of ``digits`` significant digits of ``value``. 0 at 0."""
    if value == 0 or digits == 0:
        return 0.0
    return 0.5 * 10.0 ** (math.floor(math.log10(abs(value))) - digits + 1)


def line(record):
    """The printed line of a check record.

    Parameters
    ----------
    record : dict
        A check record with the keys ``id``, ``holds``, ``measured``, ``expected``,
        ``tol``, ``evidence`` and ``span``.

    Returns
    -------
    str
    """
    status = "holds" if record["holds"] else "FAILS"
    text = (
        f"claim {record['id']}: {status} | measured {record['measured']} | expected "
        f"{record['expected']} ± {record['tol']} | evidence {record['evidence']}"
    )
    return text + (f" [{record['span']}]" if record["span"] else "")


def _show(record):
    """Display the line with its record in a notebook; print the line elsewhere."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython is a dependency of the book only
        get_ipython = None
    if get_ipython is not None and get_ipython() is not None:
        display({"text/plain": line(record), MIME: record}, raw=True)
    else:
        print(line(record))


class RecordRenderer:
    """myst-nb plugin (entry point ``myst_nb.mime_renderers``).

    A record renders as nothing.

    The page shows the claim line (the ``text/plain`` part of the same output); the
    record is read by the claims ledger from the executed notebook.

    Attributes
    ----------
    mime_priority_overrides : list of tuple
        The plugin's MIME priority override, ``("*", MIME, None)``: claim records
        (:data:`MIME`) in every builder.
    """

    mime_priority_overrides: ClassVar[list] = [("*", MIME, None)]

    @staticmethod
    def handle_mime(renderer, data, inline):
        """No nodes for a claim record; ``None`` (not mine) for any other MIME type."""
        return [] if data.mime_type == MIME else None


def records(notebook):
    """The check records shown in a notebook's outputs, in order.

    Parameters
    ----------
    notebook : dict
        A notebook as read by ``nbformat`` or ``json`` (format 4).
    """
    found = []
    for cell in notebook.get("cells", []):
        for output in (
            cell.get("outputs", []) if cell.get("cell_type") == "code" else []
        ):
            record = output.get("data", {}).get(MIME)
            if record is not None:
                found.append(dict(record))
    return found


def parse_lines(text):
    """The claim checks printed in ``text``, one dict per ``claim ...`` line.

    Each dict has the keys ``id``, ``holds`` (bool), ``measured``, ``expected``,
    ``tol``, ``evidence`` and ``span`` (the printed strings; ``span`` may be None);
    lines of any other form are skipped.

    Parameters
    ----------
    text : str
        Printed output.

    Returns
    -------
    list of dict

    Raises
    ------
    TypeError
        If ``text`` is not a string.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a string (got {type(text).__name__})")
    found = []
    for text_line in text.splitlines():
        match = LINE.match(text_line.strip())
        if match:
            found.append(
                {
                    "id": match["id"],
                    "holds": match["status"] == "holds",
                    "measured": match["measured"],
                    "expected": match["expected"],
                    "tol": match["tol"],
                    "evidence": match["evidence"],
                    "span": match["span"],
                }
            )
    return found


def find(checks, reference):
    """The checks that a page's reference names.

    A reference is either a check's key (``key=`` of :func:`check`) or
    ``"<claim id>: <words>"``, the checks of that claim whose statement contains the
    words (case and runs of white space ignored): the way to name a check that has no
    key.

    Parameters
    ----------
    checks : iterable of dict
        Check records.
    reference : str
        A key or ``"<claim id>: <words>"``.

    Returns
    -------
    list of dict
        The matching records, in order (a key matches at most one check of a book
        whose keys are unique; words may match several).

    Raises
    ------
    ValueError
        If ``reference`` is neither a key nor ``"<claim id>: <words>"`` with a claim
        id of :data:`IDS` and at least one word.
    TypeError
        If ``reference`` is not a string.
    """
    if not isinstance(reference, str):
        raise TypeError(f"reference must be a string (got {type(reference).__name__})")
    claim_id, colon, words = (part.strip() for part in reference.partition(":"))
    if not colon:
        if not KEY.fullmatch(claim_id):
            raise ValueError(
                f"reference must be a key or '<claim id>: <words>' (got {reference!r})"
            )
        return [c for c in checks if c.get("key") == claim_id]
    if claim_id not in IDS or not words:
        raise ValueError(
            f"reference must be a key or '<claim id>: <words>' with a claim id of "
            f"IDS (got {reference!r})"
        )
    wanted = " ".join(words.lower().split())
    return [
        c
        for c in checks
        if c["id"] == claim_id and wanted in " ".join(c["statement"].lower().split())
    ]


#: The verdicts on a sentence of the paper, from the strongest.
VERDICTS = ("reproduced", "numerical", "not tested", "fails")


def independent(record):
    """Whether a check declares two different sides (``sides`` of :func:`check`).

    Parameters
    ----------
    record : dict
        A check record (:func:`make_record`).

    Returns
    -------
    bool
        True if the record holds ``sides``, two different non-empty strings: the
        computation its measured value comes from and the one its expected value
        comes from.
    """
    return _two_sides(record.get("sides"))


def _two_sides(sides):
    """Whether ``sides`` is two different non-empty strings (a list or a tuple)."""
    return (
        isinstance(sides, (list, tuple))
        and len(sides) == 2
        and all(isinstance(x, str) and x.strip() for x in sides)
        and sides[0].strip() != sides[1].strip()
    )


def verdict(main, other=(), missing=()):
    """The verdict on one sentence of the paper, and its reason, from its checks.

    The rule: a sentence is *reproduced* only if the checks declared for its main
    statement (``main``) include a check of :data:`STRONG` evidence (exact or
    asymptotic) that declares two different sides (:func:`independent`: where its
    measured and its expected value come from), and every check declared for it holds
    and was found; *numerical* if its checks hold but no check of its main statement
    is strong evidence with declared sides (a strong check without sides cannot lift a
    verdict to reproduced), or a declared check was not found; *not tested* if no
    declared check was found; *fails* if one fails. Checks of the other content
    (``other``) must hold but never lift a verdict, and :data:`NOT_EVIDENCE` kinds
    (replays, exercises) never count, wherever declared.

    Parameters
    ----------
    main, other : sequence of dict
        Check records found for the sentence's main statement and for the rest of its
        content.
    missing : sequence of str
        The references declared for the sentence that name no check.

    Returns
    -------
    tuple of str
        (verdict, reason): a verdict of :data:`VERDICTS` and a reason in words.
    """
    found = list(main) + list(other)
    if not found:
        return "not tested", "no declared check in this build"
    if not all(c["holds"] for c in found):
        return "fails", "a check fails"
    if missing:
        return "numerical", "no check found for " + ", ".join(missing)
    strong = [c for c in main if c["evidence"] in STRONG]
    if not strong:
        return (
            "numerical",
            "all checks hold; the main statement's evidence is not exact or asymptotic",
        )
    kinds = sorted({c["evidence"] for c in strong if independent(c)})
    if not kinds:
        return (
            "numerical",
            "all checks hold, but no exact or asymptotic check of the main statement "
            "declares its two sides (where its measured and its expected value come "
            "from), and a check without sides cannot make a sentence reproduced",
        )
    return (
        "reproduced",
        f"all checks hold; the main statement has {' and '.join(kinds)} evidence "
        "from two declared sides",
    )
