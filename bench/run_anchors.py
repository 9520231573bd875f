"""Benchmark: steps, anchors and time of a corpus-rule run against the corpus size.

For ``m = n = k`` one sparse corpus (:class:`~stumplib.sparse_corpus.SparseCorpus`) is
trained by :func:`stumplib.pretraining.train_until_noisy` from the size-tied start
(:func:`stumplib.corpus_rule.size_start`), with the corpus's
:class:`~stumplib.corpus.Follower` (the general one: the radius is what this benchmark
varies, and :class:`~stumplib.sparse_corpus.SparseFollower`'s term counts assume the
natural radius), once with each radius:

* ``capped``: the Follower's radius before issue 28,
  ``R(b) = clip(b / (cutoff + 1), 1, 4)``;
* ``natural``: the Follower as it is, without the cap, ``R(b) = max(b / (cutoff + 1), 1)``
  (the same values below ``b = 4 (cutoff + 1)``, about 190);
* ``wide``: ``R(b) = RHO max(b / (cutoff + RHO), 1)`` with ``TERMS`` raised so that the
  series' remainder stays below ``4e-18`` at ``|delta| d <= RHO``.

Only public names are used: the radius is
:func:`stumplib.corpus.expansion_radius` (which the Follower and
:func:`~stumplib.sparse_corpus.lowest_anchor` call) and the series' length
``Follower.TERMS``, both swapped for the run and restored; the corpus's
``follow`` is swapped to hand out (and keep) the Followers, whose ``anchors`` count the
anchors, and a step whose call raised that count is timed as an anchor step.

Usage: ``python bench/run_anchors.py [k ...] [--radii capped,natural,wide]`` (default
sizes ``1e3 3e3 1e4``, all three radii); prints one line per size and radius
``k=<k> <radius>: <steps> steps to b=<b>, <anchors> anchors, <s> s (<s> s in anchor
steps)`` and the largest relative difference of the frozen ``(a, b)`` from the first
radius run.
"""

import sys
import time

import numpy as np

from stumplib import corpus as corpus_module
from stumplib import corpus_rule, pretraining, tasks
from stumplib.corpus import Follower
from stumplib.sparse_corpus import SparseCorpus

PRIOR = tasks.Uniform(0.1, 0.9)
SIZES = (1_000, 3_000, 10_000)
#: ``|delta| d <= RHO`` on the windows of the ``wide`` radius, with ``TERMS_WIDE`` terms:
#: remainder ``RHO^T / T! e^{2 RHO} < 4e-18``.
RHO, TERMS_WIDE = 3.0, 32
NATURAL = corpus_module.expansion_radius


def radius(name):
    """The expansion radius ``R(b, cutoff)`` and ``TERMS`` for the radius ``name``."""
    if name == "capped":
        return lambda b, cutoff: np.clip(b / (cutoff + 1.0), 1.0, 4.0), 20
    if name == "natural":
        return NATURAL, Follower.TERMS
    return (
        lambda b, cutoff: RHO * np.maximum(b / (cutoff + RHO), 1.0),
        TERMS_WIDE,
    )


class Recorder:
    """The Followers a run makes, each step timed.

    A step that anchored is counted apart.
    """

    def __init__(self):
        self.followers, self.anchor_time = [], 0.0

    def follower(self, corpus):
        """A Follower of ``corpus`` whose per-task gradients are timed."""
        follower = Follower(corpus)
        gradients = follower.task_gradients

        def timed(a, b):
            before, start = follower.anchors, time.perf_counter()
            out = gradients(a, b)
            if follower.anchors > before:
                self.anchor_time += time.perf_counter() - start
            return out

        follower.task_gradients = timed
        self.followers.append(follower)
        return follower


def run(corpus, name, theta0, eta):
    """One corpus-rule run with radius ``name``: ``(Freeze, anchors, seconds, anchor s)``."""
    saved = (
        corpus_module.expansion_radius,
        Follower.TERMS,
        SparseCorpus.follow,
    )
    recorder = Recorder()
    corpus_module.expansion_radius, Follower.TERMS = radius(name)
    SparseCorpus.follow = lambda corpus: recorder.follower(corpus)
    try:
        start = time.perf_counter()
        frozen = pretraining.train_until_noisy(corpus, theta0, eta)
        seconds = time.perf_counter() - start
    finally:
        corpus_module.expansion_radius, Follower.TERMS = saved[:2]
        SparseCorpus.follow = saved[2]
    anchors = sum(f.anchors for f in recorder.followers)
    return frozen, anchors, seconds, recorder.anchor_time


def main(sizes=SIZES, names=("capped", "natural", "wide")):
    """Print steps, anchors and time per run for each radius and size."""
    for k in sizes:
        theta0, eta = corpus_rule.size_start(k, k, PRIOR)
        b0 = theta0[1]
        # the lowest anchor of the widest radius: b0 - RHO b0 / (cutoff + RHO)
        cutoff = corpus_module.window_cutoff(k)
        b_min = b0 - RHO * max(b0 / (cutoff + RHO), 1.0)
        corpus = SparseCorpus.sample(k, k, max(b_min, 0.5), PRIOR, seed=(28, 4, k))
        reference = None
        for name in names:
            try:
                frozen, anchors, seconds, in_anchors = run(corpus, name, theta0, eta)
            except RuntimeError as error:  # the corpus rule not reached in max_steps
                print(f"k={k} {name}: {error}", flush=True)
                continue
            end = np.array([frozen.a, frozen.b])
            reference = end if reference is None else reference
            diff = np.max(np.abs(end - reference) / np.abs(reference))
            print(
                f"k={k} {name}: {frozen.steps} steps to b={frozen.b:.1f}, {anchors} "
                f"anchors, {seconds:.1f} s ({in_anchors:.1f} s in anchor steps); "
                f"frozen (a, b) relative difference from {names[0]} {diff:.1e}",
                flush=True,
            )


if __name__ == "__main__":
    args = sys.argv[1:]
    names = ("capped", "natural", "wide")
    if "--radii" in args:
        at = args.index("--radii")
        names, args = tuple(args[at + 1].split(",")), args[:at] + args[at + 2 :]
    main(tuple(int(float(v)) for v in args) or SIZES, names)
