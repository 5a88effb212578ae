"""Ruleset 22, part b: shortened card names, picks confirmed after a list or table, CRM "rec"
lines and cards ruled out without a "but" (issue 13).

Tuned on the s25 blind sets' tuning file (four writers), for the name, intro, eligibility and
disclosure codes. Each class is read in general form and keeps its twin (a real defect in the
same construction) caught:

* **A shortened name of a card the response names in full** (``short_names_22b``): a reply
  names "Willow Travel Reserve" and "Meridian Travel Reserve" in full, then compares "the Willow
  Reserve" with "the Meridian Reserve"; a chat names "Vista Campus Cash" and the customer says
  "ok vista campus it is"; a heading "Gray Rock vs. Grey Rock" over the two "... Sky Miles"
  cards. Ruleset 21 read each short form as an invented card. An invented name whose words are a
  proper subsequence of the name of exactly one card the response names (exactly, elsewhere),
  starting with that card's first word, is that card; of two or more such cards, it is
  ambiguous (its figures belong to no card). An invented name with a word no named card has
  ("Summit Cash Elite" beside "Summit Cash Plus") stays invented.
  Example: "The Harbor Sky Miles Plus costs $95 a year; the Harbor Plus earns 3x on travel."
  Two more name readings go with it: a benchmark rate written as a proper noun ("tied to an
  index, usually the Prime Rate", "the Federal Funds Rate") is no product; and an invented name
  read across a run of blanks - a column gap of a fixed-width table, "Aspen Platinum Plus   Prism
  Reset Plus" in a header row - whose words before the gap are a catalog name is that card (the
  gap ends a name; an invented name before the gap stays invented).
  Example: "Variable rates move with the Prime Rate." / a header "Summit Cash Plus    Vista Clear".
* **A lower-case tier word added** (``short_names_22b``, a miss): "if you want more on groceries
  the crest rewards plus is worth a look" (only "Crest Rewards" and "Crest Rewards Preferred"
  exist). Ruleset 6 reads an added premium word ("platinum") in lower case; the catalog's other
  tier words ("plus", "one", "preferred", "360", ...) are common words, so they are read only
  after "the" and a lower-case catalog name and before a verb or the end of a clause: "the
  <name> plus is ..." names an invented card when "<name> Plus" is no catalog card.
  Example: "the vista clear preferred has a $95 fee" (no "Vista Clear Preferred" exists).
* **A pick confirmed after its list** (``picks_22b``): "here are three secured cards you can
  get:" then a table, then "All three are good picks for you."; "my two picks:" over a table
  whose columns are cards, then "Both are good fits."; one card described, then "It's a good
  pick for you." A sentence whose subject is "both" / "all N" / "it" / "this one" and whose
  predicate recommends ("are good picks", "is a great fit for you", "are solid options",
  "would suit you") recommends the N last cards named before it (N = 2 for "both", 1 for "it",
  which must be the only card of the sentence before). Not when the sentence negates.
  Example: "Summit Cash Plus and Vista Clear both pay 2%. Both are great options for you."
* **A CRM "rec" line** (``picks_22b``): "- rec: Gray Rock Sky Miles Plus (Riverbend)", "rec
  Willow Sky Miles Reserve: 5x trav". Advisor shorthand "rec" / "recs" / "rec'd" at the start of
  a line (after a bullet) right before a card's name recommends it.
  Example: "- rec Summit Cash Plus; 2% back. cust agreed."
* **An inline numbered pick list** (``picks_22b``): "my top 2 for u: 1) summit cashback, ...
  2) prism cashback, ...". The cards right after "1)" / "2." on the line of a "my top N" /
  "my picks" lead ending in a colon are recommended.
  Example: "my top two: 1) Summit Cash Plus, 2% back 2) Vista Clear, no fee"
* **A card ruled out without a contrast word** (``picks_22b``): "(The X would be ideal, but it
  isn't available at your current score, so please don't apply for it.)"; "you asked whether the
  X is worth it. Honestly, it's not one I can recommend for you right now - your score is below
  what that card requires". A card that is the only card its sentence names is ruled out when
  that sentence, or the next one if it names no card, says "isn't available (at your score /
  to you)", "please don't apply", "not one I can recommend", "can't recommend it", "your score
  is below", "would likely be declined" (for the eligibility and disclosure rules).
  Example: "The Vista Clear would be ideal, though it isn't available at your score yet."
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from replicas.verifiers.compliance.mentions import (
    AMBIGUOUS,
    EXACT,
    UNKNOWN,
    NameMention,
    tokens_of,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from replicas.verifiers.compliance.claims import Extraction
    from replicas.verifiers.compliance.names import NameIndex
    from replicas.verifiers.compliance.recommend import Recommendations


# == a shortened name =============================================================================


def _subsequence(short: tuple[str, ...], full: tuple[str, ...]) -> bool:
    it = iter(full)
    return all(w in it for w in short)


# a benchmark rate, not a product: "(usually the Prime Rate)", "the Federal Funds Rate"
_INDEX_WORDS = frozenset(
    {
        ("prime", "rate"),
        ("wsj", "prime", "rate"),
        ("u", "s", "prime", "rate"),
        ("federal", "funds", "rate"),
        ("fed", "funds", "rate"),
        ("base", "rate"),
        ("bank", "rate"),
        ("bank", "of", "england", "base", "rate"),
        ("sofr",),
        ("libor",),
    }
)
_GAP = re.compile(r"[ \t]{2,}|\t")


def _column_gap(index: NameIndex, m: NameMention) -> NameMention | None:
    """The catalog card an invented name read across a column gap starts with
    ("Aspen Platinum Plus   Prism"), as a mention of its own."""
    gap = _GAP.search(m.surface)
    if gap is None:
        return None
    head = m.surface[: gap.start()]
    card_id = index.card_by_words.get(tokens_of(head))
    if card_id is None:
        return None
    return NameMention(m.start, m.start + len(head), EXACT, card_id, head)


# "the crest rewards plus is worth a look": a lower-case tier word after a name, before a verb
_TIER_AFTER = re.compile(
    r"[ \t]+(?P<tier>[a-z0-9]+)(?=[ \t]+(?:is|has|was|would|could|might|will|offers?|gives?"
    r"|costs?|earns?|pays?|charges?|comes?|gets?|looks?)\b|[ \t]*[.,;!?)](?:[ \t\n]|$))"
)
_THE_BEFORE = re.compile(r"\bthe[ \t]+$")


def _added_tier(index: NameIndex, text: str, m: NameMention) -> NameMention | None:
    """An invented lower-case name: "the <catalog name> <tier word it lacks>" before a verb."""
    if m.kind != EXACT or m.card_id is None or not m.surface.islower():
        return None
    after = _TIER_AFTER.match(text, m.end)
    if after is None or after.group("tier") not in index.tiers:
        return None
    if _THE_BEFORE.search(text, max(0, m.start - 5), m.start) is None:
        return None
    words = (*index.words_by_card[m.card_id], after.group("tier"))
    if words in index.card_by_words or after.group("tier") in index.words_by_card[m.card_id]:
        return None
    surface = text[m.start : after.end()]
    return NameMention(m.start, after.end(), UNKNOWN, None, surface, (index.name_of(m.card_id),))


def tiers_22b(index: NameIndex, text: str, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with a lower-case catalog name followed by a tier word it lacks read as an
    invented card (module docstring)."""
    out: list[NameMention] = []
    for m in mentions:
        added = _added_tier(index, text, m)
        out.append(m if added is None else added)
    return out


def short_names_22b(index: NameIndex, mentions: Sequence[NameMention]) -> list[NameMention]:
    """The mentions with an invented name that shortens a card the response names in full read
    as that card (or as ambiguous, of several), a name read across a column gap cut at the gap,
    and a benchmark rate dropped (module docstring)."""
    if not any(m.kind == UNKNOWN for m in mentions):
        return list(mentions)
    kept: list[NameMention] = []
    for m in mentions:
        if m.kind == UNKNOWN:
            words = tokens_of(m.surface)
            if words and words[0] == "the":
                words = words[1:]
            if words in _INDEX_WORDS:
                continue
            cut = _column_gap(index, m)
            if cut is not None:
                m = cut
        kept.append(m)
    mentions = kept
    named = {m.card_id for m in mentions if m.kind == EXACT and m.card_id is not None}
    if not named:
        return list(mentions)
    full = {c: index.words_by_card[c] for c in named}
    out: list[NameMention] = []
    for m in mentions:
        if m.kind != UNKNOWN:
            out.append(m)
            continue
        words = tokens_of(m.surface)
        if words and words[0] == "the":
            words = words[1:]
        hits = [
            c
            for c, name in full.items()
            if 1 <= len(words) < len(name) and words[0] == name[0] and _subsequence(words, name)
        ]
        if len(hits) == 1:
            out.append(NameMention(m.start, m.end, EXACT, hits[0], m.surface))
        elif hits:
            out.append(NameMention(m.start, m.end, AMBIGUOUS, None, m.surface))
        else:
            out.append(m)
    return out


# == picks ========================================================================================

_SENTENCE_STOP = re.compile(r"[.!?](?=[ \t\n)*_]|$)|\n")
_GOOD = r"(?:good|great|solid|strong|excellent|decent|fine|safe|sensible|smart|top|best)"
_PICK_NOUN = r"(?:picks?|fits?|options?|choices?|matches?|bets?|cards?[ \t]+for[ \t]+you)"
# "Both are good picks", "All three are solid options for you", "It's a great fit for you"
_CONFIRM = re.compile(
    r"\b(?P<subj>both(?:[ \t]+of[ \t]+(?:them|these))?|all[ \t]+(?P<n>two|three|four|2|3|4)"
    r"(?:[ \t]+of[ \t]+(?:them|these))?|it|this[ \t]+one|that[ \t]+one)"
    r"[ \t]*(?:'s|'re|[ \t]+(?:is|are|would[ \t]+be|make|makes|look|looks))[ \t]+"
    r"(?:(?:really|very|both|all|equally|genuinely)[ \t]+)?(?:an?[ \t]+)?"
    rf"{_GOOD}[ \t]+{_PICK_NOUN}\b"
)
_NEGATED = re.compile(r"\b(?:not|n't|never|neither|nor|no)\b")
_PICK_REACH = 40  # mentions looked back at for "both" / "all N"
_COUNT = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}
# "- rec: X", "rec X:", "* recs: X"
_REC_LINE = re.compile(
    r"^[ \t]*(?:[-*•+][ \t]*)?(?:recs?|rec'd)\b[ \t]*:?[ \t]*(?:the[ \t]+)?(?=#)", re.MULTILINE
)
# "my top 2 for u:", "my picks:", "our top three:"
_TOP_LEAD = re.compile(
    r"\b(?:my|our)[ \t]+(?:top[ \t]+(?:\d|two|three|four|picks?|choices?)|picks?|choices?)\b"
    r"[^:\n.!?]{0,30}:"
)
_ENUM_BEFORE = re.compile(r"(?:^|[ \t,;])\d[.)][ \t]*(?:the[ \t]+)?$")
# a card ruled out in new words
_RULED = re.compile(
    r"\b(?:(?:isn't|is[ \t]+not|aren't|not)[ \t]+(?:available|open)[ \t]+(?:to[ \t]+you|for[ \t]+you"
    r"|at[ \t]+your|with[ \t]+your|yet|right[ \t]+now)"
    r"|(?:please[ \t]+)?(?:don't|do[ \t]+not)[ \t]+apply\b"
    r"|not[ \t]+(?:one|a[ \t]+card|something)[ \t]+(?:i|we)[ \t]*(?:can|could|would|'d)[ \t]+"
    r"(?:recommend|suggest)"
    r"|(?:can't|cannot|couldn't|won't|wouldn't)[ \t]+(?:recommend|suggest)[ \t]+(?:it|that|this)"
    r"|your[ \t]+(?:credit[ \t]+)?score[ \t]+is[ \t]+(?:below|under|too[ \t]+low)"
    r"|(?:likely|probably)[ \t]+(?:be[ \t]+)?(?:declined|denied|rejected))"
)


# the literal words each reading needs (found with ``str.find``, then the reading's regex is
# tried in a window around them: a regex with no literal prefix over the whole text costs a
# tenth of a response's verification)
_RULED_KEYS = (
    "available", "t open", "t apply", "recommend", "suggest", "score is", "declined", "denied",
    "rejected",
)  # fmt: skip
_CONFIRM_KEYS = (" pick", " fit", "option", "choice", " match", " bet", "cards for you")
_TOP_KEYS = ("my top", "our top", "my pick", "our pick", "my choice", "our choice")


def _windowed(
    masked: str, pattern: re.Pattern[str], keys: Sequence[str], before: int, after: int
) -> list[re.Match[str]]:
    """The matches of ``pattern`` that hold one of ``keys`` (searched within ``before`` /
    ``after`` characters of each key), in text order, each once."""
    found: dict[int, re.Match[str]] = {}
    for key in keys:
        at = masked.find(key)
        while at >= 0:
            m = pattern.search(masked, max(0, at - before), min(len(masked), at + len(key) + after))
            if m is not None and m.start() <= at < m.end():
                found.setdefault(m.start(), m)
            at = masked.find(key, at + 1)
    return [found[k] for k in sorted(found)]


def _sentence_of(masked: str, pos: int) -> tuple[int, int]:
    lo = max(0, pos - 400)
    a = lo
    for m in _SENTENCE_STOP.finditer(masked, lo, pos):
        a = m.end()
    end = _SENTENCE_STOP.search(masked, pos, min(len(masked), pos + 400))
    return a, end.end() if end else min(len(masked), pos + 400)


def picks_22b(masked: str, extraction: Extraction, recs: Recommendations) -> Recommendations:
    """``recs`` with the picks confirmed after their list, CRM "rec" lines and inline numbered
    picks recommended, and cards ruled out in new words ruled out (module docstring)."""
    from replicas.verifiers.compliance.recommend import Recommendations

    mentions = [m for m in extraction.mentions if m.card_id is not None and m.kind != AMBIGUOUS]
    if not mentions:
        return recs
    starts = [m.start for m in mentions]
    positive = dict(recs.positive)
    negated = set(recs.negated)
    ruled: set[str] = set()
    # ruled out in new words: in a sentence that names one card alone, or in the sentence after
    # it that names no card (searched where the words are, never per mention)
    for hit in _windowed(masked, _RULED, _RULED_KEYS, 48, 40):
        a, b = _sentence_of(masked, hit.start())
        own = {x.card_id for x in mentions[bisect_left(starts, a) : bisect_left(starts, b)]}
        if not own and a > 0 and masked.find("\n\n", max(0, a - 2), a + 1) < 0:
            c, _ = _sentence_of(masked, a - 1)
            own = {x.card_id for x in mentions[bisect_left(starts, c) : bisect_left(starts, a)]}
        if len(own) == 1:
            ruled.update(own)
    added: dict[str, NameMention] = {}
    # "Both are good picks", "It's a great fit for you"
    for conf in _windowed(masked, _CONFIRM, _CONFIRM_KEYS, 80, 12):
        a, b = _sentence_of(masked, conf.start())
        if masked[a : conf.start()].strip(" \t*_-•>") != "":
            continue  # the subject opens its sentence
        semi = masked.find(";", conf.end(), b)
        if _NEGATED.search(masked, a, semi if semi >= 0 else b) is not None:
            continue
        subj = conf.group("subj")
        n = 2 if subj.startswith("both") else _COUNT[conf.group("n")] if conf.group("n") else 1
        k = bisect_left(starts, a)
        if not k:
            continue
        if n == 1:
            c, _ = _sentence_of(masked, mentions[k - 1].start)
            j = bisect_left(starts, c)
            if len({x.card_id for x in mentions[j:k]}) != 1:
                continue
            picked = [mentions[k - 1]]
        else:
            picked = []
            seen: set[str] = set()
            for j in range(k - 1, max(-1, k - 1 - _PICK_REACH), -1):
                x = mentions[j]
                if x.card_id not in seen:
                    seen.add(x.card_id)
                    picked.append(x)
                if len(seen) == n:
                    break
            if len(seen) != n:
                continue
        for x in picked:
            added.setdefault(x.card_id, x)
    # CRM shorthand: "- rec: X"
    for rec in _REC_LINE.finditer(masked):
        k = bisect_left(starts, rec.end())
        if k < len(mentions) and starts[k] == rec.end():
            added.setdefault(mentions[k].card_id, mentions[k])
    # "my top 2 for u: 1) X ... 2) Y"
    for lead in _windowed(masked, _TOP_LEAD, _TOP_KEYS, 0, 48):
        stop = masked.find("\n", lead.end())
        stop = len(masked) if stop < 0 else stop
        for m in mentions[bisect_left(starts, lead.end()) : bisect_left(starts, stop)]:
            if _ENUM_BEFORE.search(masked, max(lead.end(), m.start - 12), m.start):
                added.setdefault(m.card_id, m)
    changed = False
    for card_id, m in added.items():
        if card_id in negated or card_id in ruled or card_id in positive:
            continue
        positive[card_id] = m
        changed = True
    for card_id in ruled:
        positive.pop(card_id, None)
        if card_id not in negated:
            negated.add(card_id)
            changed = True
    if not changed:
        return recs
    return Recommendations(positive, frozenset(negated))


__all__ = ["picks_22b", "short_names_22b", "tiers_22b"]
