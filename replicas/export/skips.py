"""Counting what an export left out, and why — never a silently smaller dataset.

Every stage that drops something records a machine-readable reason; the counts go to the CLI's
summary, ``manifest.json`` and the dataset card, with a few examples per reason so a reader can
find the offending task or line.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

_EXAMPLES_PER_REASON = 5


@dataclass
class SkipLog:
    """Reason -> count, plus the first few examples of each (``"task id: detail"``)."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, reason: str, example: str = "", n: int = 1) -> None:
        if n <= 0:
            return
        self.counts[reason] += n
        if example:
            shown = self.examples.setdefault(reason, [])
            if len(shown) < _EXAMPLES_PER_REASON:
                shown.append(example[:300])

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> dict[str, dict[str, object]]:
        return {
            reason: {"count": count, "examples": list(self.examples.get(reason, []))}
            for reason, count in sorted(self.counts.items())
        }

    def summary(self) -> str:
        return ", ".join(f"{reason} {count}" for reason, count in sorted(self.counts.items()))
