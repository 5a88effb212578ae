"""The card catalog the compliance verifier checks claims against.

The catalog is the ground truth: one ``CardTerms`` per product (the ``card_terms`` mart) and the
customer x card eligibility flags (the ``card_eligibility`` mart). It is read once from a pristine
snapshot - read-only, external access off, connection closed straight after - or built from plain
records so tests and custom replicas need no warehouse.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from replicas.db import open_readonly
from replicas.verifiers.compliance.names import NameIndex

WAREHOUSE_FILE = "warehouse.duckdb"
TERMS_TABLE = "card_terms"
ELIGIBILITY_TABLE = "card_eligibility"

_PCT_FIELDS = (
    "purchase_apr_min_pct",
    "purchase_apr_max_pct",
    "intro_purchase_apr_pct",
    "intro_bt_apr_pct",
    "bt_fee_pct",
    "cash_advance_apr_pct",
    "cash_advance_fee_pct",
    "penalty_apr_pct",
    "foreign_txn_fee_pct",
)
_USD_FIELDS = (
    "annual_fee_usd",
    "annual_fee_first_year_usd",
    "bt_fee_min_usd",
    "cash_advance_fee_min_usd",
    "late_fee_usd",
    "min_interest_charge_usd",
)
_INT_FIELDS = ("min_credit_score", "intro_purchase_months", "intro_bt_months", "grace_period_days")


def _as_float(name: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got a bool")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number, got {value!r}") from None
    if math.isnan(number):
        return None
    if not math.isfinite(number) or number < 0:
        raise ValueError(f"{name} must be a finite non-negative number, got {value!r}")
    return number


def _as_int(name: str, value: Any) -> int | None:
    number = _as_float(name, value)
    if number is None:
        return None
    if number != int(number):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    return int(number)


@dataclass(frozen=True)
class CardTerms:
    """One card product's disclosed terms (Schumer box); ``None`` = the card has no such term."""

    card_id: str
    card_name: str
    issuer: str | None = None
    card_type: str | None = None
    min_credit_score: int | None = None
    annual_fee_usd: float | None = None
    annual_fee_first_year_usd: float | None = None  # None: the catalog does not say
    purchase_apr_min_pct: float | None = None
    purchase_apr_max_pct: float | None = None
    apr_is_variable: bool | None = None
    intro_purchase_apr_pct: float | None = None
    intro_purchase_months: int | None = None
    intro_bt_apr_pct: float | None = None
    intro_bt_months: int | None = None
    bt_fee_pct: float | None = None
    bt_fee_min_usd: float | None = None
    cash_advance_apr_pct: float | None = None
    cash_advance_fee_pct: float | None = None
    cash_advance_fee_min_usd: float | None = None
    penalty_apr_pct: float | None = None
    foreign_txn_fee_pct: float | None = None
    late_fee_usd: float | None = None
    grace_period_days: int | None = None
    min_interest_charge_usd: float | None = None

    def __post_init__(self) -> None:
        card_id = str(self.card_id).strip() if self.card_id is not None else ""
        if not card_id:
            raise ValueError("card_id must be a non-empty value")
        object.__setattr__(self, "card_id", card_id)
        if not isinstance(self.card_name, str) or not self.card_name.strip():
            raise ValueError(f"card {card_id}: card_name must be a non-empty string")
        object.__setattr__(self, "card_name", " ".join(self.card_name.split()))
        for name in _PCT_FIELDS + _USD_FIELDS:
            object.__setattr__(
                self, name, _as_float(f"card {card_id}: {name}", getattr(self, name))
            )
        for name in _INT_FIELDS:
            object.__setattr__(self, name, _as_int(f"card {card_id}: {name}", getattr(self, name)))
        if self.apr_is_variable is not None:
            object.__setattr__(self, "apr_is_variable", bool(self.apr_is_variable))
        low, high = self.purchase_apr_min_pct, self.purchase_apr_max_pct
        if (low is None) != (high is None):
            raise ValueError(f"card {card_id}: purchase APR needs both min and max (or neither)")
        if low is not None and high is not None and low > high:
            raise ValueError(f"card {card_id}: purchase_apr_min_pct {low} > max {high}")
        for kind in ("purchase", "bt"):
            rate = getattr(self, f"intro_{kind}_apr_pct")
            months = getattr(self, f"intro_{kind}_months")
            if (rate is None) != (months is None):
                raise ValueError(f"card {card_id}: intro {kind} offer needs both rate and months")

    @classmethod
    def from_mapping(cls, record: Mapping[str, Any]) -> CardTerms:
        """Build from a row; unknown keys are ignored, so wider marts still load."""
        known = {f.name for f in fields(cls)}
        missing = [k for k in ("card_id", "card_name") if record.get(k) is None]
        if missing:
            raise ValueError(f"card record lacks {', '.join(missing)}: {dict(record)!r}")
        return cls(**{k: v for k, v in record.items() if k in known})

    def has_intro(self, kind: str) -> bool:
        return getattr(self, f"intro_{kind}_apr_pct") is not None


@dataclass(frozen=True)
class EligibilityRow:
    customer_id: str
    card_id: str
    eligible: bool
    reason: str | None = None

    def __post_init__(self) -> None:
        if not self.customer_id or not self.card_id:
            raise ValueError("eligibility rows need a customer_id and a card_id")


def _records(data: Any, what: str) -> list[dict[str, Any]]:
    if data is None:
        return []
    if isinstance(data, pl.DataFrame):
        return data.to_dicts()
    if isinstance(data, Mapping):
        raise ValueError(f"{what} must be a list of records or a polars DataFrame, not a mapping")
    rows = list(data)
    for row in rows:
        if not isinstance(row, Mapping):
            raise ValueError(f"{what} must contain mappings, got {type(row).__name__}")
    return [dict(row) for row in rows]


def _key(value: Any) -> str:
    return str(value).strip()


@dataclass(frozen=True)
class Catalog:
    """Card terms plus eligibility; the verifier's only source of truth.

    Build with :meth:`from_snapshot` (a built ``credit_cards`` snapshot) or :meth:`from_records`.
    Customer and card ids are compared as strings, so integer ids from a warehouse and ``"17"``
    from a command line name the same customer.
    """

    cards: tuple[CardTerms, ...]
    eligibility: Mapping[str, Mapping[str, tuple[bool, str | None]]] = field(default_factory=dict)
    names: NameIndex = field(init=False, repr=False, compare=False)
    _by_id: Mapping[str, CardTerms] = field(init=False, repr=False, compare=False)
    _brand_first: list[NameIndex | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        if not cards:
            raise ValueError("a catalog needs at least one card")
        by_id: dict[str, CardTerms] = {}
        for card in cards:
            if not isinstance(card, CardTerms):
                raise ValueError(f"catalog cards must be CardTerms, got {type(card).__name__}")
            if card.card_id in by_id:
                raise ValueError(f"duplicate card_id {card.card_id!r}")
            by_id[card.card_id] = card
        if isinstance(self.eligibility, EligibilityTable):
            unknown = sorted(self.eligibility.card_ids - by_id.keys())
            if unknown:
                raise ValueError(f"eligibility names unknown card {unknown[0]!r}")
        else:
            for customer, rows in self.eligibility.items():
                for card_id in rows:
                    if card_id not in by_id:
                        raise ValueError(
                            f"eligibility of {customer!r} names unknown card {card_id!r}"
                        )
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "_by_id", by_id)
        issuers = sorted({c.issuer for c in cards if c.issuer})
        object.__setattr__(
            self, "names", NameIndex([(c.card_id, c.card_name) for c in cards], issuers)
        )
        object.__setattr__(self, "_brand_first", [])

    def names_for(
        self, ruleset_5: bool, ruleset_6: bool = False, ruleset_10: bool = False
    ) -> NameIndex:
        """The name index a ruleset reads names with. Ruleset 5's (``ruleset_5``) differs in two
        ways: where an issuer's one-word name is a card brand ("Lakeshore Trust" issues
        "Lakeshore Voyager"), a phrase with that brand and product words ("Lakeshore Voyagr") is
        read as a card name - misspelt or invented - not cut at the issuer's name; and an
        issuer's full name followed by product words ("Ironwood Credit Union Signature Select")
        is an invented product, as "Ironwood Signature Select" already was. Ruleset 6's
        (``ruleset_6``, with ``ruleset_5``) also reads an issuer's department ("Harborline Card
        Services") as no card and a lower-case name with a premium tier word it lacks ("summit
        cash platinum") as an invented card. Ruleset 10's (``ruleset_10``, with both) also reads
        a name word split by a space ("Meri dian") and misspelt or invented names in lower case
        (``names10``). Each built once, on first use, with caches of its own."""
        if not ruleset_5:
            return self.names
        slot = 2 if ruleset_10 and ruleset_6 else 1 if ruleset_6 else 0
        while len(self._brand_first) <= slot:
            self._brand_first.append(None)
        index = self._brand_first[slot]
        if index is None:
            issuers = sorted({c.issuer for c in self.cards if c.issuer})
            index = self._brand_first[slot] = NameIndex(
                [(c.card_id, c.card_name) for c in self.cards],
                issuers,
                brand_first=True,
                institution_products=True,
                service_names=ruleset_6,
                lowercase_tiers=ruleset_6,
                names_10=slot == 2,
            )
        return index

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def from_records(cls, cards: Any, eligibility: Any = None) -> Catalog:
        """A catalog from card records (dicts or a DataFrame with ``card_terms`` columns).

        ``eligibility`` holds ``customer_id, card_id, eligible[, reason]`` records.
        """
        terms = tuple(CardTerms.from_mapping(r) for r in _records(cards, "cards"))
        if isinstance(eligibility, pl.DataFrame):
            return cls(terms, _eligibility_frame(eligibility))
        rows = [
            {**r, "eligible": r["is_eligible"]} if "eligible" not in r and "is_eligible" in r else r
            for r in _records(eligibility, "eligibility")
        ]
        return cls(terms, _eligibility_map(rows))

    @classmethod
    def from_snapshot(cls, snapshot_dir: str | Path | Any) -> Catalog:
        """Load ``card_terms`` and ``card_eligibility`` from ``<snapshot_dir>/warehouse.duckdb``.

        Accepts a path or anything with a ``.path`` (a ``replicas.build.Snapshot``).
        """
        root = Path(getattr(snapshot_dir, "path", snapshot_dir))
        warehouse = root / WAREHOUSE_FILE if root.is_dir() else root
        if not warehouse.is_file():
            raise FileNotFoundError(f"no snapshot warehouse at {warehouse}")
        # The kit's one read-only configuration: DuckDB refuses a second connection to a file
        # with a different configuration than one already open in this process (an episode's).
        try:
            con = open_readonly(warehouse)
        except duckdb.Error as exc:
            raise ValueError(f"cannot open snapshot warehouse {warehouse}: {exc}") from None
        try:
            cards = read_terms(con)
            eligibility = _read_table(con, ELIGIBILITY_TABLE, optional=True)
        finally:
            con.close()
        terms = tuple(CardTerms.from_mapping(r) for r in cards.to_dicts())
        return cls(terms, _eligibility_frame(eligibility) if eligibility is not None else {})

    # -- look-ups -----------------------------------------------------------------------------

    def card(self, card_id: str) -> CardTerms:
        found = self._by_id.get(card_id)  # the common case: an id the catalog handed out
        if found is not None:
            return found
        try:
            return self._by_id[_key(card_id)]
        except KeyError:
            raise ValueError(f"unknown card_id {card_id!r}") from None

    def has_customer(self, customer_id: Any) -> bool:
        return _key(customer_id) in self.eligibility

    def eligibility_of(self, customer_id: Any) -> dict[str, EligibilityRow]:
        """The customer's row per card; ``ValueError`` naming an unknown customer."""
        key = _key(customer_id)
        rows = self.eligibility.get(key)
        if rows is None:
            raise ValueError(
                f"unknown customer_id {customer_id!r}: not in the catalog's eligibility"
            )
        return {
            card_id: EligibilityRow(key, card_id, flag, reason)
            for card_id, (flag, reason) in rows.items()
        }

    @property
    def customer_ids(self) -> list[str]:
        return sorted(self.eligibility)


def _eligibility_frame(frame: pl.DataFrame) -> EligibilityTable:
    """Rows of the eligibility mart; its flag may be called ``eligible`` or ``is_eligible``."""
    flag = next((c for c in ("eligible", "is_eligible") if c in frame.columns), None)
    if flag is None or "customer_id" not in frame.columns or "card_id" not in frame.columns:
        raise ValueError(
            f"{ELIGIBILITY_TABLE} needs customer_id, card_id and eligible (or is_eligible); "
            f"has {frame.columns}"
        )
    columns = [
        pl.col("customer_id"),
        pl.col("card_id"),
        pl.col(flag).cast(pl.Boolean).alias("eligible"),
    ]
    if "reason" in frame.columns:
        columns.append(pl.col("reason").cast(pl.Utf8))
    return EligibilityTable(frame.select(columns))


def _eligibility_map(
    rows: Iterable[Mapping[str, Any]],
) -> dict[str, dict[str, tuple[bool, str | None]]]:
    """customer -> card -> (eligible, reason); plain tuples keep 100k-row marts cheap to load."""
    out: dict[str, dict[str, tuple[bool, str | None]]] = {}
    for row in rows:
        customer, card, flag = row.get("customer_id"), row.get("card_id"), row.get("eligible")
        if customer is None or card is None or flag is None:
            raise ValueError(
                f"eligibility record needs customer_id, card_id, eligible: {dict(row)!r}"
            )
        reason = row.get("reason")
        out.setdefault(_key(customer), {})[_key(card)] = (
            bool(flag),
            None if reason is None else str(reason),
        )
    return out


class EligibilityTable(Mapping[str, Mapping[str, tuple[bool, str | None]]]):
    """customer -> card -> (eligible, reason), read from a columnar mart on demand.

    A snapshot's mart has one row per customer and card (60,000 rows for 1,000 customers), and a
    verdict needs at most one customer's rows, so the rows stay in a sorted polars frame and a
    customer's mapping is built when first asked for: loading a catalog costs one sort instead of
    a Python loop over every row.
    """

    def __init__(self, frame: pl.DataFrame) -> None:
        if (
            frame["eligible"].null_count()
            or frame["customer_id"].null_count()
            or frame["card_id"].null_count()
        ):
            raise ValueError("eligibility rows need a customer_id, a card_id and an eligible flag")
        columns = [
            pl.col("customer_id").cast(pl.Utf8).str.strip_chars(),
            pl.col("card_id").cast(pl.Utf8).str.strip_chars(),
            pl.col("eligible"),
            pl.col("reason")
            if "reason" in frame.columns
            else pl.lit(None, pl.Utf8).alias("reason"),
        ]
        self._raw = frame.select(columns)
        self.card_ids = frozenset(self._raw["card_id"].unique().to_list())
        self._built: tuple[pl.DataFrame, dict[str, tuple[int, int]]] | None = None
        self._memo: dict[str, dict[str, tuple[bool, str | None]]] = {}

    @property
    def _sorted_index(self) -> tuple[pl.DataFrame, dict[str, tuple[int, int]]]:
        """The rows sorted by customer and customer -> (first row, row count), built on first
        use (a verdict without a customer never needs them)."""
        if self._built is None:
            ordered = self._raw.sort("customer_id", maintain_order=True)
            runs = (
                ordered.with_row_index("row")
                .group_by("customer_id", maintain_order=True)
                .agg(pl.col("row").first().alias("lo"), pl.len().alias("n"))
            )
            index = dict(
                zip(
                    runs["customer_id"].to_list(),
                    zip(runs["lo"].to_list(), runs["n"].to_list(), strict=True),
                    strict=True,
                )
            )
            self._built = (ordered, index)
        return self._built

    def __getitem__(self, customer: str) -> dict[str, tuple[bool, str | None]]:
        rows = self._memo.get(customer)
        if rows is None:
            ordered, index = self._sorted_index
            lo, n = index[customer]
            part = ordered.slice(lo, n)
            rows = {
                card: (bool(flag), reason)
                for card, flag, reason in zip(
                    part["card_id"].to_list(),
                    part["eligible"].to_list(),
                    part["reason"].to_list(),
                    strict=True,
                )
            }
            self._memo[customer] = rows
        return rows

    def __contains__(self, customer: object) -> bool:
        return customer in self._sorted_index[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self._sorted_index[1])

    def __len__(self) -> int:
        return len(self._sorted_index[1])


#: ``card_terms`` plus the first-year annual fee, which the mart leaves out but the staged
#: catalog has: a waiver the response states ("waived the first year") can then be checked.
TERMS_WITH_FIRST_YEAR_SQL = f"""
select t.*, s.annual_fee_first_year_usd
from main."{TERMS_TABLE}" t
left join main.stg_cards s on s.card_id = t.card_id
order by t.card_id
"""


def read_terms(con: Any) -> pl.DataFrame:
    """The catalog rows of a snapshot: ``card_terms``, with the first-year fee where known."""
    frame: pl.DataFrame | pl.Series | None
    try:
        frame = pl.from_arrow(con.sql(TERMS_WITH_FIRST_YEAR_SQL).to_arrow_table())
    except duckdb.Error:
        frame = _read_table(con, TERMS_TABLE)
    if not isinstance(frame, pl.DataFrame):
        raise ValueError(f"snapshot has no readable {TERMS_TABLE} table")
    return frame


def _read_table(con: Any, table: str, *, optional: bool = False) -> pl.DataFrame | None:
    try:
        frame = pl.from_arrow(con.sql(f'SELECT * FROM main."{table}"').to_arrow_table())
    except duckdb.Error as exc:
        if optional:
            return None
        raise ValueError(f"snapshot has no readable {table} table: {exc}") from None
    if not isinstance(frame, pl.DataFrame):
        raise ValueError(f"{table} did not load as a table")
    return frame


def required_columns() -> Sequence[str]:
    """The ``card_terms`` columns a catalog understands (extra columns are ignored)."""
    return [f.name for f in fields(CardTerms)]
