"""Chapter 6's committed frozen runs as typed records, and their summaries.

Three data files of :data:`stumplib.book.full_data.DATA`: ``frozen-headline.json``
(``make headline``: the certified ladder at the level declared before its runs, corpora
with ``m = n``), ``frozen-rate-certified.json`` (``make full-corpus``: the same at level
1/2, the certificate's edge) and ``frozen-levels.json`` (``make frozen-levels``: other
levels at a certified step, and infinite-context corpora). :func:`headline_runs`,
:func:`certified_runs` and :func:`level_runs` read them into :class:`Run` records;
:func:`by_level` and :func:`law_rows` summarize them for the chapter's tables.
"""

from typing import NamedTuple

import numpy as np

from . import full_data

HEADLINE = full_data.DATA / "frozen-headline.json"
CERTIFIED = full_data.DATA / "frozen-rate-certified.json"
LEVELS = full_data.DATA / "frozen-levels.json"


class Run(NamedTuple):
    r"""One frozen run of a data file.

    Parameters
    ----------
    kind : str
        ``"certified"`` (a corpus with ``m = n`` at a certified constant step) or
        ``"infinite"`` (an infinite-context corpus of ``m`` tasks, gradient flow).
    level : float
        The corpus rule's level.
    k : int
        ``m = n`` (certified) or ``m`` (infinite).
    corpus : int
        The corpus's index at its size.
    divisor : float
        The start's divisor (2 for the half starts of the certified file, else 1).
    a, b : float
        The frozen parameters.
    error : float
        Infinite-context RMS error over ``s = 0.3, 0.5, 0.7``.
    rho_max, b_cert : float
        Largest relative gradient error along the run, and the end of its certified
        interval (``b`` if the run never left it).
    q_max : float
        Largest :math:`q=\eta\lambda_{\max}` along the run (``nan`` for the flow).
    predicted_b : float
        The frozen scale of :func:`stumplib.infinite_corpus.predicted_freeze` (``nan``
        for certified runs).
    """

    kind: str
    level: float
    k: int
    corpus: int
    divisor: float
    a: float
    b: float
    error: float
    rho_max: float
    b_cert: float
    q_max: float
    predicted_b: float

    @property
    def inside(self):
        """Inside the certificate all along the run.

        ``rho <= 1/2`` and ``q <= 2/9`` at every checked iterate (``q`` is not checked
        for the flow of infinite contexts).
        """
        return self.rho_max <= 0.5 and not self.q_max > 2 / 9


class Data(NamedTuple):
    """A data file's runs and provenance.

    Parameters
    ----------
    runs : tuple of Run
    commit, date : str
        The commit and date of its last run.
    """

    runs: tuple
    commit: str
    date: str


def headline_runs(path=HEADLINE):
    """The runs of ``make headline`` (the declared level, ``m = n``), as :class:`Data`.

    Examples
    --------
    >>> data = headline_runs()
    >>> {r.level for r in data.runs}
    {0.25}
    """
    return certified_runs(path)


def headline_declaration(path=HEADLINE):
    """What ``make headline`` declared before its first run: level, sizes, checks.

    Examples
    --------
    >>> declared = headline_declaration()
    >>> declared["level"], declared["sizes"][-1]
    (0.25, 100000)
    """
    return full_data.load(path)["declared"]


def certified_runs(path=CERTIFIED):
    """The runs of a certified ladder (``m = n``), as :class:`Data`.

    By default ``make full-corpus``'s (level 1/2). A run's ``divisor`` is relative to
    its ladder's own start (the file's ``divisor``, 1 if it has none), so that the runs
    from the ladder's start have divisor 1 in every file.
    """
    data = full_data.load(path)
    standard = float(data.get("divisor", 1.0))
    runs = tuple(
        Run(
            "certified",
            float(data["level"]),
            int(r["k"]),
            int(r["corpus"]),
            float(r["divisor"]) / standard,
            r["a"],
            r["b"],
            r["error"],
            r["rho_max"],
            r["b_cert"],
            r["q_max"],
            float("nan"),
        )
        for r in data["runs"]
    )
    return Data(runs, data["commit"], data["date"])


def level_runs(path=LEVELS):
    """The runs of ``make frozen-levels``, as :class:`Data`."""
    data = full_data.load(path)
    runs = tuple(
        Run(
            r["kind"],
            float(r["level"]),
            int(r["k"]),
            int(r["corpus"]),
            1.0,
            r["a"],
            r["b"],
            r["error"],
            r["rho_max"],
            r["b_cert"],
            r.get("q_max", float("nan")),
            r.get("predicted_b", float("nan")),
        )
        for r in data["runs"]
    )
    return Data(runs, data["commit"], data["date"])


class LevelRow(NamedTuple):
    """The runs of one kind at one level.

    Parameters
    ----------
    kind : str
    level : float
    sizes : tuple of int
        The sizes ``k`` measured.
    corpora : int
    share_inside : float
        Share frozen inside their certified interval.
    error_k : float
        Mean of ``error * k``.
    error_k_se : float
        Its standard error (between corpora).
    error_k_max : float
        The largest ``error * k``: an estimate of its ``corpora / (corpora + 1)``
        quantile, not a constant.
    """

    kind: str
    level: float
    sizes: tuple
    corpora: int
    share_inside: float
    error_k: float
    error_k_se: float
    error_k_max: float


def by_level(runs, kind, sizes=None):
    """One :class:`LevelRow` per level (largest first) of the runs of a ``kind``.

    Only the runs from the size-tied start (``divisor == 1``), and with ``sizes`` only
    those sizes.
    """
    chosen = [
        r
        for r in runs
        if r.kind == kind and r.divisor == 1.0 and (sizes is None or r.k in sizes)
    ]
    rows = []
    for level in sorted({r.level for r in chosen}, reverse=True):
        at = [r for r in chosen if r.level == level]
        scaled = np.array([r.error * r.k for r in at])
        rows.append(
            LevelRow(
                kind,
                level,
                tuple(sorted({r.k for r in at})),
                len(at),
                float(np.mean([r.inside for r in at])),
                float(scaled.mean()),
                float(scaled.std(ddof=1) / np.sqrt(len(at))) if len(at) > 1 else np.nan,
                float(scaled.max()),
            )
        )
    return rows


class LawRow(NamedTuple):
    r"""The frozen scale at one size against its prediction (infinite contexts).

    Parameters
    ----------
    m : int
    corpora : int
    ratio : float
        ``b_T / m``, geometric mean over corpora.
    predicted : float
        ``b_T / m`` of :func:`stumplib.infinite_corpus.predicted_freeze`.
    gap : float
        Mean of :math:`\log(b_T / b_{\mathrm{pred}})` over corpora,
        :math:`b_{\mathrm{pred}}` the predicted scale.
    gap_se : float
        Its standard error: the spread between corpora, pooled over the sizes, over the
        square root of the number of corpora.
    """

    m: int
    corpora: int
    ratio: float
    predicted: float
    gap: float
    gap_se: float


def law_rows(runs, level=0.5):
    """One :class:`LawRow` per size of the infinite-context runs at ``level``.

    The standard error of each size's mean gap is the spread of ``log(b_T / predicted)``
    pooled over the sizes (within-size deviations, one degree of freedom lost per size)
    over the root of the size's corpora: the rule's statistic at the freeze is carried
    by the few dozen tasks of the layer at every ``m``, so the spread does not depend on
    ``m``, and a size with few corpora does not get a spread of its own from them.
    """
    chosen = [r for r in runs if r.kind == "infinite" and r.level == level]
    groups = {}
    for r in chosen:
        groups.setdefault(r.k, []).append(r)
    logs = {m: np.log([r.b / r.predicted_b for r in at]) for m, at in groups.items()}
    squares = sum(float(np.sum((v - v.mean()) ** 2)) for v in logs.values())
    spread = np.sqrt(squares / (len(chosen) - len(groups)))
    rows = []
    for m in sorted(groups):
        at = groups[m]
        rows.append(
            LawRow(
                m,
                len(at),
                float(np.exp(np.mean(np.log([r.b / m for r in at])))),
                float(at[0].predicted_b / m),
                float(logs[m].mean()),
                float(spread / np.sqrt(len(at))),
            )
        )
    return rows
