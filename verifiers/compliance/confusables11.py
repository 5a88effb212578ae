"""Ruleset 11: letters of other scripts that look like Latin ones ("Аtlas" with a Cyrillic А).

The map comes from Unicode's confusables data as the ``confusable-homoglyphs`` package ships it
(``confusables.json``, Unicode's ``confusables.txt`` keyed by character, and
``categories.json`` for each character's script): every Cyrillic or Greek letter whose
confusable is one ASCII letter maps to that letter. It is built once, on first use, and only
for a text that holds such a letter (NFKC has already folded fullwidth and compatibility forms;
it leaves other scripts alone).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

_SCRIPTS = ("CYRILLIC", "GREEK")


@cache
def latin_lookalikes() -> dict[str, str]:
    """Cyrillic or Greek letter -> the ASCII letter it is confusable with."""
    package = resources.files("confusable_homoglyphs")
    confusables = json.loads(package.joinpath("confusables.json").read_text(encoding="utf-8"))
    categories = json.loads(package.joinpath("categories.json").read_text(encoding="utf-8"))
    aliases = categories["iso_15924_aliases"]
    wanted = {aliases.index(name) for name in _SCRIPTS}
    script_of: set[int] = set()
    for lo, hi, script, _category in categories["code_points_ranges"]:
        if script in wanted:
            script_of.update(range(lo, hi + 1))
    out: dict[str, str] = {}
    for char, entries in confusables.items():
        if len(char) != 1 or ord(char) not in script_of or not char.isalpha():
            continue
        for entry in entries:
            glyph = entry.get("c", "")
            if len(glyph) == 1 and glyph.isascii() and glyph.isalpha():
                out[char] = glyph
                break
    return out


def is_other_script(char: str) -> bool:
    """A letter outside ASCII that may be a look-alike (Cyrillic U+0370-U+052F, Greek)."""
    return 0x370 <= ord(char) <= 0x52F


__all__ = ["is_other_script", "latin_lookalikes"]
