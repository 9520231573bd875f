"""Tests for stumplib.book.claims: the printed line, the structured record, failures."""

import contextlib
import io
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stumplib.book import claims


def test_holding_claim_prints_one_line(capsys):
    value = claims.check(
        "rule",
        2.0512345,
        2.0,
        0.1,
        "constant",
        evidence="numerical",
        span="N=10..1e4",
        digits=4,
    )
    out = capsys.readouterr().out
    assert out == (
        "claim rule: holds | measured 2.051 | expected 2 ± 0.1 "
        "| evidence numerical [N=10..1e4]\n"
    )
    assert value == 2.051


def test_exact_evidence_needs_no_span(capsys):
    claims.check("gradients", 1.0, 1.0, 0.0, "identity", evidence="exact")
    assert capsys.readouterr().out.endswith("| evidence exact\n")


def test_failing_claim_prints_fails_and_raises(capsys):
    with pytest.raises(claims.ClaimFailed, match="claim gradients fails: fd check"):
        claims.check(
            "gradients", 0.5, 0.0, 0.1, "fd check", evidence="numerical", span="b=1"
        )
    assert capsys.readouterr().out.startswith("claim gradients: FAILS | measured 0.5")


def test_nan_measurement_fails():
    with pytest.raises(claims.ClaimFailed):
        claims.check("rule", float("nan"), 0.0, 1.0, "nan", evidence="exact")


def test_record_holds_every_field_as_shown():
    record = claims.make_record(
        "rule", -1e-30, 0.0, 0.5, "small", evidence="asymptotic", span="b=1000"
    )
    assert record == {
        "id": "rule",
        "holds": True,
        "measured": "-1e-30",
        "expected": "0",
        "tol": "0.5",
        "evidence": "asymptotic",
        "span": "b=1000",
        "statement": "small",
        "margin": 0.0,
    }
    assert (
        claims.make_record("rule", 0.75, 0.0, 1.0, "m", evidence="exact")["margin"]
        == 0.75
    )


def test_margin_is_an_upper_bound_from_the_shown_values():
    # |12.36 - 12.6| = 0.24 <= 0.3 holds; shown to two digits (12 against 13 +- 0.3) the
    # values support only "at most the tolerance": the margin is 1, never above.
    record = claims.make_record(
        "rule", 12.36, 12.6, 0.3, "m", evidence="exact", digits=2
    )
    assert (record["measured"], record["expected"]) == ("12", "13")
    assert record["holds"] and record["margin"] == 1.0
    # Four digits resolve it: (0.24 + two half units of 0.005) / 0.3, rounded.
    record = claims.make_record("rule", 12.36, 12.6, 0.3, "m", evidence="exact")
    assert record["margin"] == 0.83
    # A difference at rounding level gives the same margin in every environment.
    margins = {
        claims.make_record("rule", 1 + d, 1.0, 1e-9, "m", evidence="exact")["margin"]
        for d in (0.0, 1e-16, -2e-16, 4e-16)
    }
    assert len(margins) == 1
    # A failing check shows its margin above 1.
    assert (
        claims.make_record("rule", 2.0, 1.0, 0.5, "m", evidence="exact")["margin"] > 1
    )


def test_negative_zero_is_shown_as_zero():
    assert claims.number(-0.0) == "0"
    assert (
        claims.make_record("rule", -0.0, -0.0, 0, "z", evidence="exact")["measured"]
        == "0"
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"claim_id": "no-such-claim"}, "claim_id"),
        ({"tol": -0.1}, "tol"),
        ({"tol": float("inf")}, "tol"),
        ({"evidence": "proved"}, "evidence"),
        ({"evidence": "numerical", "span": None}, "span is required"),
        ({"span": "a [bracket]"}, "span"),
        ({"span": "two\nlines"}, "span"),
        ({"statement": " "}, "statement"),
        ({"key": "Not A Key"}, "key"),
        ({"key": "trailing-"}, "key"),
        ({"key": 3}, "key"),
    ],
)
def test_bad_arguments_are_rejected(kwargs, match):
    args = {
        "claim_id": "rule",
        "measured": 1.0,
        "expected": 1.0,
        "tol": 0.1,
        "statement": "x",
        "evidence": "numerical",
        "span": "N=1",
    } | kwargs
    with pytest.raises(ValueError, match=match):
        claims.make_record(**args)


def test_ids_are_unique():
    assert len(claims.IDS) == len(set(claims.IDS)) >= 12


def test_printed_lines_parse_back(capsys):
    claims.check(
        "rule", 2.0512345, 2.0, 0.1, "constant", evidence="numerical", span="N=4..8"
    )
    with pytest.raises(claims.ClaimFailed):
        claims.check("boundary", 1e-7, -3.5e3, 0.25, "edge", evidence="exact")
    text = "noise\n" + capsys.readouterr().out + "claim rule holds\n"
    assert claims.parse_lines(text) == [
        {
            "id": "rule",
            "holds": True,
            "measured": "2.051",
            "expected": "2",
            "tol": "0.1",
            "evidence": "numerical",
            "span": "N=4..8",
        },
        {
            "id": "boundary",
            "holds": False,
            "measured": "1e-07",
            "expected": "-3500",
            "tol": "0.25",
            "evidence": "exact",
            "span": None,
        },
    ]


def test_records_are_read_from_notebook_outputs_in_order():
    first = claims.make_record("rule", 1, 1, 0, "a", evidence="exact")
    second = claims.make_record("boundary", 2, 2, 0, "b", evidence="exact")
    bundle = lambda r: nbformat.v4.new_output(
        "display_data", data={"text/plain": claims.line(r), claims.MIME: r}
    )
    notebook = nbformat.v4.new_notebook(
        cells=[
            nbformat.v4.new_markdown_cell("text"),
            nbformat.v4.new_code_cell(
                "", outputs=[bundle(first), nbformat.v4.new_output("stream", text="x")]
            ),
            nbformat.v4.new_code_cell("", outputs=[bundle(second)]),
        ]
    )
    assert claims.records(notebook) == [first, second]


def test_in_a_kernel_the_line_and_record_are_one_output(monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.get_ipython", lambda: object())
    monkeypatch.setattr(
        "IPython.display.display", lambda data, raw: shown.append((data, raw))
    )
    claims.check("rule", 1.0, 1.0, 0.0, "kernel", evidence="exact")
    ((data, raw),) = shown
    assert raw and data["text/plain"] == claims.line(data[claims.MIME])
    assert data[claims.MIME]["statement"] == "kernel"


@settings(max_examples=50, deadline=None)
@given(
    claim_id=st.sampled_from(claims.IDS),
    measured=st.floats(allow_nan=False, allow_infinity=False),
    tol=st.floats(0, 1e6),
    evidence=st.sampled_from(claims.EVIDENCE),
)
def test_every_printed_line_parses(claim_id, measured, tol, evidence):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(claims.ClaimFailed):
        claims.check(
            claim_id, measured, 0.0, tol, "any", evidence=evidence, span="x=1..2"
        )
    (parsed,) = claims.parse_lines(out.getvalue())
    assert parsed["id"] == claim_id and parsed["holds"] == (abs(measured) <= tol)
    assert parsed["evidence"] == evidence and parsed["span"] == "x=1..2"


def test_tolerance_is_shown_rounded_up_to_two_digits():
    shown = [
        claims.make_record("rule", 0, 0, t, "x", evidence="exact")["tol"]
        for t in (2.774e-05, 4.440892099e-13, 0.1, 4, 0.0164, 0)
    ]
    assert shown == ["2.8e-05", "4.5e-13", "0.1", "4", "0.017", "0"]


def test_records_render_as_nothing_in_myst_nb():
    from importlib.metadata import entry_points

    (plugin,) = [
        ep.load()
        for ep in entry_points(group="myst_nb.mime_renderers")
        if ep.name == "stumplib-claims"
    ]
    record = type("MimeData", (), {"mime_type": claims.MIME})
    other = type("MimeData", (), {"mime_type": "text/plain"})
    assert plugin.handle_mime(None, record, False) == []
    assert plugin.handle_mime(None, other, False) is None
    assert (("*", claims.MIME, None)) in plugin.mime_priority_overrides


def test_recorded_failure_shows_fails_and_goes_on(monkeypatch, capsys):
    monkeypatch.setenv("STUMPLIB_CLAIM_FAILURES", "record")
    value = claims.check(
        "gradients", 0.5, 0.0, 0.1, "fd check", evidence="numerical", span="b=1"
    )
    assert value == 0.5
    assert capsys.readouterr().out.startswith("claim gradients: FAILS | measured 0.5")


def test_failures_raise_by_default(monkeypatch):
    monkeypatch.delenv("STUMPLIB_CLAIM_FAILURES", raising=False)
    assert claims.failures() == "raise"
    monkeypatch.setenv("STUMPLIB_CLAIM_FAILURES", "raise")
    with pytest.raises(claims.ClaimFailed):
        claims.check(
            "gradients", 0.5, 0.0, 0.1, "fd check", evidence="numerical", span="b=1"
        )


def test_bad_failure_mode_is_rejected(monkeypatch):
    monkeypatch.setenv("STUMPLIB_CLAIM_FAILURES", "ignore")
    with pytest.raises(ValueError, match="^STUMPLIB_CLAIM_FAILURES"):
        claims.check(
            "gradients", 0.0, 0.0, 0.1, "fd check", evidence="numerical", span="b=1"
        )


def test_parse_lines_needs_text():
    with pytest.raises(TypeError, match="^text"):
        claims.parse_lines(None)


def record(evidence="numerical", key=None, statement="the rule constant", **kw):
    args = {"measured": 1.0, "expected": 1.0, "tol": 0.1, "claim_id": "rule"} | kw
    return claims.make_record(
        statement=statement,
        evidence=evidence,
        span=None if evidence == "exact" else "N=1",
        key=key,
        **args,
    )


def test_a_key_is_kept_in_the_record_and_the_line_is_unchanged(capsys):
    keyed, plain = record(key="rule-constant"), record()
    assert keyed["key"] == "rule-constant" and "key" not in plain
    assert claims.line(keyed) == claims.line(plain)
    claims.check("rule", 1.0, 1.0, 0.1, "c", evidence="exact", key="k-1")
    assert "k-1" not in capsys.readouterr().out


def test_find_names_checks_by_key_or_by_claim_and_words():
    checks = [
        record(key="first", statement="The Rule  constant at N = 10"),
        record(statement="the rule constant at N = 100"),
        record(claim_id="gradients", statement="the rule constant"),
    ]
    assert claims.find(checks, "first") == [checks[0]]
    assert claims.find(checks, "second") == []
    assert claims.find(checks, "rule: rule constant at") == checks[:2]
    assert claims.find(checks, " rule :  the rule CONSTANT at n = 100 ") == [checks[1]]
    assert claims.find(checks, "gradients: rule constant") == [checks[2]]
    for bad in ("Not a key", "no-such-claim: words", "rule:", "rule:  "):
        with pytest.raises(ValueError, match="reference"):
            claims.find(checks, bad)
    with pytest.raises(TypeError, match="reference"):
        claims.find(checks, None)


SIDES = ("library", "SymPy derivation")


def test_the_verdict_counts_only_the_main_statements_strong_evidence():
    exact, asym = record("exact", sides=SIDES), record("asymptotic", sides=SIDES)
    num = record("numerical", sides=SIDES)
    replay, exercise = record("replay"), record("exercise")
    failing = record("exact", measured=2.0, sides=SIDES)
    assert claims.verdict([exact, num])[0] == "reproduced"
    assert "asymptotic" in claims.verdict([asym])[1]
    assert claims.verdict([num], [exact, asym])[0] == "numerical"  # not inherited
    assert claims.verdict([replay, exercise, num])[0] == "numerical"  # never count
    assert claims.verdict([asym], missing=["k"]) == (
        "numerical",
        "no check found for k",
    )
    assert claims.verdict([], missing=["k"])[0] == "not tested"
    assert claims.verdict([exact], [failing])[0] == "fails"
    assert set(claims.STRONG) | set(claims.NOT_EVIDENCE) < set(claims.EVIDENCE)
    assert {v for v in claims.VERDICTS} == {
        "reproduced",
        "numerical",
        "not tested",
        "fails",
    }


@pytest.mark.parametrize(
    "measured, expected, tol, digits, resolved",
    [
        (1.5, 1.0, 1.0, 4, True),  # margin 0.5
        (1.0, 1.0, 0.1, 4, True),  # shown "1": margin 0.01, resolved
        (2.404113806, 2.404113806, 1.8e-12, 10, False),  # finer than its digits
        (0.9967134, 0.9967134, 6.4e-9, 7, False),
        (1.0, 1.5, 0.5, 4, True),  # at its limit, with digits to say so
        (5.0, 1.0, 1.0, 4, True),  # failing: resolved
        (1.0, 1.0, 0.0, 4, True),  # zero tolerance
        (0.6896, 0.6897, 0.00016, 4, False),  # the difference is the shown rounding
    ],
)
def test_resolves_tells_whether_the_shown_digits_measure_the_margin(
    measured, expected, tol, digits, resolved
):
    r = claims.make_record(
        "rule", measured, expected, tol, "s", evidence="exact", digits=digits
    )
    assert claims.resolves(r) is resolved
    read = claims.read_margin(r)
    assert (read is None) is not resolved
    assert read is None or read == (0.0 if tol == 0 else r["margin"])


def test_each_kind_of_evidence_has_one_definition_quoted_in_contributing():
    from pathlib import Path

    text = " ".join(
        (Path(__file__).resolve().parents[1] / "CONTRIBUTING.md").read_text().split()
    )
    assert tuple(claims.DEFINITIONS) == claims.EVIDENCE
    for kind, definition in claims.DEFINITIONS.items():
        assert f"`{kind}`: {definition}" in text


def test_sides_are_kept_in_the_record_and_must_be_two_different_strings():
    record = claims.make_record(
        "rule", 1.0, 1.0, 0.1, "x", evidence="exact", sides=("library", "SymPy")
    )
    assert record["sides"] == ["library", "SymPy"]
    assert "sides" not in claims.make_record(
        "rule", 1.0, 1.0, 0.1, "x", evidence="exact"
    )
    for bad in (("a",), ("a", "a"), ("a", ""), "ab", ("a", 1)):
        with pytest.raises(ValueError, match="sides"):
            claims.make_record("rule", 1.0, 1.0, 0.1, "x", evidence="exact", sides=bad)


def test_only_strong_evidence_with_two_declared_sides_makes_a_sentence_reproduced():
    with_sides = record("exact", sides=SIDES)
    without = record("exact")
    asym_without = record("asymptotic")
    assert claims.independent(with_sides) and not claims.independent(without)
    name, reason = claims.verdict([without, asym_without])
    assert name == "numerical"
    assert "sides" in reason and "cannot make a sentence reproduced" in reason
    # one strong check with sides among the main checks is enough
    assert claims.verdict([without, with_sides])[0] == "reproduced"
    assert "two declared sides" in claims.verdict([with_sides])[1]
    # sides on a numerical check, or on a check of the rest, never lift the verdict
    assert claims.verdict([without, record("numerical", sides=SIDES)])[0] == (
        "numerical"
    )
    assert claims.verdict([without], [with_sides])[0] == "numerical"
    # a replay with sides is still no evidence
    assert claims.verdict([record("replay", sides=SIDES)])[0] == "numerical"
    # a record edited by hand to one side twice is not independent
    assert not claims.independent(dict(with_sides, sides=["library", " library"]))
    assert not claims.independent(dict(with_sides, sides=["library"]))


BOOK = Path(__file__).resolve().parents[1] / "book"
#: The kinds of evidence whose checks must say where their two values come from.
NEEDS_SIDES = ("exact", "asymptotic", "numerical")


@pytest.mark.parametrize(
    "path", [pytest.param(p, id=p.stem) for p in sorted(BOOK.glob("*.ipynb"))]
)
def test_every_check_that_is_evidence_declares_its_two_sides(path):
    """Each exact, asymptotic or numerical check in the stored outputs says where
    its measured and its expected value come from (two different computations)."""
    stored = claims.records(nbformat.read(path, as_version=4))
    without = [
        f"{r['id']}: {r['statement'][:60]}"
        for r in stored
        if r["evidence"] in NEEDS_SIDES and not claims.independent(r)
    ]
    assert not without, f"{len(without)} checks declare no sides: {without}"
