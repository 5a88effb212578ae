"""Ruleset 6's reading of "no late fee" under a condition of paying on time (flag
``on_time_condition``).

"If you pay on time, there's no fee for being late" and "no late fee as long as you never miss a
payment" say how to avoid the fee; they are true of every card, whatever its late fee, so they
are no claim that the card has none. Ruleset 3 already read "if you pay on time, you won't pay a
late fee" so (a pay verb in the negation's own scope); these forms name the fee without a verb.

The honest reading, decided: the condition (an "if" clause or the imperative "pay on time and")
must be about paying on time (or not missing a payment, or not paying late), and it must govern
the negation - stand before it in the same unit
with no sentence end, semicolon or contrast between them, or follow it at once ("no late fee if
you pay on time"). "If you pay late, there's no fee" and "no late fee - just pay on time" still
claim the card has no late fee, and are checked.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from replicas.verifiers.compliance.negation import NONE_LATE

_SP = r"[ \t]{1,3}"
_IF = (
    r"\b(?:if|as"
    + _SP
    + r"long"
    + _SP
    + r"as|so"
    + _SP
    + r"long"
    + _SP
    + r"as|provided(?:"
    + _SP
    + r"that)?|when(?:ever)?)"
)
_ON_TIME = re.compile(
    _IF
    + _SP
    + r"you(?:'re)?"
    + _SP
    + r"(?:(?:always|just|simply|only)"
    + _SP
    + r")?(?:pay|make"
    + _SP
    + r"(?:(?:your|all|every|each)"
    + _SP
    + r"){0,2}payments?)\b[^.;!?\n]{0,40}?\b(?:on"
    + _SP
    + r"time|by"
    + _SP
    + r"the"
    + _SP
    + r"due"
    + _SP
    + r"date|before"
    + _SP
    + r"the"
    + _SP
    + r"due"
    + _SP
    + r"date)\b"
    + r"|"
    + _IF
    + _SP
    + r"you"
    + _SP
    + r"(?:never|don't|do"
    + _SP
    + r"not)"
    + _SP
    + r"(?:miss(?:"
    + _SP
    + r"a"
    + _SP
    + r"payment)?|pay"
    + _SP
    + r"late)\b"
    # the imperative: "pay by the due date and there is no fee for being late"
    + r"|\bpay(?:"
    + _SP
    + r"(?:your|the|each|every)(?:"
    + _SP
    + r"(?:bill|balance|statement))?)?"
    + _SP
    + r"(?:on"
    + _SP
    + r"time|by"
    + _SP
    + r"the"
    + _SP
    + r"due"
    + _SP
    + r"date|before"
    + _SP
    + r"the"
    + _SP
    + r"due"
    + _SP
    + r"date)[ \t]{0,2},?"
    + _SP
    + r"and\b"
)
# how far before a negation a condition may stand and still govern it
_REACH = 160
# between a condition and the negation it governs: no sentence end, semicolon or contrast
_BREAK = re.compile(r"[;!?\n]|\.(?![0-9])|\b(?:but|however|although|though|yet|while)\b")
# right after the negation: at most a comma or a dash before the condition
_RIGHT_AFTER = re.compile(r"[ \t]{0,2}(?:,|-|\u2014)?[ \t]{0,2}")


def drop_on_time_late_fees(
    lower: str, nones: list[tuple[int, int, str]]
) -> list[tuple[int, int, str]]:
    """``nones`` without the "no late fee" statements a pay-on-time condition governs.

    Only the nearest condition on each side can govern a negation (a break that cuts the nearest
    one off cuts every farther one off too), and only within ``_REACH`` characters, so the work
    stays linear on a long run-on text."""
    if not any(kind == NONE_LATE for _, _, kind in nones):
        return nones
    conditions = [m.span() for m in _ON_TIME.finditer(lower)]
    if not conditions:
        return nones
    starts = [c[0] for c in conditions]
    kept = []
    for start, end, kind in nones:
        if kind == NONE_LATE:
            k = bisect_right(starts, start) - 1  # the last condition opening before the negation
            before = conditions[k] if k >= 0 else None
            after = conditions[k + 1] if k + 1 < len(conditions) else None
            if (
                before is not None
                and start - _REACH <= before[1] <= start
                and _BREAK.search(lower, before[1], start) is None
            ) or (
                after is not None
                and after[0] >= end
                and _RIGHT_AFTER.fullmatch(lower, end, after[0]) is not None
            ):
                continue
        kept.append((start, end, kind))
    return kept


__all__ = ["drop_on_time_late_fees"]
