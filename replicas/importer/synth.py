"""The generator of an imported replica: seeded raw tables that satisfy the project's tests.

Tables are generated parents first (a column with a ``relationships`` test draws from its parent's
generated keys, skewed so that some parents have many children). Each column draws from its own
random stream, seeded from (build seed, replica, table, column), with a distribution chosen by
its constraints, type and name: keys ``1..n``, accepted values with skewed weights, emails and
names, money as a log-normal amount in range, quantities, rates, countries, and timestamps over
the import's date range — an event timestamp (``shipped_at``, ``paid_at``, ``canceled_at``…)
follows its table's anchor timestamp and is NULL on some rows unless tested ``not_null``. Row
checks (``expression_is_true``) then drop the rows that violate them, before any child draws
keys. Row counts grow with ``scale`` and with a table's depth in the reference graph.

``replicas.importer.synth:<name>`` is the generator path of imported replica ``<name>``
(:func:`__getattr__` hands out one per name).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import cast

import duckdb
import numpy as np
import polars as pl

from replicas.importer.schema import NAME_RE, ColumnSpec, ImportSpec, TableSpec
from replicas.importer.store import import_dir, load_spec
from replicas.seeding import table_rng

__all__ = ["BASE_ROWS", "MIN_ROWS", "generate", "row_counts", "table_order"]

#: Rows at scale 1 by depth in the reference graph (roots, their children, grandchildren…).
BASE_ROWS = (5_000, 25_000, 60_000)
MIN_ROWS = 25

_DTYPES: dict[str, pl.DataType] = {
    "INTEGER": pl.Int32(),
    "BIGINT": pl.Int64(),
    "DOUBLE": pl.Float64(),
    "VARCHAR": pl.String(),
    "BOOLEAN": pl.Boolean(),
    "DATE": pl.Date(),
    "TIMESTAMP": pl.Datetime("us"),
}
_FIRST = (
    "Ada",
    "Ben",
    "Cleo",
    "Dev",
    "Emil",
    "Farah",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kira",
    "Leo",
    "Mina",
    "Nils",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sami",
    "Tara",
    "Uma",
    "Vik",
    "Wen",
    "Yara",
)
_LAST = (
    "Moss",
    "Hale",
    "Park",
    "Rao",
    "Berg",
    "Costa",
    "Diaz",
    "Ekberg",
    "Fox",
    "Grant",
    "Holm",
    "Ito",
    "Jensen",
    "Kaur",
    "Lind",
    "Mori",
    "Novak",
    "Ortiz",
    "Patel",
    "Reyes",
    "Stone",
)
_COMPANY = (
    "Acme",
    "Birch",
    "Cobalt",
    "Delta",
    "Ember",
    "Fjord",
    "Granite",
    "Harbor",
    "Indigo",
    "Juniper",
    "Kestrel",
    "Lumen",
    "Meridian",
    "Nimbus",
    "Orchid",
    "Pioneer",
    "Quartz",
)
_COMPANY_SUFFIX = (" Ltd", " Inc", " GmbH", " & Co", " Labs", " Group", "")
_PRODUCT = ("Classic", "Deluxe", "Mini", "Pro", "Eco", "Travel", "Family", "Studio", "Garden")
_THING = ("Lamp", "Kettle", "Planter", "Backpack", "Notebook", "Mug", "Blanket", "Chair", "Tray")
_COUNTRIES = ("US", "GB", "DE", "FR", "CA", "AU", "NL", "IE", "ES", "IT", "SE", "IN", "BR", "JP")
_CITIES = ("London", "Berlin", "Paris", "Austin", "Toronto", "Sydney", "Dublin", "Madrid", "Lyon")
_CURRENCIES = ("USD", "EUR", "GBP", "CAD", "AUD")
_INDUSTRIES = ("retail", "software", "healthcare", "education", "finance", "logistics", "media")
_DOMAINS = ("example.com", "mail.test", "inbox.example", "corp.example")
_LATER_WORDS = (
    "ship",
    "deliver",
    "paid",
    "cancel",
    "return",
    "refund",
    "end",
    "close",
    "complet",
    "updated",
    "resolved",
    "stopped",
    "churn",
    "expir",
    "fulfil",
    "settled",
)
_OPTIONAL_WORDS = ("industry", "note", "comment", "middle", "promo", "coupon", "phone", "referr")


def row_counts(spec: ImportSpec, scale: float) -> dict[str, int]:
    """Rows per table: by depth in the reference graph, times ``scale`` (at least MIN_ROWS)."""
    depth: dict[str, int] = {}

    def depth_of(name: str, seen: frozenset[str]) -> int:
        if name in depth:
            return depth[name]
        parents = [p for p in spec.table(name).parents() if p not in seen]
        d = 1 + max((depth_of(p, seen | {name}) for p in parents), default=-1)
        depth[name] = d
        return d

    out = {}
    for table in spec.tables:
        base = BASE_ROWS[min(depth_of(table.name, frozenset()), len(BASE_ROWS) - 1)]
        n = max(MIN_ROWS, round(base * scale))
        for col in table.columns:
            if col.unique and col.values:
                n = min(n, len(col.values))
        out[table.name] = n
    return out


def table_order(spec: ImportSpec) -> list[str]:
    """Parents before children (a reference cycle is broken at the alphabetically later table)."""
    done: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in done or name in visiting:
            return
        visiting.add(name)
        for parent in sorted(spec.table(name).parents()):
            visit(parent)
        visiting.discard(name)
        done.append(name)

    for table in sorted(t.name for t in spec.tables):
        visit(table)
    return done


def _skewed(rng: np.random.Generator, k: int, shape: float = 1.2) -> np.ndarray:
    weights = rng.gamma(shape, 1.0, size=k) + 1e-3
    return weights / weights.sum()


def _later(name: str) -> bool:
    return any(w in name.lower() for w in _LATER_WORDS)


class _Table:
    """Generates one table's columns in a fixed order (keys, anchors, then the rest)."""

    def __init__(
        self,
        spec: ImportSpec,
        table: TableSpec,
        seed: int,
        n: int,
        keys: dict[tuple[str, str], np.ndarray],
    ) -> None:
        self.spec = spec
        self.table = table
        self.seed = seed
        self.n = n
        self.keys = keys
        self.values: dict[str, np.ndarray] = {}
        self.nulls: dict[str, np.ndarray] = {}
        span = (spec.end - spec.start).days
        self.start = np.datetime64(spec.start.isoformat(), "s")
        self.span_s = span * 86_400

    def rng(self, column: str, *salt: str) -> np.random.Generator:
        return table_rng(self.seed, f"import:{self.spec.name}:{self.table.name}", column, *salt)

    def build(self) -> pl.DataFrame:
        anchor: str | None = None
        for col in self.table.columns:
            if col.type in {"TIMESTAMP", "DATE"} and not _later(col.name) and not col.references:
                anchor = anchor or col.name
        ordered = sorted(self.table.columns, key=lambda c: (c.name != anchor, _later(c.name)))
        for col in ordered:
            self.values[col.name] = self.column(col, anchor)
            self.nulls[col.name] = self.null_mask(col)
        series = []
        for col in self.table.columns:
            values = self.values[col.name]
            s = pl.Series(col.name, values)
            if self.nulls[col.name].any():
                s = pl.select(
                    pl.when(pl.Series(self.nulls[col.name])).then(None).otherwise(s).alias(col.name)
                ).to_series()
            series.append(s.cast(_DTYPES[col.type]))
        return pl.DataFrame(series)

    def null_mask(self, col: ColumnSpec) -> np.ndarray:
        if col.not_null or col.unique or col.values or self._is_parent_key(col):
            return np.zeros(self.n, dtype=bool)
        name = col.name.lower()
        rate = 0.0
        if col.type in {"TIMESTAMP", "DATE"} and _later(name):
            rate = 0.3
        elif any(w in name for w in _OPTIONAL_WORDS):
            rate = 0.1
        elif col.references:
            rate = 0.03
        if rate == 0.0:
            return np.zeros(self.n, dtype=bool)
        return self.rng(col.name, "null").random(self.n) < rate

    def _is_parent_key(self, col: ColumnSpec) -> bool:
        return any(
            c.references == (self.table.name, col.name) for t in self.spec.tables for c in t.columns
        )

    # ---- one column ------------------------------------------------------------------------

    def column(self, col: ColumnSpec, anchor: str | None) -> np.ndarray:
        rng = self.rng(col.name)
        n = self.n
        if col.references and (col.references[0], col.references[1]) in self.keys:
            parent = self.keys[(col.references[0], col.references[1])]
            if len(parent):
                return parent[rng.choice(len(parent), size=n, p=_skewed(rng, len(parent)))]
        if col.values:
            values = np.array(col.values, dtype=object)
            if col.unique:
                return values[rng.permutation(len(values))[:n]]
            return values[rng.choice(len(values), size=n, p=_skewed(rng, len(values), 0.8))]
        if col.type in {"INTEGER", "BIGINT"}:
            return self.integers(col, rng)
        if col.type == "DOUBLE":
            return self.doubles(col, rng)
        if col.type == "BOOLEAN":
            return rng.random(n) < (0.25 if col.name.lower().startswith("is_") else 0.5)
        if col.type in {"TIMESTAMP", "DATE"}:
            return self.times(col, rng, anchor)
        return self.strings(col, rng)

    def integers(self, col: ColumnSpec, rng: np.random.Generator) -> np.ndarray:
        n, name = self.n, col.name.lower()
        lo = int(np.ceil(col.min_value)) if col.min_value is not None else None
        hi = int(np.floor(col.max_value)) if col.max_value is not None else None
        if col.unique:
            start = max(1, lo or 1)
            return np.arange(start, start + n, dtype=np.int64)
        if "cent" in name or any(w in name for w in ("amount", "price", "cost", "fee", "total")):
            out = np.round(rng.lognormal(np.log(4_000), 0.9, size=n)).astype(np.int64)
        elif any(w in name for w in ("quantity", "qty", "units", "seats", "count")):
            out = 1 + rng.poisson(1.6 if "seat" not in name else 6.0, size=n)
        elif "second" in name or "duration" in name:
            out = np.round(rng.lognormal(np.log(900), 1.0, size=n)).astype(np.int64)
        elif name == "id" or name.endswith("_id"):
            out = rng.integers(1, max(2, n), size=n)
        else:
            out = rng.integers(0, 1_000, size=n)
        if lo is not None or hi is not None:
            if lo is not None and hi is not None and hi < lo:
                raise ValueError(f"{self.table.name}.{col.name}: empty accepted range")
            out = np.clip(out, lo, hi)
        return out.astype(np.int64)

    def doubles(self, col: ColumnSpec, rng: np.random.Generator) -> np.ndarray:
        n, name = self.n, col.name.lower()
        lo, hi = col.min_value, col.max_value
        if any(w in name for w in ("pct", "percent", "rate", "ratio", "discount", "share")):
            grid = np.array([0.0, 0.0, 0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3])
            out = grid[rng.integers(0, len(grid), size=n)]
        elif name == "lat" or "latitude" in name:
            out = rng.uniform(-60, 70, size=n)
        elif "lon" in name or "lng" in name:
            out = rng.uniform(-170, 170, size=n)
        elif "cent" in name:
            out = np.round(rng.lognormal(np.log(4_000), 0.9, size=n))
        else:
            out = rng.lognormal(np.log(35.0), 0.8, size=n)
        if lo is not None and hi is not None and hi < lo:
            raise ValueError(f"{self.table.name}.{col.name}: empty accepted range")
        # a range narrower than the distribution: spread inside it instead of piling at its ends
        if lo is not None and hi is not None and (out < lo).mean() + (out > hi).mean() > 0.2:
            out = rng.uniform(lo, hi, size=n)
        out = np.clip(out, lo, hi)
        return np.round(out, 2)

    def times(self, col: ColumnSpec, rng: np.random.Generator, anchor: str | None) -> np.ndarray:
        n = self.n
        if anchor is not None and col.name != anchor and anchor in self.values and _later(col.name):
            base = self.values[anchor].astype("datetime64[s]")
            lag = np.round(rng.exponential(3.0 * 86_400, size=n) + 600).astype("timedelta64[s]")
            out = base + lag
        else:
            offsets = (
                np.sort(rng.integers(0, self.span_s, size=n))
                if col.name == anchor
                else (rng.integers(0, self.span_s, size=n))
            )
            out = self.start + offsets.astype("timedelta64[s]")
        if col.type == "DATE":
            return out.astype("datetime64[D]")
        return out.astype("datetime64[us]")

    def strings(self, col: ColumnSpec, rng: np.random.Generator) -> np.ndarray:
        n, name = self.n, col.name.lower()
        idx = np.arange(1, n + 1)
        # one person per row across the table's name and email columns
        person = self.rng("", "person")
        first = np.array(_FIRST)[person.integers(0, len(_FIRST), size=n)]
        last = np.array(_LAST)[person.integers(0, len(_LAST), size=n)]
        if "email" in name:
            domain = np.array(_DOMAINS)[rng.integers(0, len(_DOMAINS), size=n)]
            return np.array(
                [
                    f"{f.lower()}.{lst.lower()}{i}@{d}"
                    for f, lst, i, d in zip(first, last, idx, domain, strict=True)
                ],
                dtype=object,
            )
        if name in {"first_name", "given_name", "firstname"}:
            out = first.astype(object)
        elif name in {"last_name", "surname", "family_name", "lastname"}:
            out = last.astype(object)
        elif (
            "company" in name or "account_name" in name or "customer_name" in name or "org" in name
        ):
            suffix = np.array(_COMPANY_SUFFIX)[rng.integers(0, len(_COMPANY_SUFFIX), size=n)]
            base = np.array(_COMPANY)[rng.integers(0, len(_COMPANY), size=n)]
            out = np.array([f"{b}{s}" for b, s in zip(base, suffix, strict=True)], dtype=object)
        elif "product" in name or name in {"title", "item_name", "sku_name"}:
            a = np.array(_PRODUCT)[rng.integers(0, len(_PRODUCT), size=n)]
            b = np.array(_THING)[rng.integers(0, len(_THING), size=n)]
            out = np.array([f"{x} {y}" for x, y in zip(a, b, strict=True)], dtype=object)
        elif name.endswith("name") or name == "name":
            out = np.array([f"{f} {lst}" for f, lst in zip(first, last, strict=True)], dtype=object)
        elif "country" in name:
            out = self._pick(_COUNTRIES, rng)
        elif "city" in name:
            out = self._pick(_CITIES, rng)
        elif "currency" in name:
            out = self._pick(_CURRENCIES, rng)
        elif "industry" in name or "sector" in name:
            out = self._pick(_INDUSTRIES, rng)
        else:
            stem = name.removesuffix("_id").removesuffix("_code") or "value"
            k = (
                8
                if any(w in name for w in ("status", "type", "category", "method", "channel"))
                else 30
            )
            out = self._pick(tuple(f"{stem}_{i}" for i in range(1, k + 1)), rng)
        if col.unique:
            out = np.array([f"{v}-{i}" for v, i in zip(out, idx, strict=True)], dtype=object)
        return out

    def _pick(self, vocab: tuple[str, ...], rng: np.random.Generator) -> np.ndarray:
        values = np.array(vocab, dtype=object)
        return values[rng.choice(len(values), size=self.n, p=_skewed(rng, len(values), 0.8))]


def _apply_checks(frame: pl.DataFrame, checks: tuple[str, ...]) -> pl.DataFrame:
    if not checks:
        return frame
    con = duckdb.connect()
    try:
        con.register("t", frame.to_arrow())
        where = " and ".join(f"coalesce(({c}), true)" for c in checks)
        kept = cast(
            pl.DataFrame, pl.from_arrow(con.sql(f"select * from t where {where}").to_arrow_table())
        )
    finally:
        con.close()
    return kept.cast(frame.schema)


def _static(spec: ImportSpec, table: TableSpec) -> pl.DataFrame:
    assert table.static_csv is not None
    path = import_dir(spec.name) / table.static_csv
    frame = pl.read_csv(path, try_parse_dates=True, infer_schema_length=10_000)
    return frame.cast({c.name: _DTYPES[c.type] for c in table.columns})


def generate_spec(spec: ImportSpec, seed: int, scale: float) -> dict[str, pl.DataFrame]:
    """Raw tables of ``spec`` for (seed, scale): same inputs ⇒ identical frames."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    counts = row_counts(spec, scale)
    keys: dict[tuple[str, str], np.ndarray] = {}
    out: dict[str, pl.DataFrame] = {}
    for name in table_order(spec):
        table = spec.table(name)
        if table.static_csv is not None:
            frame = _static(spec, table)
        else:
            frame = _apply_checks(
                _Table(spec, table, seed, counts[name], keys).build(), table.checks
            )
        for col in table.columns:
            keys[(name, col.name)] = frame[col.name].drop_nulls().to_numpy()
        out[name] = frame
    return out


def generate(name: str, seed: int, scale: float) -> dict[str, pl.DataFrame]:
    """The generator of imported replica ``name`` (reads its spec from the import directory)."""
    return generate_spec(load_spec(name), seed, scale)


def __getattr__(attr: str) -> Callable[[int, float], dict[str, pl.DataFrame]]:
    if NAME_RE.match(attr):
        return functools.partial(generate, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
