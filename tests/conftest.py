"""Shared pytest configuration: a deterministic, deadline-free hypothesis profile.

``derandomize=True`` makes every property test draw the same examples on every run
(CI stays reproducible); ``database=None`` keeps hypothesis from writing a
``.hypothesis`` directory into the repository.
"""

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "stumplib",
    deadline=None,
    max_examples=60,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
    # no explain phase: it is slow, and it writes failure patches under .hypothesis/
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
)
settings.load_profile("stumplib")
