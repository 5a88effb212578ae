"""Query results as the agent sees them: Arrow batches to capped strings, inside the server.

A batch is measured (bytes, elements inside LIST/MAP/STRUCT cells, string lengths) *before*
anything becomes a Python object, so a single 16 MB list cell is refused, not converted.
"""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pyarrow as pa

from replicas.sandbox.sql_policy import (
    MAX_CELL_CHARS,
    format_value,
    truncation_note,
)

#: Arrow bytes of the rows converted for one result (checked per batch, before conversion).
MAX_RESULT_BYTES = 8 * 2**20
#: Elements inside LIST/MAP/STRUCT cells of the rows converted for one result.
MAX_NESTED_VALUES = 100_000
#: Strings longer than this are cut in Arrow before they are converted to Python.
_SLICE_STRINGS_OVER = 4 * MAX_CELL_CHARS


class TooLarge(Exception):
    """The result is over the byte, nested-size or row budget."""


# ---- results: Arrow batches to capped strings ----------------------------------------------


def _nested_values(arr: pa.Array) -> int:
    """Elements inside the LIST/MAP/STRUCT cells of ``arr`` (all levels)."""
    t = arr.type
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t):
        if len(arr) == 0:
            return 0
        offsets = arr.offsets  # of this slice; ``values`` is the whole child
        start, end = offsets[0].as_py(), offsets[-1].as_py()
        return (end - start) + _nested_values(arr.values.slice(start, end - start))
    if pa.types.is_fixed_size_list(t):
        child = arr.flatten()
        return len(child) + _nested_values(child)
    if pa.types.is_struct(t):
        return sum(len(c) + _nested_values(c) for c in arr.flatten())
    if pa.types.is_union(t):
        return sum(len(arr.field(i)) + _nested_values(arr.field(i)) for i in range(t.num_fields))
    return 0


def _is_text(t: pa.DataType) -> bool:
    return bool(pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t))


def _longest_value_bytes(arr: pa.Array) -> int:
    """Bytes of the longest string or binary value, read from the offsets buffer (cheap)."""
    t = arr.type
    if len(arr) == 0:
        return 0
    wide = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
    narrow = pa.types.is_string(t) or pa.types.is_binary(t)
    if not (wide or narrow):  # string views carry no offsets
        pc = _compute()
        return int(pc.max(pc.binary_length(arr.cast(pa.binary()))).as_py() or 0)
    buffer = arr.buffers()[1]
    offsets = np.frombuffer(buffer, dtype=np.int64 if wide else np.int32)
    offsets = offsets[arr.offset : arr.offset + len(arr) + 1]
    return int(np.diff(offsets).max())


def _compute() -> Any:
    # Imported on first use: pyarrow.compute adds ~0.1 s (seconds under load) to every server
    # start, and only results with long strings need it.
    import pyarrow.compute as pc

    return pc


def _render_long_strings(arr: pa.Array) -> list[str]:
    """Cut in Arrow, then escape: the same text and note as :func:`format_value`."""
    pc = _compute()
    lengths = pc.utf8_length(arr).to_pylist()
    newlines = pc.count_substring(arr, "\n").to_pylist()
    heads = pc.utf8_slice_codeunits(arr, 0, MAX_CELL_CHARS + 1).to_pylist()
    out = []
    for head, length, nl in zip(heads, lengths, newlines, strict=True):
        if head is None:
            out.append("NULL")
            continue
        text = head.replace("\n", "\\n")
        total = int(length) + int(nl)
        out.append(
            text[:MAX_CELL_CHARS] + truncation_note(total - MAX_CELL_CHARS)
            if total > MAX_CELL_CHARS
            else text
        )
    return out


def _interval(value: Any) -> Any:
    # DuckDB's own Python conversion: a month counts 30 days.
    if value is None:
        return None
    return datetime.timedelta(
        days=value.months * 30 + value.days, microseconds=value.nanoseconds // 1000
    )


def _render_column(arr: pa.Array) -> list[str]:
    t = arr.type
    if pa.types.is_dictionary(t):
        arr = arr.dictionary_decode()
        t = arr.type
    # Bytes bound characters from above: values under the threshold are short in both.
    if _is_text(t) and _longest_value_bytes(arr) > _SLICE_STRINGS_OVER:
        return _render_long_strings(arr)
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t)) and (
        _longest_value_bytes(arr) > _SLICE_STRINGS_OVER
    ):
        arr = _compute().binary_slice(arr, 0, MAX_CELL_CHARS + 1)
    try:
        values = arr.to_pylist()
    except (ValueError, OverflowError, TypeError, pa.ArrowException):
        # Out-of-range dates and timestamps ('infinity') have no Python value.
        try:
            values = arr.cast(pa.string()).to_pylist()
        except pa.ArrowException:
            values = ["?" if v is not None else None for v in arr.is_valid().to_pylist()]
    if pa.types.is_interval(t):
        values = [_interval(v) for v in values]
    elif pa.types.is_map(t):
        values = [None if v is None else dict(v) for v in values]
    return [format_value(v) for v in values]


def collect_rows(
    reader: pa.RecordBatchReader, max_rows: int, max_chars: int
) -> tuple[list[list[str]], bool]:
    """At most ``max_rows`` rendered rows (stopping once ``max_chars`` are rendered) and whether
    more rows exist. Budgets are checked on each Arrow batch before it is converted."""
    rows: list[list[str]] = []
    budget = MAX_RESULT_BYTES
    chars = 0
    for batch in reader:
        if batch.num_rows == 0:
            continue
        need = max_rows - len(rows)
        if need <= 0 or chars > max_chars:
            return rows, True
        more = batch.num_rows > need
        take = batch.slice(0, need) if more else batch
        size = take.nbytes
        if size > budget:
            raise TooLarge(
                f"result too large: more than {MAX_RESULT_BYTES // 2**20} MB in the first "
                f"{len(rows) + take.num_rows} rows; select fewer or narrower columns, aggregate, "
                "or cut long values (left(), len(), list slices)"
            )
        budget -= size
        nested = sum(_nested_values(col) for col in take.columns)
        if nested > MAX_NESTED_VALUES:
            raise TooLarge(
                f"result too large: its LIST/MAP/STRUCT cells hold more than {MAX_NESTED_VALUES} "
                "elements; aggregate them or show len() or a slice instead"
            )
        columns = [_render_column(col) for col in take.columns]
        for i in range(take.num_rows):
            row = []
            for col in columns:
                cell = col[i] if chars <= max_chars else ""
                chars += len(cell) + 3
                row.append(cell)
            rows.append(row)
            if chars > max_chars:
                return rows, True
        if more:
            return rows, True
    return rows, False
