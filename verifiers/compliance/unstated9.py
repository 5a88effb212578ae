"""Ruleset 9: a value that may mean "none" or "not stated" is unverified, not a "no fee" claim.

Rulesets 3-8 read "n/a" after a label ("Annual fee: n/a", "Intro APR: n/a") as "none", and
rulesets 7-8 also a dash alone - a table cell holding "-" or "\u2014", "Annual fee: -" (ruleset 7's
``expansions7``; unicode dashes are folded to "-" before reading). In a comparison table a dash or
"n/a" marks a term the writer does not state for that card ("not listed", "not applicable") as
often as a term the card lacks: the kit's own compliant 800-word answers write "| Late fee | - |"
for a term they leave out, and rulesets 7-8 flagged every one of them. Issue 13 asks for precision
first: what cannot be told apart from "not stated" is no claim. So ruleset 9 reads no dash as
"none" (``expand7(..., dashes_say_none=False)``) and blanks each "n/a" here to a word no reader
knows, so nothing is claimed there. Words that do say "none" ("none", "no fee", "$0", "free",
"not charged", "not applicable", a cross, "nope") are read as before, and still caught when the
card has the fee.

Like the other rewrites, this one extends the normalised text's map back to the original, so a
finding's span still quotes what the agent wrote.
"""

from __future__ import annotations

import re

from replicas.verifiers.compliance.expansions import apply_replacements
from replicas.verifiers.compliance.text import NormalizedText

# "n/a" standing alone (not part of a longer token such as "n/an" or "a/n/a")
_NOT_AVAILABLE = re.compile(r"(?<![\w/])n/a(?![\w/])")
#: What an "n/a" becomes: a word no rule of the reader knows, so its label claims nothing.
UNSTATED = "unstated"


def blank_unstated(norm: NormalizedText) -> NormalizedText:
    """``norm`` with every standalone "n/a" replaced by ``UNSTATED`` (the map back extended)."""
    if "n/a" not in norm.lower:
        return norm
    found = [(m.start(), m.end(), UNSTATED) for m in _NOT_AVAILABLE.finditer(norm.lower)]
    if not found:
        return norm
    return apply_replacements(norm, found)


__all__ = ["UNSTATED", "blank_unstated"]
