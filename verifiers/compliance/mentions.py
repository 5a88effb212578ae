"""A card reference found in a response, and the words of a name."""

from __future__ import annotations

import re
from dataclasses import dataclass

EXACT = "exact"
MISSPELLED = "misspelled"
UNKNOWN = "unknown"
# A short label ("Elite:") that could be the tail of several cards the response names: claims
# under it belong to no card (unverified) rather than to the last card named.
AMBIGUOUS = "ambiguous"

_WORD = re.compile(r"[A-Za-z0-9](?:[^\W_]|['-])*")


def tokens_of(name: str) -> tuple[str, ...]:
    """The lower-case words of a name; trademark signs and punctuation do not count."""
    cleaned = name.replace("®", " ").replace("™", " ").replace("℠", " ")
    return tuple(w.lower() for w in _WORD.findall(cleaned))


@dataclass(slots=True)
class NameMention:
    """A card reference in the normalised text: ``[start, end)``, its kind, the card it names.

    ``card_id`` is the card claims attach to (the intended card for a misspelling) and ``None``
    for an unknown product; ``expected`` lists the catalog names the reference is closest to.
    Not frozen only because a frozen dataclass costs four times as much to build and a response
    names dozens of cards; nothing mutates a mention.
    """

    start: int
    end: int
    kind: str
    card_id: str | None
    surface: str
    expected: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in (EXACT, MISSPELLED, UNKNOWN, AMBIGUOUS):
            raise ValueError(f"unknown mention kind {self.kind!r}")
        if self.end <= self.start:
            raise ValueError("a mention must cover at least one character")
        if (self.kind in (UNKNOWN, AMBIGUOUS)) != (self.card_id is None):
            raise ValueError("exact and misspelled mentions name a card; unknown ones do not")
