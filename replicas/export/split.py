"""Deterministic group split: train/test by a hash of each record's group key.

Records of one group (one family, one seed, or one task) always land in the same split, so no
group straddles train and test — with ``--split-by seed`` the test split is a set of held-out
seeds. A group goes to test when ``sha256("replicas-export-split-v1:<key>")`` mapped to [0, 1)
falls below ``eval_fraction``: a group's split depends only on its own key, so adding seeds or
families later never moves an existing group.

With few groups the hash may put none (or all) of them in test; then the lowest-hash group is
moved to test (or the highest-hash one back to train) so both splits exist whenever there are
at least two groups. That adjustment is reported, never silent. A test split asked for
(``eval_fraction > 0``) over a single group is a ``ValueError`` naming the ways out: an export
never comes back without the test split it was asked for.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from replicas.export.conversation import Conversation

SPLIT_SALT = "replicas-export-split-v1"
TRAIN, TEST = "train", "test"

GROUP_KEYS: dict[str, Callable[[Conversation], str]] = {
    "family": lambda c: c.family,
    "seed": lambda c: str(c.seed),
    "task": lambda c: c.task_id,
}


def group_key(conv: Conversation, by: str) -> str:
    try:
        return GROUP_KEYS[by](conv)
    except KeyError:
        raise ValueError(f"--split-by must be one of {', '.join(GROUP_KEYS)}, got {by!r}") from None


def group_position(key: str) -> float:
    """Where a group key hashes to in [0, 1)."""
    digest = hashlib.sha256(f"{SPLIT_SALT}:{key}".encode()).hexdigest()
    return int(digest[:15], 16) / float(16**15)


@dataclass(frozen=True)
class SplitResult:
    train: list[Conversation]
    test: list[Conversation]
    by: str
    test_groups: tuple[str, ...]
    train_groups: tuple[str, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)


def split(conversations: Sequence[Conversation], by: str, eval_fraction: float) -> SplitResult:
    if not 0.0 <= eval_fraction < 1.0:
        raise ValueError(f"--eval-fraction must be in [0, 1), got {eval_fraction}")
    keys = {group_key(c, by) for c in conversations}
    ranked = sorted(keys, key=lambda k: (group_position(k), k))
    test_keys = {k for k in keys if group_position(k) < eval_fraction}
    notes: list[str] = []
    if eval_fraction > 0 and len(keys) >= 2:
        if not test_keys:
            test_keys = {ranked[0]}
            notes.append(f"no {by} group hashed below {eval_fraction}; moved {ranked[0]!r} to test")
        elif test_keys == keys:
            test_keys.discard(ranked[-1])
            notes.append(f"every {by} group hashed into test; moved {ranked[-1]!r} to train")
    elif eval_fraction > 0 and keys:
        raise ValueError(
            f"only one {by} group ({next(iter(keys), '-')!r}) is left, so there can be no test "
            f"split: export more {by}s (e.g. --seeds 2 or more), use another --split-by, or "
            f"--eval-fraction 0 for a dataset without a test split"
        )
    train = [c for c in conversations if group_key(c, by) not in test_keys]
    test = [c for c in conversations if group_key(c, by) in test_keys]
    return SplitResult(
        train=train,
        test=test,
        by=by,
        test_groups=tuple(sorted(test_keys)),
        train_groups=tuple(sorted(keys - test_keys)),
        notes=tuple(notes),
    )
