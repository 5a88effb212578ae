"""The compliance verifier's fast paths find exactly what their plain forms find.

Throughput work replaced whole-text regex scans with candidate searches (``str.find``, patterns
that start with a literal), per-unit scans and one-step object construction. Each replacement is
only correct if it is equivalent, so every one is checked here against the plain form it
replaced, on realistic responses (the evalset's generators over the hand-built catalog of
``test_compliance``) and on adversarial token soup that puts the edge cases next to each other.
"""

from __future__ import annotations

import dataclasses
import random
import re
import time
from bisect import bisect_right
from collections.abc import Iterator, Sequence

import pytest

from replicas.verifiers.compliance import Catalog, Claim, cue_words, extract_claims, matchers
from replicas.verifiers.compliance import lexicon as lex
from replicas.verifiers.compliance.mentions import NameMention
from replicas.verifiers.compliance.references import REFERENCE as _REFERENCE
from replicas.verifiers.compliance.text import _SPECIAL, _special_matches, normalize
from replicas.verifiers.compliance.units import (
    _SENTENCE_END,
    _TABLE_BLOCK,
    CueIndex,
    MentionIndex,
    _table_blocks,
    build_units,
)
from replicas.verifiers.compliance.values import (
    Durations,
    _anchors,
    _durations,
    month_anchors,
)
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY, REALISTIC_COMPLIANT
from tests.compliance_labelled import build_evalset
from tests.compliance_support import long_response

_WORDS = """
no annual fee fees n't don't not best so also if vs vs. than rather over cannot
minimum min. whichever interest most cards card typically says wrong quoted
recommend eligible consider without free foreign transaction none zero won't
penalty apr balance transfer the The Plus version month months mo mos most
year yearly cycle cycles period after then percent pct dollars bucks usd between cost charge
"""
_TOKENS = [
    *_WORDS.split(),
    *["at least", "no less than", "you qualify", "you're eligible", "would be a good", "**"],
    *["stands out", "makes sense", "will not", "does not", "12 mos.", "15 months", "first year"],
    *[",", ";", ":", "(", "[", "|", " - ", "-", "_", "'", '"', ".", "\n", "x", "1", "a", "é"],
    *["19.99%", "$95", "3%", "0%", "$5", "<b>", "&amp;", "–", "•", "\u200b", "summit", "Summit"],
]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_records(CARDS, ELIGIBILITY)


@pytest.fixture(scope="module")
def texts(catalog: Catalog) -> list[str]:
    """Realistic responses of every kind plus seeded token soup, original case."""
    rng = random.Random(20240611)
    soup = [
        "".join(rng.choice(_TOKENS) + rng.choice(["", " ", " ", "  ", "\t"]) for _ in range(n))
        for n in (rng.randint(1, 60) for _ in range(1500))
    ]
    evalset = [item.text for item in build_evalset([catalog], 4, seed=3)]
    long = [long_response(catalog, seed) for seed in range(6)]
    return [*COMPLIANT, *REALISTIC_COMPLIANT, *evalset, *long, *soup]


def _spans(matches: Iterator[re.Match[str]]) -> list[tuple[int, int]]:
    return [m.span() for m in matches]


# -- patterns written to start with a literal -----------------------------------------------


_WORD_LISTS = {
    "recommend": lex._RECOMMEND_WORDS,
    "negation": lex._NEGATION_WORDS,
    "contrast": lex._CONTRAST_WORDS,
    "clause": lex._CLAUSE_WORDS,
}


@pytest.mark.parametrize("name", sorted(_WORD_LISTS))
def test_word_start_alternations_match_like_a_leading_word_boundary(
    name: str, texts: list[str]
) -> None:
    words = _WORD_LISTS[name]
    plain = re.compile(r"\b(?:" + "|".join(words) + ")")
    fast = re.compile(matchers.at_word_start(words))
    rng = random.Random(name)
    for text in texts:
        lower = text.lower()
        assert _spans(fast.finditer(lower)) == _spans(plain.finditer(lower)), lower
        lo = rng.randint(0, len(lower))
        hi = rng.randint(lo, len(lower))
        assert _spans(fast.finditer(lower, lo, hi)) == _spans(plain.finditer(lower, lo, hi))


def test_word_start_alternation_rejects_what_it_cannot_rewrite() -> None:
    for bad in (r"\bword", "(?:a|b)c", "Word", "a?b", "9lives"):
        with pytest.raises(ValueError, match="literal letter"):
            matchers.at_word_start([bad])


def test_numbers_lookahead_changes_no_match(texts: list[str]) -> None:
    plain = re.compile(lex.NUMBERS.pattern.replace("(?=[$\\d])(?:", "(?:", 1))
    assert plain.pattern != lex.NUMBERS.pattern
    for text in texts:
        lower = text.lower()
        fast = [(m.span(), m.groups()) for m in lex.NUMBERS.finditer(lower)]
        assert fast == [(m.span(), m.groups()) for m in plain.finditer(lower)]


def test_sentence_end_matches_its_plain_form(texts: list[str]) -> None:
    plain = re.compile(r"[.!?]+(?=[ \t\n\"')\]*]|$)|\n")
    for text in texts:
        assert _spans(_SENTENCE_END.finditer(text)) == _spans(plain.finditer(text))


# -- candidate searches instead of whole-text scans -------------------------------------------


def test_candidate_searches_equal_finditer(texts: list[str]) -> None:
    for text in texts:
        lower = text.lower()
        assert _spans(matchers.find_starting_with(_REFERENCE, text, ("the", "The"))) == _spans(
            _REFERENCE.finditer(text)
        )
        assert [
            (m.span(), m.groups())
            for m in matchers.find_starting_with(lex.WORD_VALUES, lower, ("between", "zero", "usd"))
        ] == [(m.span(), m.groups()) for m in lex.WORD_VALUES.finditer(lower)]
        assert _anchors(lower) == _spans(lex.NUMBER_ANCHOR.finditer(lower))
        assert month_anchors(lower) == [
            (m.start(), m.end(), m.group()) for m in lex.MONTH_ANCHOR.finditer(lower)
        ]
        assert _spans(_table_blocks(text)) == _spans(_TABLE_BLOCK.finditer(text))
        assert _spans(_special_matches(text)) == _spans(_SPECIAL.finditer(text))


def test_adversarial_candidates_stay_linear() -> None:
    """A megabyte of candidates that never match costs no more than a few regex scans of it."""
    for filler in ("<", "&", "|\n", "the ", "zero ", "mo "):
        text = filler * (1_000_000 // len(filler))
        start = time.process_time()
        list(_special_matches(text))
        list(_table_blocks(text))
        list(matchers.find_starting_with(_REFERENCE, text, ("the", "The")))
        month_anchors(text)
        assert time.process_time() - start < 10.0, filler


# -- per-unit work instead of whole-text work ------------------------------------------------


def _whole_text_cues(lower: str, mentions: Sequence[NameMention]) -> list[tuple[str, int]]:
    """The cue index as it was before it went per unit: one scan of the whole text."""
    spans = [(m.start, m.end) for m in mentions]
    starts = [m.start for m in mentions]
    found = []
    for match in cue_words.CUE_SCAN.finditer(lower):
        pos = match.start()
        if pos and (lower[pos - 1].isalnum() or lower[pos - 1] in "'-"):
            continue
        cue = cue_words.CUE_TYPES[match.group(0)]
        if cue == "slash_year":
            if not pos or lower[pos - 1] != "/":
                continue
            cue = cue_words.ANNUAL
        elif cue == cue_words.ANNUAL_FEE:
            found.append((pos, cue_words.ANNUAL))
            cue = cue_words.FEE
        found.append((pos, cue))
    if "after" in lower:
        found.extend((m.start(), cue_words.AFTER) for m in cue_words.AFTER_MONTHS.finditer(lower))
        found.sort()
    cues = []
    for pos, cue in found:
        k = bisect_right(starts, pos) - 1
        if not (k >= 0 and spans[k][0] <= pos < spans[k][1]):
            cues.append((cue, pos))
    return cues


def test_units_see_the_cues_and_durations_a_whole_text_scan_sees(
    texts: list[str], catalog: Catalog
) -> None:
    for text in texts[:800]:
        norm = normalize(text)
        mentions = catalog.names.find(norm.text, norm.lower)
        cues = CueIndex(norm.lower, mentions)
        units = build_units(norm.text, cues, MentionIndex(mentions))
        whole = _whole_text_cues(norm.lower, mentions)
        durations = Durations(norm.lower)
        all_durations = _durations(norm.lower, month_anchors(norm.lower))
        for unit in units:
            inside = [c for c in whole if unit.start <= c[1] < unit.end]
            assert cues.within(unit.start, unit.end) == inside, (norm.text, unit)
            expected = [d for d in all_durations if unit.start <= d[0] < unit.end]
            assert durations.within(unit.start, unit.end) == expected, (norm.text, unit)


# -- one-step construction -----------------------------------------------------------------


def test_extracted_claims_are_ordinary_frozen_claims(catalog: Catalog) -> None:
    claims = [c for text in REALISTIC_COMPLIANT for c in extract_claims(text, catalog)]
    assert claims
    for claim in claims:
        rebuilt = Claim(**{f.name: getattr(claim, f.name) for f in dataclasses.fields(Claim)})
        assert claim == rebuilt and hash(claim) == hash(rebuilt) and repr(claim) == repr(rebuilt)
        assert list(vars(claim)) == [f.name for f in dataclasses.fields(Claim)]
        assert dataclasses.replace(claim, cards=("X",)).cards == ("X",)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(claim, "low", 1.0)  # noqa: B010 - a frozen field must refuse assignment


def test_name_automaton_finds_what_the_name_regex_finds(texts: list[str], catalog: Catalog) -> None:
    """The Aho-Corasick scan of catalog names equals the regex it replaced, boundaries included."""
    extra = ["summit cash plusx summit cash", "summit cash-plus summit cash plus_", "summit cashé"]
    for text in [*texts, *extra]:
        lower = text.lower()
        regex = catalog.names.exact_regex()
        expected = [(m.start(), m.end(), m.group(0)) for m in regex.finditer(lower)]
        assert list(catalog.names.exact_matches(lower)) == expected, text
