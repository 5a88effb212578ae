"""Writing an export directory: JSONL per split, Parquet in the Hugging Face layout, extras.

    OUT/
      train.jsonl, test.jsonl            the format's records, one per line (test only if any)
      data/train-00000-of-00001.parquet  same records + provenance columns, in the same order
      data/test-00000-of-00001.parquet
      dataset_info.json                  (sharegpt only) LLaMA-Factory dataset entries
      README.md                          dataset card (YAML config/splits header)
      manifest.json                      counts, filters, sha256 of every file, schema_version

Everything is written into a temporary sibling directory first and renamed into place at the
end (:func:`publish`), so an interrupted export never leaves a half-written dataset behind.
Output is byte-deterministic: no timestamps, sorted manifest keys, fixed Parquet settings.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from replicas.atomicio import publish_dir
from replicas.export.formats.base import SFTFormat

if TYPE_CHECKING:
    import pyarrow as pa

    from replicas.export.conversation import Conversation

DATA_DIR = "data"
SPLITS = ("train", "test")


def parquet_name(split: str) -> str:
    return f"{DATA_DIR}/{split}-00000-of-00001.parquet"


def jsonl_name(split: str) -> str:
    return f"{split}.jsonl"


def metadata_fields() -> list[pa.Field]:
    import pyarrow as pa

    return [
        pa.field("id", pa.string()),
        pa.field("task_id", pa.string()),
        pa.field("replica", pa.string()),
        pa.field("family", pa.string()),
        pa.field("seed", pa.int64()),
        pa.field("variant", pa.int64()),
        pa.field("scale", pa.float64()),
        pa.field("difficulty", pa.string()),
        pa.field("answer_kind", pa.string()),
        pa.field("source", pa.string()),
        pa.field("agent", pa.string()),
        pa.field("score", pa.float64()),
        pa.field("n_tool_calls", pa.int64()),
    ]


def _storage_type(dtype: pa.DataType) -> pa.DataType:
    """``dtype`` with every ``arrow.json`` extension replaced by its string storage."""
    import pyarrow as pa

    if isinstance(dtype, pa.BaseExtensionType):
        return dtype.storage_type
    if pa.types.is_list(dtype):
        return pa.list_(_storage_type(dtype.value_type))
    if pa.types.is_struct(dtype):
        return pa.struct([pa.field(f.name, _storage_type(f.type)) for f in dtype])
    return dtype


def arrow_schema(fmt: SFTFormat) -> pa.Schema:
    import pyarrow as pa

    return pa.schema([*metadata_fields(), *fmt.arrow_fields()])


def write_parquet(
    path: Path, fmt: SFTFormat, rows: Sequence[tuple[Conversation, Mapping[str, Any]]]
) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema(fmt)
    storage = pa.schema([pa.field(f.name, _storage_type(f.type)) for f in schema])
    data = [{**conv.metadata(), **fmt.to_arrow_row(record)} for conv, record in rows]
    table = pa.Table.from_pylist(data, schema=storage).cast(schema)
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, compression="zstd", write_statistics=True)


def write_jsonl(path: Path, records: Sequence[Mapping[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for record in records:
            fh.write(json.dumps(record, ensure_ascii=False, allow_nan=False) + "\n")


def write_json(path: Path, data: Any) -> None:
    path.write_text(
        json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8"
    )


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def file_table(root: Path, exclude: Sequence[str] = ()) -> dict[str, dict[str, Any]]:
    """relative path -> {sha256, bytes} for every file under ``root`` (sorted)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if rel in exclude:
            continue
        out[rel] = {"sha256": sha256_file(path), "bytes": path.stat().st_size}
    return out


def check_out_dir(out: Path, force: bool) -> None:
    """Refuse an existing, non-empty output directory unless ``force`` (before any work)."""
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"--out {out} exists and is not a directory")
    if out.exists() and any(out.iterdir()) and not force:
        raise FileExistsError(f"--out {out} exists and is not empty; pass --force to replace it")


def staging_dir(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))


def publish(staged: Path, out: Path, force: bool) -> None:
    """Move the finished ``staged`` directory to ``out`` (replacing it only with ``force``)."""
    check_out_dir(out, force)
    publish_dir(staged, out)


def discard(staged: Path) -> None:
    with contextlib.suppress(OSError):
        shutil.rmtree(staged)
