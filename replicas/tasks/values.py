"""Turn DuckDB result values into the JSON-native values tasks store.

Expected answers are cached on disk as JSON and compared with what an agent typed, so every
value is reduced to str / int / float / bool / None the same way everywhere.
"""

from __future__ import annotations

import datetime as dt
import decimal
import math
import uuid
from collections.abc import Sequence
from typing import Any


def json_value(value: Any) -> Any:
    """One cell as a JSON-native value (dates as ISO strings, decimals as floats)."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, dt.timedelta):
        return value.total_seconds()
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    item = getattr(value, "item", None)  # numpy scalars
    if callable(item):
        return json_value(item())
    return str(value)


def table_value(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """The canonical expected-table shape: ``{"columns": [...], "rows": [[...], ...]}``."""
    cols = [str(c) for c in columns]
    if len({c.lower() for c in cols}) != len(cols):
        raise ValueError(f"table columns must be unique (case-insensitive): {cols}")
    return {"columns": cols, "rows": [[json_value(v) for v in row] for row in rows]}
