"""Field types shared by the on-disk record models (pydantic).

JSON written by other tools (or by hand) is read as well as our own, so these types accept what a
JSON writer may reasonably emit for a value — ``3.0`` for a count, a reason as ``{"code": ...}``
— and refuse what would make statistics wrong: booleans as numbers, NaN, negative counts,
numbers as names. Every refusal is a :class:`ValueError` naming the field.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

from pydantic import PlainValidator, ValidationError


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"must be a whole number >= 0, got {value!r}")
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(f"must be a whole number, got {value!r}")
    if value < 0:
        raise ValueError(f"must be >= 0, got {value!r}")
    return int(value)


def _amount(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"must be a number >= 0, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"must be a finite number >= 0, got {value!r}")
    return float(value)


def _score(value: Any) -> float:
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or not 0.0 <= value <= 1.0:
        raise ValueError(f"score must lie in [0, 1], got {value!r}")
    return float(value)


def _name(value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"must be a non-empty string, got {value!r}")
    return value


def _optional_text(value: Any) -> str | None:
    """Absent or empty means none; a non-string value is kept as its JSON text."""
    if value is None or value == "":
        return None
    return value if isinstance(value, str) else json.dumps(value)


def _codes(value: Any) -> tuple[str, ...]:
    """Reason codes, given as strings or as the verdict's own ``{"code": ...}`` objects."""
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"must be a list of reason codes, got {type(value).__name__}")
    codes: list[str] = []
    for item in value:
        code = item.get("code") if isinstance(item, dict) else item
        if not isinstance(code, str) or not code:
            raise ValueError(f"reason {item!r} has no code")
        codes.append(code)
    return tuple(codes)


def _strict_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, got {value!r}")
    return value


Count = Annotated[int, PlainValidator(_count)]
Amount = Annotated[float, PlainValidator(_amount)]
Score = Annotated[float, PlainValidator(_score)]
Name = Annotated[str, PlainValidator(_name)]
OptionalText = Annotated[str | None, PlainValidator(_optional_text)]
Codes = Annotated[tuple[str, ...], PlainValidator(_codes)]
StrictFlag = Annotated[bool, PlainValidator(_strict_bool)]


def problems(exc: ValidationError) -> list[str]:
    """One ``field: message`` line per problem pydantic found (readable in a warning or a log)."""
    out = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"]) or "record"
        out.append(f"{where}: {str(error['msg']).removeprefix('Value error, ')}")
    return out
