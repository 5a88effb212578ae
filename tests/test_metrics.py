"""Metrics against hand-checkable cases and brute-force enumeration."""

from __future__ import annotations

import itertools
import math

import pytest

from replicas.metrics import (
    Z_95,
    Rate,
    mean_pass_at_k,
    mean_pass_hat_k,
    pass_at_k,
    pass_hat_k,
    wilson_interval,
)


def _wilson_by_bisection(successes: int, n: int, z: float) -> tuple[float, float]:
    """The Wilson bounds are the p where |p̂ - p| = z·sqrt(p(1-p)/n); solve each side numerically."""
    p_hat = successes / n

    def gap(p: float) -> float:
        return abs(p_hat - p) - z * math.sqrt(p * (1 - p) / n)

    def root(lo: float, hi: float) -> float:
        for _ in range(200):
            mid = (lo + hi) / 2
            if (gap(lo) > 0) == (gap(mid) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    low = 0.0 if successes == 0 else root(0.0, p_hat)
    high = 1.0 if successes == n else root(1.0, p_hat)
    return low, high


@pytest.mark.parametrize("n", [1, 5, 10, 100])
def test_wilson_at_zero_and_all_successes_matches_the_closed_form(n: int) -> None:
    z2 = Z_95**2
    low, high = wilson_interval(0, n)
    assert low == 0.0
    assert high == pytest.approx(z2 / (n + z2), rel=1e-12)
    low, high = wilson_interval(n, n)
    assert high == 1.0
    assert low == pytest.approx(n / (n + z2), rel=1e-12)


@pytest.mark.parametrize(("successes", "n"), [(1, 2), (3, 10), (7, 10), (50, 100), (1, 40)])
def test_wilson_matches_numeric_inversion_of_the_score_test(successes: int, n: int) -> None:
    low, high = wilson_interval(successes, n)
    want_low, want_high = _wilson_by_bisection(successes, n, Z_95)
    assert low == pytest.approx(want_low, abs=1e-9)
    assert high == pytest.approx(want_high, abs=1e-9)
    assert low < successes / n < high


def test_wilson_interval_shrinks_with_more_trials_and_covers_the_whole_range_with_none() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low_10, high_10 = wilson_interval(5, 10)
    low_1000, high_1000 = wilson_interval(500, 1000)
    assert high_1000 - low_1000 < high_10 - low_10


@pytest.mark.parametrize(("successes", "n"), [(-1, 3), (4, 3), (1, -1)])
def test_wilson_rejects_impossible_counts(successes: int, n: int) -> None:
    with pytest.raises(ValueError):
        wilson_interval(successes, n)


def _enumerate(n: int, c: int, k: int) -> tuple[float, float]:
    """Fraction of k-subsets of n attempts (c passing) with any pass / with all passing."""
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(outcomes, k))
    any_pass = sum(any(s) for s in subsets) / len(subsets)
    all_pass = sum(all(s) for s in subsets) / len(subsets)
    return any_pass, all_pass


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_pass_at_k_and_pass_hat_k_equal_brute_force_enumeration(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            want_any, want_all = _enumerate(n, c, k)
            assert pass_at_k(n, c, k) == pytest.approx(want_any, abs=1e-12), (n, c, k)
            assert pass_hat_k(n, c, k) == pytest.approx(want_all, abs=1e-12), (n, c, k)


def test_pass_k_at_one_is_the_success_rate_and_pass_hat_k_falls_with_k() -> None:
    assert pass_at_k(4, 1, 1) == pass_hat_k(4, 1, 1) == 0.25
    values = [pass_hat_k(6, 4, k) for k in range(1, 7)]
    assert values == sorted(values, reverse=True)
    assert values[-1] == 0.0


def test_suite_means_average_per_task_estimates() -> None:
    per_task = [(3, 3), (3, 1), (3, 0)]
    want_hat_2 = sum(_enumerate(n, c, 2)[1] for n, c in per_task) / 3
    want_at_2 = sum(_enumerate(n, c, 2)[0] for n, c in per_task) / 3
    assert mean_pass_hat_k(per_task, 2) == pytest.approx(want_hat_2)
    assert mean_pass_at_k(per_task, 2) == pytest.approx(want_at_2)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 1, 0), (3, 1, 4), (2, 3, 1), (3, 1, True)])
def test_pass_k_rejects_bad_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)
    with pytest.raises(ValueError):
        pass_hat_k(n, c, k)


def test_mean_over_no_tasks_is_an_error() -> None:
    with pytest.raises(ValueError):
        mean_pass_hat_k([], 1)


def test_rate_serialises_its_interval() -> None:
    rate = Rate(3, 10).to_dict()
    assert rate["rate"] == 0.3
    assert (rate["ci95_low"], rate["ci95_high"]) == wilson_interval(3, 10)
    with pytest.raises(ValueError):
        Rate(11, 10)
