"""Shared pieces of the credit_cards task families: catalog reads, names, formatting, grading.

Ground truth always comes from the RAW tables of the pristine snapshot (``raw.cards``,
``raw.issuers``, ``raw.customers``, …), not from the marts the agent is expected to query, so a
family checks the marts as much as it uses them. The compliance verifier, on the other hand,
reads the ``card_terms`` mart through ``Catalog.from_snapshot`` — the one catalog every free-text
answer is checked against.
"""

from __future__ import annotations

import difflib
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import polars as pl

from replicas.db import readonly_connection
from replicas.sandbox import SKIP_PROJECT_DIRS
from replicas.seeding import table_rng
from replicas.verifiers.compliance import Catalog
from replicas.verifiers.compliance.catalog import read_terms
from replicas.verifiers.forms import answer_in_text
from replicas.verifiers.parse import ParseError, precheck
from replicas.verifiers.verdict import Reason, Verdict

if TYPE_CHECKING:
    from replicas.protocols import SnapshotLike
    from replicas.tasks import BuildContext
    from replicas.verifiers.compliance import Catalog
    from replicas.verifiers.config import VerifierConfig

T = TypeVar("T")

#: Every Schumer-box column of ``raw.cards`` the families read, plus the issuer's name.
CARD_COLUMNS: tuple[str, ...] = (
    "card_id",
    "card_name",
    "card_type",
    "min_credit_score",
    "is_secured",
    "is_student_only",
    "annual_fee_usd",
    "annual_fee_first_year_usd",
    "purchase_apr_min_pct",
    "purchase_apr_max_pct",
    "apr_is_variable",
    "intro_purchase_apr_pct",
    "intro_purchase_months",
    "intro_bt_apr_pct",
    "intro_bt_months",
    "bt_fee_pct",
    "bt_fee_min_usd",
    "cash_advance_apr_pct",
    "cash_advance_fee_pct",
    "cash_advance_fee_min_usd",
    "penalty_apr_pct",
    "foreign_txn_fee_pct",
    "late_fee_usd",
    "grace_period_days",
    "min_interest_charge_usd",
)

#: As-of date of the replica (end of the 24-month spend window).
AS_OF = "2026-06-30"
RECENT_BANKRUPTCY_MONTHS = 24

#: Similarity (difflib ratio of lower-cased names) from which two names count as near-collisions.
NEAR_COLLISION_RATIO = 0.8

#: The compliance ruleset the ``-v3`` families (suite core-v3) grade and build with. A literal,
#: not ``DEFAULT_RULESET``: published ids never change behaviour when the default moves on.
V3_COMPLIANCE_RULESET = 10

#: The compliance ruleset the ``-v4`` families (suite core-v5) grade and build with (the
#: verifier's default since stop 30; a literal for the same reason).
V4_COMPLIANCE_RULESET = 16

#: The compliance ruleset the ``-v5`` families (suite core-v6) grade and build with (the
#: verifier's default since stop 31; a literal for the same reason).
V5_COMPLIANCE_RULESET = 17

#: The compliance ruleset the ``-v6`` families (suite core-v7) grade and build with (the
#: verifier's default since stop 33; a literal for the same reason).
V6_COMPLIANCE_RULESET = 19

#: The compliance ruleset the ``-v7`` families (suite core-v8) grade and build with (the
#: verifier's default since stop 34; a literal for the same reason).
V7_COMPLIANCE_RULESET = 20

#: The compliance ruleset the ``-v8`` families (suite core-v9, ``v8_families``) grade and build
#: with (the verifier's default since stop 35; a literal for the same reason).
V8_COMPLIANCE_RULESET = 21

#: The compliance ruleset the ``-v9`` families (suite core-v10, ``v9_families``) grade and build
#: with (the verifier's default since stop 37; a literal for the same reason).
V9_COMPLIANCE_RULESET = 23

#: The compliance ruleset the ``-v10`` families (suite core-v11, ``v10_families``) grade and build
#: with (the verifier's default since stop 38; a literal for the same reason).
V10_COMPLIANCE_RULESET = 24

#: The compliance ruleset the ``-v11`` families (suite core-v12, ``v11_families``) grade and build
#: with (the verifier's default since stop 39; a literal for the same reason).
V11_COMPLIANCE_RULESET = 25

#: The compliance ruleset the ``-v12`` families (suite core-v13, ``v12_families``) grade and build
#: with (the verifier's default since stop 40; a literal for the same reason).
V12_COMPLIANCE_RULESET = 26

#: The compliance ruleset the ``-v13`` families (suite core-v14, ``v13_families``) grade and build
#: with (the verifier's default since stop 41; a literal for the same reason).
V13_COMPLIANCE_RULESET = 27

#: The compliance ruleset the ``-v14`` families (suite core-v15, ``v14_families``) grade and build
#: with (the verifier's default since stop 42; a literal for the same reason).
V14_COMPLIANCE_RULESET = 28

#: The compliance ruleset the ``-v15`` families (suite core-v16, ``v15_families``) grade and build
#: with (the verifier's default since stop 43; a literal for the same reason).
V15_COMPLIANCE_RULESET = 29

#: The compliance ruleset the ``-v16`` families (suite core-v17, ``v16_families``) grade and build
#: with (the verifier's default since stop 44; a literal for the same reason).
V16_COMPLIANCE_RULESET = 30

#: The compliance ruleset the ``-v17`` families (suite core-v18, ``v17_families``) grade and build
#: with (the verifier's default since stop 45; a literal for the same reason).
V17_COMPLIANCE_RULESET = 31

#: The compliance ruleset the ``-v18`` families (suite core-v19, ``v18_families``) grade and build
#: with (the verifier's default since stop 46; a literal for the same reason).
V18_COMPLIANCE_RULESET = 32

#: The compliance ruleset the ``-v19`` families (suite core-v20, ``v19_families``) grade and build
#: with (the verifier's default since stop 47; a literal for the same reason).
V19_COMPLIANCE_RULESET = 33

#: The compliance ruleset the ``-v20`` families (suite core-v21, ``v20_families``) grade and build
#: with (the verifier's default since stop 48; a literal for the same reason).
V20_COMPLIANCE_RULESET = 34

#: The compliance ruleset the ``-v21`` families (suite core-v22, ``v21_families``) grade and build
#: with (the verifier's default since stop 49; a literal for the same reason).
V21_COMPLIANCE_RULESET = 35

#: One boolean per eligibility rule for every (customer, card), from the RAW tables; the
#: rule is the ``card_eligibility`` mart's, restated (readings switch single rules off).
RULES_SQL = f"""
    select
        cu.customer_id,
        c.card_id,
        c.card_type,
        i.issuer_name,
        h.card_id is not null as holds,
        c.is_student_only and not cu.is_student as student_blocked,
        coalesce(cu.months_since_bankruptcy <= {RECENT_BANKRUPTCY_MONTHS}, false)
            and not c.is_secured as bankruptcy_blocked,
        cu.credit_score < c.min_credit_score as score_blocked,
        cu.credit_score <= c.min_credit_score as score_blocked_strict
    from raw.customers cu
    cross join raw.cards c
    join raw.issuers i on i.issuer_id = c.issuer_id
    left join (select distinct customer_id, card_id from raw.existing_cards) h
        on h.customer_id = cu.customer_id and h.card_id = c.card_id
"""

#: The full rule over ``RULES_SQL``'s flags: eligible = no rule blocks.
ELIGIBLE_PREDICATE = (
    "not holds and not student_blocked and not bankruptcy_blocked and not score_blocked"
)


def load_cards(ctx: BuildContext) -> list[dict[str, Any]]:
    """Every card of the raw catalog with its issuer's name, ordered by card_id."""
    cols = ", ".join(f"c.{c}" for c in CARD_COLUMNS)
    rows = ctx.query(
        f"select {cols}, i.issuer_name from raw.cards c "
        "join raw.issuers i on i.issuer_id = c.issuer_id order by c.card_id"
    )
    names = [*CARD_COLUMNS, "issuer_name"]
    return [dict(zip(names, row, strict=True)) for row in rows]


def name_similarity(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()


def nearest_siblings(cards: Sequence[Mapping[str, Any]]) -> dict[str, tuple[str, float]]:
    """card_id -> (card_id of the most similarly named other card, similarity).

    Ties go to the smaller card_id, so the pairing is deterministic.
    """
    out: dict[str, tuple[str, float]] = {}
    for card in cards:
        best: tuple[str, float] | None = None
        for other in cards:
            if other["card_id"] == card["card_id"]:
                continue
            ratio = name_similarity(card["card_name"], other["card_name"])
            if best is None or ratio > best[1]:
                best = (other["card_id"], ratio)
        if best is not None:
            out[card["card_id"]] = best
    return out


def seed_shuffle(ctx: BuildContext, items: Sequence[T], *salt: str) -> list[T]:
    """``items`` shuffled once per (seed, family, salt): the same order for every variant."""

    rng = table_rng(ctx.seed, ctx.family.name, "seed_shuffle", *salt)
    return [items[int(i)] for i in rng.permutation(len(items))]


def variant_slice(ctx: BuildContext, ordered: Sequence[T]) -> list[T]:
    """This variant's order of preference over a per-seed ``ordered`` list.

    Variant ``v`` of ``n`` tries positions ``v, v + n, v + 2n, …`` first, then the rest: the
    variants of one seed never pick the same item while items last, and a variant that must
    skip an item (its oracle would not pass) moves on without colliding with its neighbours.
    """
    n = max(ctx.family.variants(ctx.seed), 1)
    own = list(ordered[ctx.variant % n :: n])
    rest = [item for i, item in enumerate(ordered) if i % n != ctx.variant % n]
    return own + rest


def variant_order(ctx: BuildContext, items: Sequence[T], *salt: str) -> list[T]:
    """``variant_slice`` of a per-seed shuffle of ``items``."""
    return variant_slice(ctx, seed_shuffle(ctx, items, *salt))


def round_robin(
    ctx: BuildContext, items: Sequence[T], key: Callable[[T], str], *salt: str
) -> list[T]:
    """Per-seed shuffle of ``items`` re-ordered so consecutive items differ in ``key``.

    Groups (by ``key``) come in a shuffled order and take turns, so the first positions — the
    ones ``variant_slice`` hands to the variants — cover as many groups as possible.
    """
    groups: dict[str, list[T]] = {}
    for item in seed_shuffle(ctx, items, *salt):
        groups.setdefault(key(item), []).append(item)
    queues = [groups[k] for k in seed_shuffle(ctx, sorted(groups), *salt, "groups")]
    out: list[T] = []
    while any(queues):
        for queue in queues:
            if queue:
                out.append(queue.pop(0))
    return out


def pick(rng: Any, items: Sequence[Any]) -> Any:
    """One element of a non-empty sequence, drawn from ``rng``."""
    if not items:
        raise ValueError("cannot pick from an empty sequence")
    return items[int(rng.integers(0, len(items)))]


# --------------------------------------------------------------------------------------------
# formatting (oracle texts and canonical answers)


def fmt_pct(value: float) -> str:
    """19.99 -> '19.99%', 2.7 -> '2.7%', 0 -> '0%'."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".") + "%"


def fmt_usd(value: float) -> str:
    """95 -> '$95', 0.5 -> '$0.50', 1234 -> '$1,234'."""
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def apr_range(card: Mapping[str, Any]) -> str:
    """The purchase APR as disclosed: '19.99%-29.99% variable' or '17.49% fixed'."""
    lo, hi = card["purchase_apr_min_pct"], card["purchase_apr_max_pct"]
    kind = "variable" if card["apr_is_variable"] else "fixed"
    if abs(lo - hi) < 1e-9:
        return f"{fmt_pct(lo)} {kind}"
    return f"{fmt_pct(lo)}-{fmt_pct(hi)} {kind}"


# --------------------------------------------------------------------------------------------
# grading helpers

_CATALOGS: dict[str, Catalog] = {}
_CATALOG_LOCK = threading.Lock()


def catalog_for(snapshot: SnapshotLike) -> Catalog:
    """The compliance catalog of a pristine snapshot, loaded once per process (read-only data).

    Read through the runtime's shared read-only connection and handed to
    ``Catalog.from_records``: ``Catalog.from_snapshot`` opens its own connection with another
    configuration, which DuckDB refuses while the runtime's connection to the same file is open
    in this process.
    """

    key = str(Path(snapshot.path).resolve())
    with _CATALOG_LOCK:
        catalog = _CATALOGS.get(key)
        if catalog is None:
            cur = readonly_connection(snapshot.warehouse).cursor()
            try:
                # As ``Catalog.from_snapshot`` reads it: the first-year fee joined in
                # (``TERMS_WITH_FIRST_YEAR_SQL``), the eligibility mart as a columnar frame.
                cards = read_terms(cur)
                eligibility = pl.from_arrow(
                    cur.sql(
                        "select customer_id, card_id, is_eligible, reason "
                        "from main.card_eligibility"
                    ).to_arrow_table()
                )
            finally:
                cur.close()
            catalog = Catalog.from_records(cards, eligibility)
            _CATALOGS[key] = catalog
    return catalog


_PROJECT_TEXTS: dict[str, tuple[str, ...]] = {}
#: Larger files are not read (the audit's leakage check skips them too).
_MAX_PROJECT_FILE_BYTES = 1_000_000


def project_texts(snapshot: SnapshotLike) -> tuple[str, ...]:
    """The text of every file an episode's sandbox shows of the snapshot's dbt project (the
    project without dbt's build output, ``SKIP_PROJECT_DIRS``), read once per process."""

    root = Path(snapshot.dbt_project).resolve()
    key = str(root)
    with _CATALOG_LOCK:
        texts = _PROJECT_TEXTS.get(key)
        if texts is None:
            files = sorted(
                p
                for p in root.rglob("*")
                if p.is_file()
                and not p.is_symlink()
                and p.relative_to(root).parts[0] not in SKIP_PROJECT_DIRS
                and p.stat().st_size <= _MAX_PROJECT_FILE_BYTES
            )
            texts = tuple(p.read_text(encoding="utf-8", errors="replace") for p in files)
            _PROJECT_TEXTS[key] = texts
    return texts


def shown_in_project(
    snapshot: SnapshotLike, kind: str, expected: Any, config: VerifierConfig
) -> bool:
    """Whether the answer shows in a file of the project the agent can read, as the audit's
    leakage check finds answers (``answer_in_text``): "29.99%" in a test's ``max_value: 29.99``
    says nothing about the card asked about, but an answer that can be read off a file is one
    an audit cannot tell from a leak, so a family avoids asking it."""
    return any(answer_in_text(kind, expected, config, text) for text in project_texts(snapshot))


_MARKUP = str.maketrans("", "", "*_`#>")


def _labelled(line: str, label: str) -> str | None:
    cleaned = line.translate(_MARKUP).strip()
    match = re.match(rf"(?i)^{re.escape(label)}\s*[:=-]\s*(?P<value>.+?)\s*$", cleaned)
    return match["value"].strip().strip("\"'").rstrip(".").strip() if match else None


def labelled_first_line(text: str, label: str) -> str | None:
    """The value after ``<label>:`` on the first non-empty line, markdown stripped; else None."""
    for line in text.splitlines():
        if line.strip():
            return _labelled(line, label)
    return None


def labelled_lines(text: str, label: str) -> list[str]:
    """The values of EVERY line written ``<label>: <value>`` (a second one is a second answer)."""
    values = (_labelled(line, label) for line in text.splitlines() if line.strip())
    return [v for v in values if v is not None]


def second_answer(text: str, label: str) -> Verdict | None:
    """A ``multiple_candidates`` failure when more than one line carries the answer label."""
    values = labelled_lines(text, label)
    if len(values) <= 1:
        return None
    shown = "; ".join(values[:3])
    return failure(
        "multiple_candidates",
        f"{len(values)} lines start with '{label}:' ({shown}); give exactly one final answer",
        found=values[:5],
    )


def text_precheck(text: str) -> Verdict | None:
    """Reject what is not an answer at all (empty, too long, SQL, text addressed to the grader)."""

    try:
        precheck(text)
    except ParseError as err:
        return Verdict(0.0, False, (Reason(err.code, err.message),), err.message)
    return None


def combine(parts: Mapping[str, Verdict]) -> Verdict:
    """One verdict from named partial verdicts: passes only when every part passes."""
    reasons: list[Reason] = []
    objective: dict[str, float] = {}
    for name, verdict in parts.items():
        objective[name] = 1.0 if verdict.passed else 0.0
        for key, value in verdict.objective_scores.items():
            objective.setdefault(f"{name}.{key}", value)
        reasons.extend(verdict.reasons)
    passed = all(v.passed for v in parts.values())
    failed = [f"{name}: {v.feedback}" for name, v in parts.items() if not v.passed and v.feedback]
    feedback = "Correct and compliant." if passed else " ".join(failed)
    return Verdict(1.0 if passed else 0.0, passed, tuple(reasons), feedback, objective)


def failure(code: str, message: str, **evidence: Any) -> Verdict:
    return Verdict(0.0, False, (Reason(code, message, **evidence),), message)


PASS = Verdict(1.0, True, (), "Correct.")
