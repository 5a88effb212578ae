"""Numbers written as words ("ninety-five", "twenty one", "a hundred and fifty") as values.

Chat answers spell out figures ("ninety-five dollars", "eighteen months", "zero percent"). These
are read into numbers here so the extractor can treat them exactly like digits; positions stay
those of the words, so spans point at what the agent wrote.
"""

from __future__ import annotations

import re

_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_UNIT_WORDS = "|".join(sorted(_UNITS, key=len, reverse=True))
_TEN_WORDS = "|".join(_TENS)
# Below one hundred: "ninety-five", "ninety five", "twelve"; then an optional hundreds part
# ("a hundred and fifty", "two hundred fifty", "one hundred").
_BELOW_100 = rf"(?:(?:{_TEN_WORDS})(?:[ \t-]{{1,2}}(?:{_UNIT_WORDS}))?|(?:{_UNIT_WORDS}))"
NUMBER_WORDS = (
    rf"(?:(?:a|one|two|three|four|five|six|seven|eight|nine)[ \t]{{1,2}}hundred"
    rf"(?:[ \t]{{1,2}}(?:and[ \t]{{1,2}})?{_BELOW_100})?|{_BELOW_100})"
)
_TOKEN = re.compile(r"[a-z]+")


def parse_number_words(words: str) -> int:
    """The value of a match of ``NUMBER_WORDS`` ("ninety-five" -> 95, "a hundred and fifty")."""
    total = 0
    current = 0
    for token in _TOKEN.findall(words.lower()):
        if token in _UNITS:
            current += _UNITS[token]
        elif token in _TENS:
            current += _TENS[token]
        elif token == "hundred":
            total += max(current, 1) * 100
            current = 0
        elif token == "a":
            current = 1
        elif token != "and":
            raise ValueError(f"not a number word: {token!r}")
    return total + current
