"""Input checks shared by every public entry point, each naming the argument it checks.

- ``TypeError``: not a real number (complex, str, None, object arrays), not a law
  (a threshold prior or feature law without the methods it must provide);
- ``ValueError``: a bad value, shape, range, size or count.

Batches: an *empty batch* (a leading axis of length 0) is valid and gives an empty
result of the batch shape, everywhere in stumplib; an *empty context* (``N = 0``
examples) is a ``ValueError``.
"""

from .arrays import (
    LARGEST_COUNT,
    batch,
    broadcastable,
    complements,
    context,
    count,
    count_rows,
    counts,
    finite,
    labels,
    non_negative,
    parameters,
    point,
    positive,
    positive_scalar,
    real,
    same_shape,
    scalar,
    scalar_parameters,
    unit_interval,
)
from .objects import (
    density_law,
    features,
    function,
    instance,
    law,
    rng,
    rules,
    sampler,
    seed,
    trajectory,
)

__all__ = [
    "LARGEST_COUNT",
    "batch",
    "broadcastable",
    "complements",
    "context",
    "count",
    "count_rows",
    "counts",
    "density_law",
    "features",
    "finite",
    "function",
    "instance",
    "labels",
    "law",
    "non_negative",
    "parameters",
    "point",
    "positive",
    "positive_scalar",
    "real",
    "rng",
    "rules",
    "same_shape",
    "sampler",
    "scalar",
    "scalar_parameters",
    "seed",
    "trajectory",
    "unit_interval",
]
