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
from replicas.verifiers.compliance.names import NameIndex
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


# -- ruleset 12's name scan and generic cards (issue 13) -----------------------------------


@pytest.fixture(scope="module")
def r12_texts(catalog: Catalog, texts: list[str]) -> list[str]:
    """Realistic responses and ruleset 12's cases, with seeded edits where its readings act:
    card names typed in lower case with typos, run-on brands, hyphens, apostrophes, wraps."""
    from tests import test_compliance_ruleset12 as cases12

    rng = random.Random(1312)
    names = sorted(catalog.names.names.values())
    pieces = [
        *[" keep one card with no annual fee ", " a card that has  ", " any card without\n"],
        *[" x-ray ", " -summit ", " 'vista ", " summitcash plus ", " harborline sky elite "],
        *[" summit journey ", "\n- Summit\n  Cash Plus", "\n   ", "\n\t", "  ", "'s "],
    ]

    def typo(name: str) -> str:
        chars = list(name.lower() if rng.random() < 0.6 else name)
        for _ in range(rng.randint(0, 2)):
            at = rng.randrange(len(chars))
            edit = rng.random()
            if edit < 0.3:
                chars.insert(at, rng.choice("abcdefghijklmnopqrstuvwxyz"))
            elif edit < 0.6:
                del chars[at]
            elif edit < 0.8:
                chars[at] = rng.choice("abcdefghijklmnopqrstuvwxyz")
            else:
                chars.insert(at, rng.choice("-' "))
        return "".join(chars)

    base = [
        *texts[:400],
        *[
            case[0]
            for group in (cases12.LOWER_CASE, cases12.TYPOS, cases12.PRECISION)
            for case in group
        ],
    ]
    out = list(base)
    for _ in range(1500):
        chars = list(rng.choice(base))
        for _ in range(rng.randint(1, 5)):
            at = rng.randrange(len(chars) + 1)
            if rng.random() < 0.6:
                piece = rng.choice(["the ", " ", "\n- ", "my "]) + typo(rng.choice(names))
                piece += rng.choice(
                    [" has no annual fee. ", "'s apr is 20%. ", " charges $95 ", "\n  "]
                )
            else:
                piece = rng.choice(pieces)
            chars[at:at] = list(piece)
        text = "".join(chars)
        out.append(text.lower() if rng.random() < 0.3 else text)
    return out


def _r12_inputs(
    catalog: Catalog, r12_texts: list[str]
) -> Iterator[tuple[NameIndex, str, str, list[NameMention]]]:
    from replicas.verifiers.compliance import _mentions, _name_index, _normalize_11
    from replicas.verifiers.compliance.ruleset import RULESETS

    rules = RULESETS[11]
    index = _name_index(catalog, RULESETS[12])
    for text in r12_texts:
        norm, tricks = _normalize_11(text, rules, catalog)
        yield index, norm.text, norm.lower, _mentions(catalog, norm, rules, tricks)


def test_ruleset12_loose_names_equal_a_word_by_word_scan(
    catalog: Catalog, r12_texts: list[str]
) -> None:
    """``Names12.loose`` gates the text's distinct words and visits the gated ones' places; a
    scan of every word of ``_LOWER_RUN`` (the form it replaced) finds the same names."""
    from replicas.verifiers.compliance import ruleset12 as r12
    from replicas.verifiers.compliance.phrases import FUNCTION_WORDS

    found = 0
    for index, text, lower, mentions in _r12_inputs(catalog, r12_texts):
        extra = r12.Names12(index)

        def gate(word: str, extra: r12.Names12 = extra) -> bool:
            bare = r12._strip_possessive(word)
            return bare not in FUNCTION_WORDS and (extra._anchor(bare) or bare in extra.stem_first)

        words = [m.span() for m in r12._LOWER_RUN.finditer(lower)]
        taken = sorted((m.start, m.end) for m in mentions)
        expected: list[NameMention] = []
        reach, j = -1, 0
        for i, (start, end) in enumerate(words):
            if start < reach or not gate(lower[start:end]):
                continue
            while j < len(taken) and taken[j][1] <= start:
                j += 1
            if j < len(taken) and taken[j][0] < end:
                continue
            run = [words[i]]
            k = i
            while len(run) < r12._MAX_WORDS and k + 1 < len(words):
                if not re.fullmatch(r"[ \t]{1,2}", lower[words[k][1] : words[k + 1][0]]):
                    break
                k += 1
                run.append(words[k])
            limit = taken[j][0] if j < len(taken) else len(lower)
            hit = extra._lower_name(text, lower, [s for s in run if s[1] <= limit])
            if hit is not None:
                a, b, near = hit
                expected.append(extra._mention(a, b, text[a:b], near))
                reach = b
        got = extra.loose(text, lower, mentions)
        assert got == expected, text
        found += len(got)
    assert found > 50  # the edits do produce loose names


def test_ruleset12_line_candidates_equal_finditer(catalog: Catalog, r12_texts: list[str]) -> None:
    from replicas.verifiers.compliance import ruleset12 as r12

    for index, _text, lower, _mentions in _r12_inputs(catalog, r12_texts):
        extra = r12.Names12(index)
        assert _spans(extra._line_candidates(lower)) == _spans(
            extra._line_candidate.finditer(lower)
        ), lower


def test_ruleset12_names_by_line_equal_the_whole_text_reading(
    catalog: Catalog, r12_texts: list[str]
) -> None:
    """Reading line by line - first filling the per-line cache, then from it - gives the
    mentions of reading the whole text at once."""
    from replicas.verifiers.compliance import ruleset12 as r12

    changed = 0
    for index, text, lower, mentions in _r12_inputs(catalog, r12_texts):
        extra = r12.Names12(index)
        whole = [extra.respell(m, text) if m.kind == r12.UNKNOWN else m for m in mentions]
        loose = extra.loose(text, lower, whole)
        if loose:
            whole = sorted([*whole, *loose], key=lambda m: m.start)
        invented = extra.invented_lines(text, lower, whole)
        if invented:
            whole = sorted([*whole, *invented], key=lambda m: m.start)
        for _ in range(2):  # the second pass reads every line from the cache
            assert extra.by_line(text, lower, mentions) == whole, text
        changed += whole != mentions
    assert changed > 50


def test_ruleset12_generic_cards_equal_a_search_of_every_window(
    catalog: Catalog, r12_texts: list[str]
) -> None:
    """``revise_12`` searches only the windows a "card with ..." can be in; searching every
    claim's window (the form it replaced) unbinds the same claims."""
    from replicas.verifiers.compliance import _extract
    from replicas.verifiers.compliance import ruleset12 as r12
    from replicas.verifiers.compliance.ruleset import RULESETS
    from replicas.verifiers.compliance.text import NormalizedText

    rules = dataclasses.replace(RULESETS[12], generic_cards_12=False)
    unbound = 0
    for _index, text, lower, mentions in _r12_inputs(catalog, r12_texts):
        norm = NormalizedText(text, text, lower)
        extraction = _extract(norm, lower, mentions, rules)[0]
        expected = []
        for claim in extraction.claims:
            window = extraction.masked[max(0, claim.start - 80) : claim.start]
            m = r12._GENERIC_CARD.search(window) if claim.cards else None
            if m is not None and r12._PREDICATED.search(window, 0, m.start()) is None:
                claim = dataclasses.replace(claim, cards=(), binding="")
                unbound += 1
            expected.append(claim)
        assert r12.revise_12(extraction).claims == tuple(expected), text
    assert unbound > 20
