"""Duplicate removal: exact (hash of canonical JSON) and near (MinHash LSH + exact Jaccard).

Exact duplicates arise whenever two sources saw the same episode — an oracle run directory and
oracle demonstrations, or one agent solving a task identically on two attempts. Near duplicates
are the same episode up to trivia (whitespace in a query, one extra row shown). Both keep the
FIRST record in the given (deterministic) order.

Near-duplicate detection compares word 5-gram shingles of :meth:`Conversation.text` (instruction,
calls, observations, answers — not the system prompt or tool schemas, identical everywhere).
MinHash signatures (64 permutations of CRC-32 shingle hashes, 16 bands of 4 rows) propose
candidate pairs; a pair is a duplicate only if the exact Jaccard similarity of the two shingle
sets (compared as sorted 64-bit hashes) reaches the threshold, so LSH only has to find the
pairs (recall 1 - (1 - s^4)^16: > 0.9998 for similarities s >= 0.8). Templated tasks make
many candidates, so a candidate whose signature agreement (an unbiased estimate of its
similarity, standard error <= 0.063) is more than ``ESTIMATE_MARGIN`` below the threshold is
not verified: a true near duplicate falls that low with probability < 1e-5 (Hoeffding).
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from replicas.export.conversation import Conversation, ngrams, words
from replicas.seeding import table_rng

SHINGLE_WORDS = 5
NUM_PERM = 64
BANDS = 16
ESTIMATE_MARGIN = 0.3
_PRIME = np.uint64((1 << 61) - 1)


@dataclass(frozen=True)
class DedupResult:
    kept: list[Conversation]
    exact: int
    near: int
    #: (dropped record id, kept record id, similarity) — the first few near duplicates.
    near_examples: list[tuple[str, str, float]] = field(default_factory=list)


def exact_dedup(conversations: Sequence[Conversation]) -> tuple[list[Conversation], int]:
    seen: set[str] = set()
    kept: list[Conversation] = []
    for conv in conversations:
        digest = conv.content_hash()
        if digest in seen:
            continue
        seen.add(digest)
        kept.append(conv)
    return kept, len(conversations) - len(kept)


def shingles(conv: Conversation, size: int = SHINGLE_WORDS) -> set[str]:
    return ngrams(words(conv.text()), size)


def _hash32(items: set[str]) -> np.ndarray:
    return np.fromiter((zlib.crc32(s.encode()) for s in items), dtype=np.uint64, count=len(items))


def _permutations() -> tuple[np.ndarray, np.ndarray]:

    rng = table_rng(0, "export.minhash")
    a = rng.integers(1, 1 << 32, size=NUM_PERM, dtype=np.uint64)
    b = rng.integers(0, 1 << 32, size=NUM_PERM, dtype=np.uint64)
    return a, b


def minhash(items: set[str], a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Signature of a shingle set: per permutation, min of (a·h + b) mod p over its hashes."""
    if not items:
        return np.full(len(a), np.iinfo(np.uint64).max, dtype=np.uint64)
    h = _hash32(items)
    values = (np.outer(h, a) + b) % _PRIME  # a, h < 2**32: the product fits in 64 bits
    return np.asarray(values.min(axis=0), dtype=np.uint64)


def jaccard(x: set[str], y: set[str]) -> float:
    if not x and not y:
        return 1.0
    return len(x & y) / len(x | y)


def _hash_array(items: set[str]) -> np.ndarray:
    """Sorted 64-bit hashes of a shingle set (``hash`` is stable within the process, which is all
    a comparison needs; two distinct shingles colliding in 64 bits is a ~1e-13 event)."""
    return np.unique(np.fromiter((hash(s) for s in items), dtype=np.int64, count=len(items)))


def jaccard_sorted(x: np.ndarray, y: np.ndarray) -> float:
    """Jaccard similarity of two sets given as sorted arrays of unique hashes."""
    if not x.size and not y.size:
        return 1.0
    inter = np.intersect1d(x, y, assume_unique=True).size
    return inter / (x.size + y.size - inter)


def near_dedup(
    conversations: Sequence[Conversation], threshold: float
) -> tuple[list[Conversation], list[tuple[str, str, float]]]:
    """Drop every record whose Jaccard similarity to an earlier KEPT record is >= threshold."""
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"near-duplicate threshold must be in (0, 1], got {threshold}")
    a, b = _permutations()
    rows = NUM_PERM // BANDS
    buckets: dict[tuple[int, bytes], list[int]] = {}
    kept: list[Conversation] = []
    kept_sets: list[np.ndarray] = []
    kept_signatures: list[np.ndarray] = []
    dropped: list[tuple[str, str, float]] = []
    floor = threshold - ESTIMATE_MARGIN
    for conv in conversations:
        items = shingles(conv)
        signature = minhash(items, a, b)
        hashed = _hash_array(items)
        keys = [
            (band, signature[band * rows : (band + 1) * rows].tobytes()) for band in range(BANDS)
        ]
        candidates = sorted({i for key in keys for i in buckets.get(key, [])})
        match = next(
            (
                (i, sim)
                for i in candidates
                if float(np.mean(kept_signatures[i] == signature)) >= floor
                and (sim := jaccard_sorted(hashed, kept_sets[i])) >= threshold
            ),
            None,
        )
        if match is not None:
            dropped.append((conv.record_id, kept[match[0]].record_id, round(match[1], 4)))
            continue
        index = len(kept)
        kept.append(conv)
        kept_sets.append(hashed)
        kept_signatures.append(signature)
        for key in keys:
            buckets.setdefault(key, []).append(index)
    return kept, dropped


def deduplicate(conversations: Sequence[Conversation], near_threshold: float) -> DedupResult:
    unique, exact = exact_dedup(conversations)
    kept, dropped = near_dedup(unique, near_threshold)
    return DedupResult(kept, exact, len(dropped), dropped[:10])
