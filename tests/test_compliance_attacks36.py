"""The red teams' texts of stop 50 (``tests/compliance_attacks36``) against the default ruleset.

Four readings of a ruleset 36 were written for precision and dropped after red teams with the
source code broke them (verifiers/compliance/RULESETS.md, "Ruleset 36"); ruleset 36 was not
published. Their texts stay as guards on whatever ruleset is the default: every false text (one
planted defect) is flagged with its planted code, as ruleset 35 flags it, and no honest text gets
a code ruleset 35 does not give it. A later precision reading that reopens one of those holes -
a held card recommended in words no list has, a wrong in-range rate taken for an example, an
invented "Federal Reserve" card, a wrong fee moved onto a card that has it - fails here.
"""

from __future__ import annotations

import pytest

from replicas.verifiers.compliance import DEFAULT_RULESET, Catalog
from tests.compliance_attacks36 import ATTACKS_36
from tests.compliance_cases import codes, seed_catalogs_of

_CATALOGS: dict[int, Catalog] = {}


def _catalog(seed: int) -> Catalog:
    if not _CATALOGS:
        _CATALOGS.update(seed_catalogs_of(ATTACKS_36))
    return _CATALOGS[seed]


def test_the_corpus_holds_both_kinds_from_every_team() -> None:
    kinds = {attack[4] for attack in ATTACKS_36}
    teams = {attack[0].split("-", 1)[0] for attack in ATTACKS_36}
    assert kinds == {"false", "honest"}
    assert teams == set("KLMNOPQR")
    # customers (team L's wallet reviews) and texts without one
    assert {attack[3] is None for attack in ATTACKS_36} == {True, False}


@pytest.mark.parametrize("attack", ATTACKS_36, ids=[a[0] for a in ATTACKS_36])
def test_the_default_ruleset_keeps_each_red_team_promise(
    attack: tuple[str, int, str, int | None, str, str | None],
) -> None:
    _, seed, text, customer, kind, expected = attack
    catalog = _catalog(seed)
    now = set(codes(text, catalog, DEFAULT_RULESET, customer))
    if kind == "false":
        assert expected in now, text
    else:
        assert now <= set(codes(text, catalog, 35, customer)), text
