"""The searches that run an expression only where a hint says it may match (``prefilter``) find
exactly what the plain scans they replaced found - every match's span and groups - on realistic
responses, on token soup built to put the hints' edges next to each other, and on strings
generated from each expression's own parse tree (so every alternative is reached)."""

from __future__ import annotations

import importlib
import random
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from replicas.verifiers.compliance import Catalog, prefilter
from replicas.verifiers.compliance import ruleset18 as r18
from replicas.verifiers.compliance import ruleset19 as r19
from replicas.verifiers.compliance import ruleset20 as r20
from replicas.verifiers.compliance.ruleset8 import RULED_OUT_8
from tests.compliance_cases import CARDS, COMPLIANT, ELIGIBILITY, REALISTIC_COMPLIANT
from tests.compliance_labelled import build_evalset

# the regex parser (private; ``re._parser`` from Python 3.11, ``sre_parse`` before), typed Any
_NEW_RE = sys.version_info >= (3, 11)
sre_c: Any = importlib.import_module("re._constants" if _NEW_RE else "sre_constants")
sre_p: Any = importlib.import_module("re._parser" if _NEW_RE else "sre_parse")

_WORDS = """
the The other former latter one card option pick hand
my top recommendation is I'd recommend suggest go with best safest bet also
suggested recommended Suggested: RECOMMEND ruled out not eligible can't get cannot
student-only students only already hold have you it this under its below minimum
score out of reach excluded skip skipped disqualified won't wouldn't don't do not
qualify apply approved unavailable available given because due credit recent
rule rules ruling left leave put drop dropped cross off table isn't it's that's
just open offered business members military veterans reserved limited needs
requires 700 at least an enrollment still carry # no penalty apr rate point
twenty-two nine five year and a quarter months Caller: Agent: You: Bot: me q
"""
_PIECES = [
    *_WORDS.split(),
    *["Summit Cash", "Atlas Miles Plus", "Voyage", "\n", "\n\n", "\n\n\n", " ", "  ", "\t", ". "],
    *[":", ";", "!", "?", ",", "-", "*", "**", "__", ">", "#", "|", "\u2014", "é", "x", "_", "'"],
]


def _soup(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [
        "".join(rng.choice(_PIECES) + rng.choice(["", " ", " ", "\t"]) for _ in range(k))
        for k in (rng.randint(1, 50) for _ in range(n))
    ]


def _generate(items: Iterable[tuple[Any, Any]], rng: random.Random) -> str:
    """A string the parse tree's literals, classes and branches can spell (look-arounds are
    skipped, so some do not match: the checks compare, they do not assume a match)."""
    out: list[str] = []
    for op, av in items:
        if op is sre_c.LITERAL:
            out.append(chr(av))
        elif op is sre_c.NOT_LITERAL or op is sre_c.ANY:
            out.append(rng.choice("ab .,x"))
        elif op is sre_c.IN:
            out.append(_one_of(av, rng))
        elif op is sre_c.BRANCH:
            out.append(_generate(rng.choice(av[1]), rng))
        elif op is sre_c.SUBPATTERN:
            out.append(_generate(av[-1], rng))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            low, high, sub = av
            out.extend(_generate(sub, rng) for _ in range(rng.randint(low, min(high, low + 3))))
    return "".join(out)


def _one_of(av: list[tuple[Any, Any]], rng: random.Random) -> str:
    chars: list[str] = []
    for op, arg in av:
        if op is sre_c.LITERAL:
            chars.append(chr(arg))
        elif op is sre_c.RANGE:
            low, high = arg
            chars.extend(chr(c) for c in range(low, min(high, low + 40) + 1))
        elif op is sre_c.CATEGORY:
            chars.extend("09aZ_" if "DIGIT" not in str(arg) else "0123456789")
    return rng.choice(chars or ["~"])


def _generated(pattern: re.Pattern[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    tree = list(sre_p.parse(pattern.pattern, pattern.flags))
    contexts = ["", " ", "\n", ". ", "x", "- ", "**", "I think ", "| ", "; ", "\n\n", "é"]
    return [rng.choice(contexts) + _generate(tree, rng) + rng.choice(contexts) for _ in range(n)]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    evalset = [item.text for item in build_evalset([catalog], 4, seed=5)]
    return [*COMPLIANT, *REALISTIC_COMPLIANT, *evalset, *_soup(1500, 19)]


def _spans(matches: Iterator[re.Match[str]]) -> list[tuple[tuple[int, int], tuple[object, ...]]]:
    return [(m.span(), m.groups()) for m in matches]


def _other(text: str) -> Iterator[re.Match[str]]:
    starts = prefilter.lead_runs(r19._other_hints(text), text, r19._OTHER_LEAD_19)
    return prefilter.finditer_from(r19._OTHER_19, text, starts)


def _tail(text: str) -> Iterator[re.Match[str]]:
    starts = (h.start() - 1 for h in r18._THE_TAIL_HINT_18.finditer(text) if h.start())
    return prefilter.finditer_from(r18._THE_TAIL_18, text, starts)


def _turns(pattern: re.Pattern[str]) -> object:
    def scan(text: str) -> Iterator[re.Match[str]]:
        starts = list(prefilter.line_starts_holding(text, ":"))
        return prefilter.finditer_from(pattern, text, starts)

    return scan


_SCANS = {
    "other_19": (r19._OTHER_19, _other),
    "slot_19": (
        r19._SLOT_19,
        lambda t: prefilter.finditer_lines(r19._SLOT_19, r19._SLOT_WORDS_19, t),
    ),
    "spoken_decimal_18": (
        r18._SPOKEN_DECIMAL_18,
        lambda t: prefilter.finditer_lines(r18._SPOKEN_DECIMAL_18, r18._POINT_WORDS_18, t),
    ),
    "year_and_18": (
        r18._YEAR_AND_18,
        lambda t: prefilter.finditer_lines(r18._YEAR_AND_18, r18._YEAR_WORDS_18, t),
    ),
    "the_tail_18": (r18._THE_TAIL_18, _tail),
    "bot_turn_20": (r20._BOT_TURN_20, _turns(r20._BOT_TURN_20)),
    "customer_turn_20": (r20._CUSTOMER_TURN_20, _turns(r20._CUSTOMER_TURN_20)),
}


@pytest.mark.parametrize("name", sorted(_SCANS))
def test_hinted_scan_finds_what_finditer_finds(name: str, texts: list[str]) -> None:
    plain, fast = _SCANS[name]
    hits = 0
    for text in [*texts, *_generated(plain, 2500, len(name))]:
        for t in (text, text.lower()):
            want = _spans(plain.finditer(t))
            assert _spans(fast(t)) == want, (name, t)  # type: ignore[operator]
            hits += bool(want)
    assert hits > 100  # the texts do reach the pattern


def test_ruled_out_search_at_words_answers_as_both_searches(texts: list[str]) -> None:
    rng = random.Random(8)
    generated = _generated(r19._RULED_OUT_19, 2500, 1) + _generated(RULED_OUT_8, 2500, 2)
    hits = 0
    for text in [*texts, *generated]:
        t = text.lower()
        windows = [(0, len(t))] + [
            (a, rng.randint(a, len(t))) for a in (rng.randint(0, len(t)) for _ in range(4))
        ]
        for a, b in windows:
            want = r19._RULED_OUT_19.search(t, a, b) is not None or (
                RULED_OUT_8.search(t, a, b) is not None
            )
            assert r19._rules_out_19(t, a, b) == want, (t, a, b)
            hits += want
    assert hits > 1000


def test_gates_and_blank_lines_answer_as_the_plain_scans(texts: list[str]) -> None:
    blank = re.compile(r"(?=\n\n)")
    for text in [*texts, *_generated(r18._NO_PENALTY_RATE_18, 500, 3)]:
        t = text.lower()
        assert r18._blank_lines(t) == [m.start() for m in blank.finditer(t)]
        if r18._NO_PENALTY_RATE_18.search(t) is not None:
            assert r18._NO_PENALTY_HINT_18.search(t) is not None


def test_hinted_scan_on_long_runs_of_lead_characters() -> None:
    """Long runs of lead characters before the hints: the same matches."""
    text = ("-" * 2000 + " the other one\n") * 300
    assert len(list(_other(text))) == len(list(r19._OTHER_19.finditer(text)))


# ruleset 18's principal cue as published (``\b`` first), before ``at_word_start`` wrote it
_PLAIN_CUE_WORDS_18 = (
    r"\b(?:on|move|moves|moving|moved|transfer|transferring|transferred|withdraw|withdrawing"
    r"|withdrew|borrow|borrowing|carry|carrying|shift|shifting|bring|bringing|put|putting"
    r"|(?:balance|advance|transfer|purchase|withdrawal|loan|debt)s?[ \t]+of)[ \t]+"
    r"(?:(?:a|an|the|about|around|roughly|over|over[ \t]+to)[ \t]+)?"
)


@pytest.mark.parametrize(
    ("fast", "plain"),
    [
        (r18._PRINCIPAL_CUE_18, re.compile(_PLAIN_CUE_WORDS_18 + "$")),
        (r18._PRINCIPAL_NEAR_18, re.compile(_PLAIN_CUE_WORDS_18 + r"(?=[$\d])")),
    ],
    ids=["cue", "near"],
)
def test_principal_cues_match_the_plain_pattern(
    fast: re.Pattern[str], plain: re.Pattern[str], texts: list[str]
) -> None:
    rng = random.Random(18)
    hits = 0
    generated = _generated(plain, 2500, 4)
    for text in [*texts, *generated, *(g + "$500" for g in generated)]:
        t = text.lower()
        found = _spans(plain.finditer(t))
        assert _spans(fast.finditer(t)) == found, t
        hits += bool(found)
        for a in (rng.randint(0, len(t)) for _ in range(3)):
            b = rng.randint(a, len(t))
            want = plain.search(t, a, b) is None
            assert (fast.search(t, a, b) is None) == want, (t, a, b)
    assert hits > 200


def test_generic_promotion_gate_and_percent_lines(texts: list[str]) -> None:
    hits = 0
    for text in [*texts, *_generated(r19._GENERIC_NP_19, 2500, 5)]:
        body = text.lower()
        if r19._GENERIC_NP_19.search(body) is not None:
            hits += 1
            assert body.startswith("with") or any(w in body for w in r19._GENERIC_WORDS_19)
    assert hits > 500
    for text in [*texts, *_generated(r20._PERCENT_WORD_20, 2500, 6)]:
        t = text.lower()
        fast = prefilter.finditer_lines(r20._PERCENT_WORD_20, r20._PERCENT_WORDS_20, t)
        assert _spans(fast) == _spans(r20._PERCENT_WORD_20.finditer(t)), t


def test_name_tries_with_the_look_behind_after_the_first_letter(texts: list[str]) -> None:
    """Ruleset 10's split-word and brand scans (``matchers.trie_after``) find what the plain
    ``(?<![\\w'-])(?:trie)`` patterns found, for the hand catalog's names."""
    from replicas.verifiers.compliance.matchers import trie_pattern

    names = Catalog.from_records(CARDS, ELIGIBILITY).names_for(True, True, True)._names_10
    assert names is not None and names.split_regex is not None and names.brand_regex is not None
    plain_split = re.compile(
        r"(?<![\w'-])(?:" + trie_pattern(sorted(names.splits)) + r")(?![\w'-])"
    )
    plain_brand = re.compile(r"(?<![\w'-])(?:" + trie_pattern(sorted(names.brands)) + r")(?![\w-])")
    rng = random.Random(10)
    split_words, brands = sorted(names.splits), sorted(names.brands)
    soup = [
        "".join(
            rng.choice([*split_words, *brands, "x", "-", "'", "_", " ", "\n", "9", "é", "ab"])
            for _ in range(rng.randint(1, 12))
        )
        for _ in range(3000)
    ]
    hits = 0
    for text in [*texts, *soup]:
        t = text.lower()
        for fast, plain in ((names.split_regex, plain_split), (names.brand_regex, plain_brand)):
            want = _spans(plain.finditer(t))
            assert _spans(fast.finditer(t)) == want, t
            hits += bool(want)
    assert hits > 300
