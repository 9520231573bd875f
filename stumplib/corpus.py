"""A fixed pretraining corpus: ``m`` tasks with ``n`` labelled examples each.

The empirical loss is ``L_{m,n}(a, b) = (1/m) sum_j (s_hat(C_j) - s_j)^2``; its
gradient is ``(2/m) sum_j (s_hat_j - s_j) (Cov_w(x, y), -Var_w(x))_j``.
"""

import numpy as np

from . import head, tasks, validation


class Corpus:
    """Labelled contexts with their true thresholds, ready for gradient descent.

    Parameters
    ----------
    x, y : array_like, shape (m, n)
        Features and labels of each task.
    s : array_like, shape (m,)
        True thresholds; the labels must be ``y = 1{x > s}``.
    """

    def __init__(self, x, y, s):
        x, y = validation.context(x, y)
        if x.ndim != 2:
            raise ValueError(f"x must have shape (m, n) (got {x.shape})")
        self.s = validation.unit_interval(s, "s")
        if self.s.shape != x.shape[:1]:
            raise ValueError(f"s must have shape {x.shape[:1]} (got {self.s.shape})")
        wrong = np.flatnonzero(np.any(y != (x > self.s[:, None]), axis=-1))
        if wrong.size:
            raise ValueError(f"y must be 1{{x > s}} in every task (task {wrong[0]} differs)")
        self.contexts = head.Contexts(x, y)

    @classmethod
    def sample(cls, m, n, prior=tasks.Uniform(0.1, 0.9), features=tasks.Uniform(), rng=None):
        """Draw a corpus of ``m`` tasks with ``n`` examples (see :func:`stumplib.tasks.sample_contexts`)."""
        return cls(*tasks.sample_contexts(m, n, prior, features, rng))

    @property
    def shape(self):
        """``(m, n)``."""
        return self.contexts.x.shape

    def estimates(self, a, b):
        """The head's estimate on each task, shape ``(m,)``."""
        return self.contexts.summaries(a, b)[0]

    def loss_and_gradient(self, a, b):
        """Empirical loss and its gradient ``(L, dL/da, dL/db)`` at one point ``(a, b)``."""
        est, d_a, d_b = self.contexts.summaries(*validation.scalar_parameters(a, b))
        r = est - self.s
        return float(np.mean(r**2)), float(2 * np.mean(r * d_a)), float(2 * np.mean(r * d_b))

    def loss(self, a, b):
        """Empirical loss ``L_{m,n}(a, b)``."""
        return self.loss_and_gradient(a, b)[0]

    def gradient(self, a, b):
        """Empirical gradient ``(dL/da, dL/db)``."""
        return self.loss_and_gradient(a, b)[1:]
