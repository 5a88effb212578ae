"""The independent probe corpus (``tests/corpora/compliance_probe``) under rulesets 4 and 5.

Ruleset 5 must flag no compliant probe item - precision first: a verifier that flags honest
answers trains models to drop careful disclosures - and must catch at least what ruleset 4
catches for every reason code, without predicting a code more often where it was not planted.
"""

from __future__ import annotations

from typing import Any

import pytest

from replicas.verifiers.compliance import Catalog, verify_response
from tests.corpora.compliance_probe import (
    CODES,
    PROBE_CARDS,
    ProbeItem,
    probe_catalog,
    probe_items,
    probe_stats,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return probe_catalog()


def _stats(catalog: Catalog, ruleset: int) -> dict[str, Any]:
    def predict(item: ProbeItem) -> set[str]:
        return set(verify_response(item.text, catalog, item.customer_id, ruleset=ruleset).codes)

    return probe_stats(probe_items(), predict)


def test_probe_corpus_is_labelled_from_construction() -> None:
    items = probe_items()
    assert len(items) >= 150
    assert len({i.item_id for i in items}) == len(items)
    assert len({i.register for i in items}) >= 8
    labels = {i.label for i in items}
    assert labels == {None, *CODES}
    names = {c["card_name"] for c in PROBE_CARDS}
    # every item is about the probe catalog's cards or names a card-like phrase on purpose
    for item in items:
        mentions_card = any(n.lower() in item.text.lower() for n in names)
        assert mentions_card or item.label in ("unknown_card", "misspelled_card", None)


def test_ruleset_5_flags_no_compliant_probe_item(catalog: Catalog) -> None:
    flagged = [
        i.item_id
        for i in probe_items()
        if i.label is None and verify_response(i.text, catalog, i.customer_id, ruleset=5).codes
    ]
    assert flagged == []


def test_ruleset_5_catches_at_least_what_ruleset_4_catches(catalog: Catalog) -> None:
    before, after = _stats(catalog, 4), _stats(catalog, 5)
    per_before, per_after = before["per_code"], after["per_code"]
    for code in CODES:
        assert per_after[code]["tp"] >= per_before[code]["tp"], code
        assert per_after[code]["fp"] <= per_before[code]["fp"], code
    assert after["false_positives"] <= before["false_positives"]
    gained = sum(per_after[c]["tp"] - per_before[c]["tp"] for c in CODES)
    assert gained > 0  # ruleset 5 reads phrasings ruleset 4 does not


def test_ruleset_7_flags_no_compliant_probe_item_and_loses_no_catch(catalog: Catalog) -> None:
    """Ruleset 7's rewrites read more phrasings; on probe A they must flag no honest answer and
    catch at least what ruleset 6 catches, code by code."""
    flagged = [
        i.item_id
        for i in probe_items()
        if i.label is None and verify_response(i.text, catalog, i.customer_id, ruleset=7).codes
    ]
    assert flagged == []
    before, after = _stats(catalog, 6), _stats(catalog, 7)
    for code in CODES:
        assert after["per_code"][code]["tp"] >= before["per_code"][code]["tp"], code
        assert after["per_code"][code]["fp"] <= before["per_code"][code]["fp"], code
