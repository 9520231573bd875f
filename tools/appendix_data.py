"""Data of the past-freeze and shapes appendices (make past-far-data, make shapes-data).

``python tools/appendix_data.py shapes`` freezes corpora of unequal shapes at a
certified step (:func:`stumplib.shapes.freeze_shapes`), one ``m ∧ n`` after another
(:data:`SHAPE_SIZES`), and appends each size to ``stumplib/book/data/shapes.json`` as
it ends (a size the file holds is skipped, so a cut run resumes);
``python tools/appendix_data.py past`` runs small corpora at the certified constant
step far past the freeze (:func:`stumplib.past_freeze.run_far`) and writes
``stumplib/book/data/past-far.json``; ``python tools/appendix_data.py plain [size]``
continues those runs by plain gradient descent at a larger, uncertified constant step
(:func:`stumplib.past_freeze.plain_descent`, :data:`PLAIN_RUNS`) from their last
iterate, and adds them to that file under ``plain`` (one entry a size, each with its
own command, commit and date; a size the file holds is skipped).
``python tools/appendix_data.py starts`` freezes chapter 6's first corpora of
:data:`START_SIZE` by the corpus rule at a certified step from each start of
:data:`STARTS` (:func:`stumplib.starts.freeze_from`) and writes
``stumplib/book/data/starts.json``.
Each file carries its command, the commit it ran from and the date; the pages read
them with :func:`stumplib.book.full_data.load` and replay a subset live.
"""

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from full_corpus import commit  # noqa: E402

from stumplib import (  # noqa: E402
    calibration,
    corpus_rule,
    past_freeze,
    pretraining,
    shapes,
    starts,
    tasks,
)
from stumplib.book import full_data  # noqa: E402

PRIOR = tasks.Uniform(0.1, 0.9)
#: The shapes grid: m / n from 1/8 to 8 at each m ∧ n.
SHAPE_RATIOS = (1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8)
#: (m ∧ n, ratios m / n, corpora a shape, seed). At m ∧ n = 512 only m / n = 1/4 to
#: 2: one corpus of 4096 x 512 (m / n = 8) takes 8 minutes on one free core.
SHAPE_SIZES = (
    (128, SHAPE_RATIOS, 4, (6, 20)),
    (64, SHAPE_RATIOS, 4, (6, 20, 64)),
    (256, SHAPE_RATIOS, 4, (6, 20, 256)),
    (512, SHAPE_RATIOS[1:5], 4, (6, 20, 512)),
)
#: Past the freeze: m = n in PAST_SIZES, PAST_CORPORA each, PAST_STEPS steps.
PAST_SIZES = ((32, 32), (64, 64))
PAST_CORPORA = 8
PAST_STEPS = 100_000
#: Plain descent past the stored runs: (size index, constant step, steps, corpora, the
#: first of the size's; 4 at m = n = 64, where a corpus takes minutes on a loaded
#: machine). Uncertified:
#: q = eta lambda_max is far above 2/9 at the start for some corpora. At m = n = 64 a
#: step 16000 (tried first) stopped one corpus of 8 (its loss rose above twice its
#: start's); 8000 is used.
PLAIN_RUNS = ((0, 4000.0, 150_000, 8), (1, 8000.0, 150_000, 4))

#: Appendix G: (m = n, index in chapter 6's ladder, corpora, chapter 6's seed).
START_SIZE = (560, 1, 3, (6, 2))
#: Starts, by label: (shift of a from the valley, divisor of the size-tied b_0), or
#: an absolute (a, b) for the small initialization.
STARTS = {
    "valley, b_0": (0.0, 1.0),
    "valley, b_0/2": (0.0, 2.0),
    "3 above, b_0": (3.0, 1.0),
    "3 below, b_0": (-3.0, 1.0),
    "small, (0, 2)": None,
}


def provenance(target):
    """The command, commit and date of a data file written by make ``target``."""
    return {
        "command": f"make {target}",
        "commit": commit(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def lists(named_tuple):
    """A NamedTuple of arrays as a dict of (nested) lists."""
    return {
        name: np.asarray(value).tolist()
        for name, value in named_tuple._asdict().items()
    }


def shapes_data():
    """Append each size of :data:`SHAPE_SIZES` that ``shapes.json`` lacks."""
    path = full_data.DATA / "shapes.json"
    data = full_data.load(path) if path.exists() else {"sizes": []}
    done = {size["k"] for size in data["sizes"]}
    for k, ratios, corpora, seed in SHAPE_SIZES:
        if k in done:
            continue
        out = shapes.freeze_shapes(k, ratios, PRIOR, corpora, seed)
        size = dict(provenance("shapes-data"), k=k, seed=list(seed), **lists(out))
        data["sizes"].append(size)
        data.update({key: size[key] for key in full_data.PROVENANCE})
        full_data.save(path, data)
        print(f"m ∧ n = {k}: {len(ratios)} shapes x {corpora} corpora", flush=True)


def past_data():
    """Write ``past-far.json``."""
    runs = past_freeze.run_far(PAST_SIZES, PRIOR, PAST_CORPORA, (6, 21), PAST_STEPS)
    data = dict(
        provenance("past-far-data"), seed=[6, 21], runs=[lists(run) for run in runs]
    )
    full_data.save(full_data.DATA / "past-far.json", data)


def plain_data(only=None):
    """Add the plain descents of :data:`PLAIN_RUNS` (or size ``only``) to past-far."""
    path = full_data.DATA / "past-far.json"
    for index, eta, steps, corpora in PLAIN_RUNS:
        data = full_data.load(path)  # re-read: another size may have been added
        done = {entry["index"] for entry in data.get("plain", [])}
        if index in done or (only is not None and index != only):
            continue
        run = data["runs"][index]
        ends = np.column_stack([np.array(run["a"])[:, -1], np.array(run["b"])[:, -1]])
        seed = tuple(data["seed"])
        out = past_freeze.plain_descent(
            tuple(run["shape"]), PRIOR, seed, index, ends[:corpora], eta, steps
        )
        entry = dict(
            provenance("past-far-data"),
            command=f"python tools/appendix_data.py plain {index}",
            index=index,
            **lists(out),
        )
        data = full_data.load(path)
        data["plain"] = sorted(
            [*data.get("plain", []), entry], key=lambda e: e["index"]
        )
        full_data.save(path, data)
        print(f"plain descent, size {index}: {corpora} corpora", flush=True)


def starts_data():
    """Write ``starts.json``: every start of :data:`STARTS` on each corpus."""
    k, index, corpora, seed = START_SIZE
    (_, b0), _ = corpus_rule.size_start(k, k, PRIOR)
    runs = []
    for r in range(corpora):
        corpus = starts.rule_corpus(k, k, PRIOR, pretraining.stream(seed, index, r))
        for label, how in STARTS.items():
            if how is None:
                theta0 = (0.0, 2.0)
            else:
                b = b0 / how[1]
                theta0 = (float(calibration.a_star(b, PRIOR)) + how[0], b)
            run = starts.freeze_from(corpus, PRIOR, theta0)
            runs.append(
                dict(corpus=r, start=label, theta0=list(theta0), **run._asdict())
            )
            print(
                f"corpus {r}, {label}: b_T {run.b:.3f}, {run.steps} steps", flush=True
            )
    data = dict(
        provenance("starts-data"),
        command="python tools/appendix_data.py starts",
        k=k, index=index, seed=list(seed), b0=b0, runs=runs,
    )  # fmt: skip
    full_data.save(full_data.DATA / "starts.json", data)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("shapes", "past", "plain", "starts"))
    parser.add_argument("size", nargs="?", type=int, default=None)
    args = parser.parse_args()
    if args.what == "plain":
        plain_data(args.size)
    else:
        {"shapes": shapes_data, "past": past_data, "starts": starts_data}[args.what]()
