"""Term synonyms folded into the words the reader knows (ruleset 4, flag ``term_synonyms``).

Each rewrite keeps the text's length, so every position - of a card mention, a figure, a finding's
span - stays where it was: "balance-transfer" becomes "balance transfer", "BTs" becomes "bt " and
"transferring a balance" becomes "balance transfer" padded with blanks at its end. Only the
lower-cased copy the reader works on is rewritten; the text a span quotes is the agent's own.
"""

from __future__ import annotations

import re

from replicas.verifiers.compliance.matchers import at_word_start

# (pattern, canonical words); a match shorter than its canonical words becomes "bt".
_REWRITES: tuple[tuple[str, str], ...] = (
    # "a 0% balance-transfer intro APR", "balance-transfers"
    (r"balance-(?=transfers?\b)", "balance "),
    # "0% on BTs for 12 months"
    (r"bts\b", "bt "),
    (r"b/ts?\b", "bt "),
    # "transferring a balance", "moving a balance", "moving balances", "balances moved over"
    (
        r"transferring[ \t]{1,3}(?:a[ \t]{1,3}|your[ \t]{1,3})?balances?\b",
        "balance transfer",
    ),
    (r"moving[ \t]{1,3}(?:a[ \t]{1,3}|your[ \t]{1,3})?balances?\b", "balance transfer"),
    (
        r"balances?[ \t]{1,3}(?:you[ \t]{1,3})?(?:move|moved)(?:[ \t]{1,3}(?:over|across))?\b",
        "balance transfer",
    ),
)
# One scan for all of them, opening with literal letters so the engine skips to candidates at C
# speed (``at_word_start``); which rewrite matched is found afterwards (matches are rare).
_SCAN = re.compile(at_word_start([p for p, _ in _REWRITES]))
_EACH = tuple((re.compile(p), canonical) for p, canonical in _REWRITES)
_TRIGGERS = ("balance-", "bts", "b/t", "transferring", "moving", "move")


def _replacement(match: re.Match[str]) -> str:
    width = match.end() - match.start()
    for pattern, canonical in _EACH:
        own = pattern.match(match.string, match.start())
        if own is not None and own.end() == match.end():
            return (canonical if len(canonical) <= width else "bt").ljust(width)
    return match.group(0)  # pragma: no cover - the scan only matches one of the rewrites


def fold_synonyms(lower: str) -> str:
    """``lower`` with the term synonyms above rewritten, same length."""
    if not any(t in lower for t in _TRIGGERS):
        return lower
    folded = _SCAN.sub(_replacement, lower)
    assert len(folded) == len(lower)
    return folded


__all__ = ["fold_synonyms"]
