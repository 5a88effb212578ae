"""The Gymnasium spaces of every replica environment: text in, text out.

An observation is text (the instruction after ``reset``, a tool's answer after ``step``); an
action is one tool call, written as the JSON text ``{"name": "sql", "arguments": {...}}``
(``Env.step`` also takes the same call as a dict, or an OpenAI ``tool_call`` dict).

Both are :class:`gymnasium.spaces.Text` spaces over :data:`CHARSET`: printable ASCII, tab,
newline and carriage return, and the printable characters of the Unicode blocks that business
text uses (Latin-1 and Latin Extended-A letters, general punctuation such as dashes and
ellipses, currency signs, letter-like symbols, arrows, mathematical operators, box drawing).
Gymnasium's default ``Text`` charset is alphanumeric only and contains no real instruction; this
one contains every instruction and every oracle action of the shipped suites (a test checks).
A text with a character outside it (an emoji in a query, say) is still a valid action for
``step``; it is only not a member of the space, so a sampler never produces it.
"""

from __future__ import annotations

import string

from gymnasium.spaces import Text

__all__ = [
    "ACTION_MAX_CHARS",
    "CHARSET",
    "OBSERVATION_MAX_CHARS",
    "action_space",
    "observation_space",
]

#: Unicode blocks (inclusive ranges) whose printable characters join printable ASCII.
_BLOCKS: tuple[tuple[int, int], ...] = (
    (0x00A0, 0x00FF),  # Latin-1 Supplement
    (0x0100, 0x017F),  # Latin Extended-A
    (0x2010, 0x205E),  # General Punctuation (dashes, quotes, ellipsis, per mille, …)
    (0x20A0, 0x20C0),  # Currency Symbols
    (0x2100, 0x214F),  # Letterlike Symbols
    (0x2190, 0x21FF),  # Arrows
    (0x2200, 0x22FF),  # Mathematical Operators
    (0x2500, 0x257F),  # Box Drawing
)


def _charset() -> str:
    chars = [c for c in string.printable if c not in "\x0b\x0c"]
    for low, high in _BLOCKS:
        chars.extend(chr(cp) for cp in range(low, high + 1) if chr(cp).isprintable())
    # NBSP and friends are not "printable" to Python but appear in pasted business text.
    chars.extend(["\u00a0", "\u2007", "\u202f"])
    return "".join(dict.fromkeys(chars))


CHARSET: str = _charset()

#: The longest observation: tool output is capped far below this (``Limits.max_output_chars``),
#: instructions are a few hundred characters.
OBSERVATION_MAX_CHARS = 1_000_000
#: The longest action: a ``write_file`` call carries at most 200,000 characters of content;
#: JSON escaping can at most quadruple that in practice, and no call in the kit comes close.
ACTION_MAX_CHARS = 1_000_000


def observation_space() -> Text:
    """A new observation space (each environment owns its spaces and their random state)."""
    return Text(max_length=OBSERVATION_MAX_CHARS, min_length=0, charset=CHARSET)


def action_space() -> Text:
    """A new action space: JSON text of one tool call (see the module docstring)."""
    return Text(max_length=ACTION_MAX_CHARS, min_length=1, charset=CHARSET)
