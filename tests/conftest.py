"""Shared pytest configuration: a deterministic, deadline-free hypothesis profile.

Tests that take more than a second or two are marked ``slow`` here (the modules of
SymPy derivations, Sphinx builds and process pools whole, and the single tests listed,
measured with ``pytest --durations``), so that ``make quick`` (``-m "not slow"``) stays
an edit loop of seconds; ``make unit`` runs them all.

``derandomize=True`` makes every property test draw the same examples on every run
(CI stays reproducible); ``database=None`` keeps hypothesis from writing a
``.hypothesis`` directory into the repository.
"""

import pytest
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


#: Whole modules of slow tests (SymPy derivations, book builds, the full-corpus tool).
SLOW_MODULES = (
    "tests/test_symbolic_",
    "tests/test_book_extensions.py",
    "tests/test_full_corpus_tool.py",
)
#: Single slow tests and doctests (every parametrization of each).
SLOW_TESTS = {
    "stumplib/book/argument.py::stumplib.book.argument.argument_figure",
    "stumplib/symbolic/sampling.py::stumplib.symbolic.sampling.layer_correction",
    "tests/test_bad_inputs.py::test_bad_counts_are_value_errors_naming_the_argument",
    "tests/test_bad_inputs.py::test_complex_is_never_truncated",
    "tests/test_corpus_playground.py::test_the_browsers_code_is_stumplibs_run",
    "tests/test_corpus_playground.py::test_expected_values_are_rounded_stumplib_runs",
    "tests/test_bad_inputs.py::test_not_a_law_is_a_type_error_naming_the_argument",
    "tests/test_bad_inputs.py::test_not_a_real_number_is_a_type_error_naming_the_argument",
    "tests/test_bad_inputs.py::test_the_valid_call_runs",
    "tests/test_book_argument.py::test_the_figure_has_six_numbered_readable_panels",
    "tests/test_book_boundary.py::test_figures_are_column_figures_with_labelled_axes",
    "tests/test_calibration.py::test_a_star_with_beta_features_minimizes_the_loss",
    "tests/test_calibration.py::test_property_off_valley_inefficiency_is_nonnegative",
    "tests/test_calibration.py::test_property_offset_shifts_with_a",
    "tests/test_certification.py::test_noise_ratio_estimates_the_sampling_part",
    "tests/test_certification.py::test_sampling_coefficient_matches_monte_carlo",
    "tests/test_certification.py::test_squared_error_law_matches_monte_carlo",
    "tests/test_certified_run.py::test_b_cert_is_the_first_failing_record",
    "tests/test_certified_run.py::test_end_of_size_draws_its_corpora_from_the_seed",
    "tests/test_certified_run.py::test_records_start_every_growth_and_last",
    "tests/test_corpus.py::test_engine_matches_dense_property",
    "tests/test_corpus.py::test_follower_matches_dense_property",
    "tests/test_corpus.py::test_follower_matches_the_dense_evaluation_along_a_run",
    "tests/test_corpus.py::test_follower_one_point_per_task_and_scales_not_positive",
    "tests/test_dynamics.py::test_aligned_points_lie_on_the_slow_curve_with_the_derived_lag_and_rate",
    "tests/test_dynamics.py::test_rate_finite_difference_of_flow",
    "tests/test_extremes.py::test_density_features_issue_cases",
    "tests/test_extremes.py::test_density_features_match_quad",
    "tests/test_extremes.py::test_loss_at_infinity_matches_mpmath",
    "tests/test_extremes.py::test_symmetrized_heads_match_mpmath",
    "tests/test_fitting.py::test_pooled_standard_error_matches_monte_carlo_scatter",
    "tests/test_fitting.py::test_weighted_standard_errors_match_monte_carlo_scatter",
    "tests/test_frozen.py::test_nearest_positive_rate_matches_exact_risk",
    "tests/test_head.py::TestLimitRatio::test_within_the_bound_at_every_scale",
    "tests/test_head.py::test_batch_consistency",
    "tests/test_head.py::test_estimate_within_feature_range",
    "tests/test_head.py::test_gradient_is_covariance_and_variance",
    "tests/test_head.py::test_mirror_equivariance",
    "tests/test_head.py::test_monotone_in_parameters_for_threshold_labels",
    "tests/test_head.py::test_permutation_invariance",
    "tests/test_head.py::test_translation",
    "tests/test_infinite_corpus.py::test_the_prediction_is_its_own_fixed_point_and_tends_to_the_slow_layer",
    "tests/test_population.py::test_estimate_matches_defining_ratio",
    "tests/test_population.py::test_extreme_scales_finite_without_warnings",
    "tests/test_population.py::test_loss_matches_careful_quadrature",
    "tests/test_population.py::test_loss_with_singular_beta_features_matches_quad",
    "tests/test_posthoc.py::test_limits_reference_values",
    "tests/test_posthoc.py::test_slow_curve_approaches_the_limit",
    "tests/test_pretraining.py::test_a_certified_run_keeps_q_below_two_ninths_between_its_checks",
    "tests/test_pretraining.py::test_a_certified_run_resumes_bit_identically_from_any_state",
    "tests/test_pretraining.py::test_pretrain_structured_streams_and_calibration",
    "tests/test_rank_test.py::test_exact_and_normal_p_values_agree_better_as_samples_grow",
    "tests/test_shapes.py::test_freeze_shapes_do_not_depend_on_workers",
    "tests/test_sparse_corpus.py::test_a_run_equals_the_run_on_its_completion",
    "tests/test_sparse_corpus.py::test_a_run_from_above_the_lowest_anchor_draws_nothing_more",
    "tests/test_sparse_corpus.py::test_class_counts_are_binomial",
    "tests/test_sparse_corpus.py::test_head_error_has_the_law_of_the_dense_sampler",
    "tests/test_sparse_corpus.py::test_order_statistics_have_their_beta_law",
    "tests/test_sweep.py::test_dask_local_cluster_is_identical_to_serial",
    "tests/test_sweep.py::test_run_dispatches_the_costliest_first_and_keeps_the_order",
    "tests/test_sweep.py::test_run_keeps_the_order",
    "tests/test_symmetrization.py::test_estimates_lie_in_the_feature_range",
    "tests/test_symmetrization.py::test_mirrored_head_on_the_mirrored_context_is_the_reflected_head",
    "tests/test_symmetrization.py::test_symmetrized_models_are_mirror_equivariant",
    "tests/test_tasks.py::TestMirror::test_involution_and_values",
    "tests/test_training.py::test_gradient_flow_agrees_with_small_step_descent",
    "tests/test_training.py::test_gradient_flow_is_monotone_in_loss_and_grows_b",
}


def pytest_collection_modifyitems(config, items):
    """Mark the slow modules and tests ``slow``."""
    for item in items:
        path, _, name = item.nodeid.partition("::")
        if (
            path.startswith(SLOW_MODULES)
            or f"{path}::{name.split('[')[0]}" in SLOW_TESTS
        ):
            item.add_marker(pytest.mark.slow)
