"""The fast forms of ruleset 13's and 14's scans match exactly what the plain patterns they replace
matched (a word boundary or look-behind moved after the first letter, ``at_word_start``, the
possessive words found from each "'s"), on texts built to hit their edges."""

from __future__ import annotations

import random
import re

import pytest

from replicas.verifiers.compliance import Catalog, ruleset13, ruleset14, ruleset14b, verify_response
from replicas.verifiers.compliance.spans import SpanIndex
from tests.compliance_cases import CARDS, ELIGIBILITY

# the patterns as they were written before the fast forms (rulesets 13 and 14 as published)
PLAIN_THE_RUN = re.compile(
    r"(?<![\w'-])the[ \t]+(?P<w>[a-z][a-z-]{3,19})(?P<t>(?:[ \t][a-z0-9']+){1,3})"
)
PLAIN_REC_THE_RUN = re.compile(
    r"(?:\bput|\bconsider|\btry|\blook[ \t]+at|\bgo[ \t]+with|\bpick|\bchoose|\bget"
    r"|\bapply[ \t]+for|\bcheck[ \t]+out|\badd|\brecommend|\bsuggest|\bstart[ \t]+with)"
    r"[ \t]+(?:also[ \t]+)?the[ \t]+(?P<w>[a-z][a-z-]{3,19})(?P<t>(?:[ \t][a-z0-9']+){1,3})"
)
PLAIN_SLOT = re.compile(
    r"(?:\brecommendation|\bpick|\bchoice|\bpoint[ \t]+you[ \t]+to[ \t]+is"
    r"|\bpointing[ \t]+you[ \t]+to|\bgo[ \t]+with|\bbest[ \t]+bet|\bbest[ \t]+fit|\bwinner"
    r"|\bsuggestion)"
    r"(?:[ \t]+for[ \t]+you)?[ \t]*(?:is|would[ \t]+be|:|-)?[ \t]*(?:\*\*|__)?the[ \t]+"
    r"(?P<name>[a-z][a-z-]{2,19}(?:[ \t][a-z][a-z-]{1,19}){1,3})"
    r"(?=(?:\*\*|__)?[ \t]*(?:[.,;:!?\n]|$))"
)
PLAIN_POSSESSIVE_WORD = re.compile(r"([A-Za-z-]+|\d{3})'s(?![\w])")

PIECES = [
    "the ",
    "The ",
    "the  ",
    "bathe ",
    "lathe the ",
    "-the ",
    "'the ",
    "_the ",
    "9the ",
    "éthe ",
    "put ",
    "input ",
    "consider ",
    "try ",
    "look at ",
    "go with ",
    "pick ",
    "picks ",
    "get ",
    "apply for ",
    "add ",
    "recommend ",
    "suggest ",
    "start with ",
    "also ",
    "choice: ",
    "recommendation is ",
    "point you to is ",
    "pointing you to ",
    "best bet ",
    "best fit ",
    "winner - ",
    "suggestion would be ",
    "for you ",
    "**",
    "__",
    "larkspur ",
    "voyage ",
    "miles",
    "card",
    "card's ",
    "Card's",
    "Rewards's ",
    "X-Card's",
    "s's",
    "'s",
    "'sx",
    "'s-",
    "123's ",
    "é's ",
    "Foo's-Bar's ",
    "rewards ",
    "cash ",
    ". ",
    ", ",
    "\n",
    "  ",
    "\t",
    "a",
    "b",
]


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40))) for _ in range(n)]


def _spans(matches: object) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
    return [(m.span(), m.groups()) for m in matches]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("fast", "plain"),
    [
        (ruleset13._THE_RUN, PLAIN_THE_RUN),
        (ruleset14._REC_THE_RUN, PLAIN_REC_THE_RUN),
        (ruleset14b._SLOT, PLAIN_SLOT),
    ],
    ids=["the_run", "rec_the_run", "slot"],
)
def test_fast_scan_matches_the_plain_pattern(fast: re.Pattern[str], plain: re.Pattern[str]) -> None:
    texts = _texts(3000, 14)
    hits = 0
    for text in texts:
        for t in (text, text.lower()):
            want = _spans(plain.finditer(t))
            assert _spans(fast.finditer(t)) == want, t
            hits += bool(want)
    assert hits > 20  # the texts do reach the patterns


def test_brand_run_moves_its_look_behind_after_the_t() -> None:
    catalog = Catalog.from_records(CARDS, ELIGIBILITY)
    verify_response("the Atlas Cash card", catalog, ruleset=14)  # builds ruleset 14's readers
    readers = [n for n in list(ruleset14._NAMES14.values()) if n.brands]
    assert readers
    for names in readers:  # one per catalog read so far in this process
        fast = names.brand_run
        assert fast.pattern.startswith("t(?<![\\w'-]t)he")
        plain = re.compile(r"(?<![\w'-])the" + fast.pattern[len("t(?<![\\w'-]t)he") :])
        pieces = [*PIECES, *(b + " " for b in sorted(names.brands)), "quartz ", "select "]
        rng = random.Random(7)
        hits = 0
        for _ in range(1500):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))).lower()
            want = _spans(plain.finditer(text))
            assert _spans(fast.finditer(text)) == want, text
            hits += bool(want)
        assert hits > 10


def test_possessive_words_answer_what_the_pattern_answered() -> None:
    product = frozenset({"card", "rewards", "cash", "bar"})
    for text in _texts(3000, 3):
        want = any(
            w.group(1).lower() in product and w.group(1)[:1].isupper()
            for w in PLAIN_POSSESSIVE_WORD.finditer(text)
        )
        got = any(
            w[:1].isupper() and w.lower() in product for w in ruleset14._possessive_words(text)
        )
        assert got == want, text


def test_span_index_answers_as_a_scan_of_its_spans_would() -> None:
    """``SpanIndex.overlaps`` and ``holding`` (which replaced a scan of every span per mention)
    agree with the scan on random spans, nested and zero-length ones included, while spans are
    added."""
    rng = random.Random(16)
    for _ in range(200):
        spans = []
        for _ in range(rng.randrange(0, 12)):
            a = rng.randrange(0, 60)
            spans.append((a, a + rng.choice([0, 1, 2, 5, 30])))
        index = SpanIndex(spans)
        for _ in range(20):
            if rng.random() < 0.3:
                a = rng.randrange(0, 60)
                b = a + rng.randrange(0, 8)
                index.add(a, b)
                spans.append((a, b))
            a = rng.randrange(-5, 70)
            b = a + rng.randrange(0, 10)
            assert index.overlaps(a, b) == any(x < b and a < y for x, y in spans)
            first = next(((x, y) for x, y in spans if x <= a < y), None)
            assert index.holding(a) == first
        assert len(index) == len(spans) and sorted(index) == sorted(spans)
