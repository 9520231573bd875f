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
        True thresholds.
    """

    def __init__(self, x, y, s):
        self.contexts = head.Contexts(x, y)
        self.s = validation.unit_interval(s, "s")
        if self.s.shape != self.contexts.batch_shape:
            raise ValueError(f"s must have shape {self.contexts.batch_shape} (got {self.s.shape})")

    @classmethod
    def sample(cls, m, n, prior=tasks.Uniform(0.1, 0.9), features=tasks.Uniform(), rng=None):
        """Draw a corpus of ``m`` tasks with ``n`` examples.

        See :func:`stumplib.tasks.sample_contexts`.
        """
        return cls(*tasks.sample_contexts(m, n, prior, features, rng))

    @property
    def shape(self):
        """``(m, n)``."""
        return self.contexts.x.shape

    def estimates(self, a, b):
        """The head's estimate on each task, shape ``(m,)``."""
        return self.contexts.summaries(a, b)[0]

    def loss_and_gradient(self, a, b):
        """Empirical loss and its gradient ``(L, dL/da, dL/db)``."""
        est, d_a, d_b = self.contexts.summaries(a, b)
        r = est - self.s
        return float(np.mean(r**2)), float(2 * np.mean(r * d_a)), float(2 * np.mean(r * d_b))

    def loss(self, a, b):
        """Empirical loss ``L_{m,n}(a, b)``."""
        return self.loss_and_gradient(a, b)[0]

    def gradient(self, a, b):
        """Empirical gradient ``(dL/da, dL/db)``."""
        return self.loss_and_gradient(a, b)[1:]
