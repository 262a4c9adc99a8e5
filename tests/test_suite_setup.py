"""The suite's own set-up: what keeps it honest and steady on a loaded machine (issue 19, the suite)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings


def test_property_tests_have_no_wall_clock_deadline() -> None:
    """Hypothesis' 200 ms deadline failed a property test under load: the suite's profile turns it off for all,
    also for a test with its own @settings."""
    import test_statediff

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    own = test_statediff.test_applying_the_diff_gives_the_second_value_and_leaves_the_first_alone
    assert own._hypothesis_internal_use_settings.deadline is None  # type: ignore[attr-defined]
    assert own._hypothesis_internal_use_settings.max_examples == 400  # type: ignore[attr-defined]
