"""Success statistics for runs: Wilson intervals, pass@k and pass^k.

Pure functions over counts, so the report, the compare view and any user notebook agree on the
numbers. pass@k and pass^k follow the estimators used by Codex/HumanEval and τ-bench: with ``n``
recorded attempts of which ``c`` passed, the unbiased estimate of "at least one of k i.i.d.
attempts passes" is ``1 - C(n-c, k) / C(n, k)`` and of "all k attempts pass" is
``C(c, k) / C(n, k)``; a suite's value is the mean over tasks. pass^k is the number that matters
for agents deployed without retries: it falls with k when an agent is inconsistent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: two-sided 95 % standard-normal quantile
Z_95 = 1.959963984540054


def _check_counts(n: int, c: int) -> None:
    if (
        isinstance(n, bool)
        or isinstance(c, bool)
        or not isinstance(n, int)
        or not isinstance(c, int)
    ):
        raise ValueError(f"counts must be integers, got n={n!r} c={c!r}")
    if n < 0 or c < 0 or c > n:
        raise ValueError(f"need 0 <= successes <= trials, got successes={c} trials={n}")


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion.

    Chosen over the normal approximation because it stays inside [0, 1] and is not degenerate at
    0/n or n/n, which are the common cases for oracle, null and adversary runs. With no trials
    nothing is known, so the interval is the whole of [0, 1].
    """
    _check_counts(trials, successes)
    if not (math.isfinite(z) and z > 0):
        raise ValueError(f"z must be a positive finite number, got {z!r}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = (z / denom) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def _check_k(n: int, k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}")
    if k > n:
        raise ValueError(f"k={k} exceeds the number of attempts n={n}")


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of ``k`` attempts drawn without replacement from ``n`` passes."""
    _check_counts(n, c)
    _check_k(n, k)
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that all ``k`` attempts drawn without replacement from ``n`` pass (τ-bench pass^k)."""
    _check_counts(n, c)
    _check_k(n, k)
    return math.comb(c, k) / math.comb(n, k)


def _mean_over_tasks(per_task: Iterable[tuple[int, int]], k: int, estimator: str) -> float:
    fn = pass_at_k if estimator == "pass_at_k" else pass_hat_k
    values = [fn(n, c, k) for n, c in per_task]
    if not values:
        raise ValueError("no tasks to average over")
    return sum(values) / len(values)


def mean_pass_at_k(per_task: Iterable[tuple[int, int]], k: int) -> float:
    """Suite pass@k: mean of per-task estimates; ``per_task`` yields ``(attempts, passes)``."""
    return _mean_over_tasks(per_task, k, "pass_at_k")


def mean_pass_hat_k(per_task: Iterable[tuple[int, int]], k: int) -> float:
    """Suite pass^k: mean of per-task estimates; ``per_task`` yields ``(attempts, passes)``."""
    return _mean_over_tasks(per_task, k, "pass_hat_k")


@dataclass(frozen=True)
class Rate:
    """A success proportion with its 95 % Wilson interval, ready to print or serialise."""

    successes: int
    trials: int

    def __post_init__(self) -> None:
        _check_counts(self.trials, self.successes)

    @property
    def value(self) -> float:
        """Observed rate; 0.0 when there were no trials (the interval says it is unknown)."""
        return self.successes / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.successes, self.trials)

    def to_dict(self) -> dict[str, float | int]:
        low, high = self.interval
        return {
            "passed": self.successes,
            "episodes": self.trials,
            "rate": self.value,
            "ci95_low": low,
            "ci95_high": high,
        }
