"""Model prices, for the ``cost_usd`` of each episode.

Prices are USD per million tokens ``(input, output)``, the public list prices of the OpenAI API
as published in 2025 (standard tier, no caching or batch discounts). They change; treat the
table as a default and override it:

* ``replicas run … --prices FILE`` with a JSON object, or
* the environment variable ``REPLICAS_PRICES`` holding either such a JSON object or a path to it.

JSON format (both spellings accepted)::

    {"my-model": {"input_per_mtok": 0.5, "output_per_mtok": 1.5},
     "other-model": [0.5, 1.5]}

Overrides are merged over the defaults. A model name is looked up exactly, then by the longest
known prefix (so dated snapshots such as ``gpt-4o-mini-2024-07-18`` find ``gpt-4o-mini``), after
dropping a ``provider/`` prefix. An unknown model costs 0.0 and is reported by
:func:`price_for` returning ``None`` so the runner can say so.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Price:
    """USD per million input (prompt) and output (completion) tokens."""

    input_per_mtok: float
    output_per_mtok: float

    def __post_init__(self) -> None:
        for name in ("input_per_mtok", "output_per_mtok"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")

    def cost(self, tokens_in: int, tokens_out: int) -> float:
        return (tokens_in * self.input_per_mtok + tokens_out * self.output_per_mtok) / 1e6


DEFAULT_PRICES: Mapping[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "o3": Price(2.00, 8.00),
    "o3-mini": Price(1.10, 4.40),
    "o4-mini": Price(1.10, 4.40),
    "gpt-5": Price(1.25, 10.00),
    "gpt-5-mini": Price(0.25, 2.00),
    "gpt-5-nano": Price(0.05, 0.40),
}

PRICES_ENV = "REPLICAS_PRICES"


def _price(name: str, value: Any) -> Price:
    if isinstance(value, Mapping):
        try:
            return Price(float(value["input_per_mtok"]), float(value["output_per_mtok"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(
                f"price of {name!r} needs input_per_mtok and output_per_mtok: {exc}"
            ) from None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        try:
            return Price(float(value[0]), float(value[1]))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"price of {name!r} must be two numbers: {exc}") from None
    raise ValueError(f"price of {name!r} must be {{input_per_mtok, output_per_mtok}} or [in, out]")


def parse_prices(data: Any) -> dict[str, Price]:
    """Validate a JSON price table (see the module docstring); ValueError on anything else."""
    if not isinstance(data, Mapping):
        raise ValueError("a price table must be a JSON object mapping model names to prices")
    return {str(name): _price(str(name), value) for name, value in data.items()}


def load_prices(path: str | os.PathLike[str] | None = None) -> dict[str, Price]:
    """Defaults, overridden by ``REPLICAS_PRICES`` and then by the file at ``path``."""
    table = dict(DEFAULT_PRICES)
    env = os.environ.get(PRICES_ENV, "").strip()
    if env:
        table.update(_read_source(env, f"${PRICES_ENV}"))
    if path is not None:
        table.update(_read_source(str(path), str(path), is_path=True))
    return table


def _read_source(source: str, label: str, *, is_path: bool = False) -> dict[str, Price]:
    try:
        text = source if not is_path and source.startswith("{") else Path(source).read_text()
    except OSError as exc:
        raise ValueError(f"cannot read price table {label}: {exc}") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"price table {label} is not valid JSON: {exc}") from None
    return parse_prices(data)


def price_for(model: str, table: Mapping[str, Price]) -> Price | None:
    """The price of ``model`` (exact, then longest prefix, ignoring ``provider/``), or None."""
    name = model.rsplit("/", 1)[-1]
    for candidate in (model, name):
        if candidate in table:
            return table[candidate]
    matches = [k for k in table if name.startswith(k + "-")]
    return table[max(matches, key=len)] if matches else None
