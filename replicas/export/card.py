"""The dataset card (``README.md``) of an export: Hugging Face YAML header + how it was made.

The YAML header declares the Parquet files as the ``default`` config with its splits, so
``load_dataset(OUT)`` and the Hub viewer find them; the body states the sources, filters,
counts per family / replica / split, the kit version and seeds, and one example record.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from replicas.export.layout import DATA_DIR

_EXAMPLE_CHARS = 240


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K")):
        if n < limit:
            return label
    return "100K<n<1M"


def _yaml_header(fmt_name: str, split_counts: Mapping[str, int]) -> list[str]:
    total = sum(split_counts.values())
    lines = [
        "---",
        f"pretty_name: replica-kit SFT demonstrations ({fmt_name})",
        "license: apache-2.0",
        "language:",
        "- en",
        "task_categories:",
        "- text-generation",
        "tags:",
        "- tool-calling",
        "- function-calling",
        "- sft",
        "- agents",
        "- replica-kit",
        f"- {fmt_name}",
        "size_categories:",
        f"- {size_category(total)}",
        "configs:",
        "- config_name: default",
        "  data_files:",
    ]
    for split in split_counts:
        lines += [f"  - split: {split}", f"    path: {DATA_DIR}/{split}-*"]
    lines += ["dataset_info:", "  splits:"]
    for split, n in split_counts.items():
        lines += [f"  - name: {split}", f"    num_examples: {n}"]
    lines.append("---")
    return lines


def _shorten(value: Any) -> Any:
    if isinstance(value, str):
        return value if len(value) <= _EXAMPLE_CHARS else value[:_EXAMPLE_CHARS] + " […]"
    if isinstance(value, Mapping):
        return {k: _shorten(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten(v) for v in value]
    return value


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def render_card(
    *,
    fmt_name: str,
    fmt_description: str,
    manifest: Mapping[str, Any],
    example: Mapping[str, Any] | None,
) -> str:
    counts = manifest["counts"]
    split_counts = dict(counts["written"])
    config = manifest["config"]
    suite = f"; both splits vs suite {config['exclude_suite']}" if config["exclude_suite"] else ""
    lines = _yaml_header(fmt_name, split_counts)
    lines += [
        "",
        f"# replica-kit SFT demonstrations — `{fmt_name}` format",
        "",
        f"{fmt_description}. Made with replica-kit {manifest['kit_version']} "
        f"(`replicas export sft`), export schema_version {manifest['schema_version']}.",
        "",
        "Each record is one solved episode of a replica-kit task: a system prompt, the task "
        "instruction, the agent's tool calls with the REAL observations the sandboxed tools "
        "returned, and the final `submit` call with the answer (plus, except in `sharegpt`, a "
        "natural-language sentence derived only from that answer). Every record was re-graded "
        "before writing by replaying its tool calls, parsed back from the written record, in a "
        "fresh sandbox.",
        "",
        "## Sources",
        "",
    ]
    oracle = config.get("oracle")
    if oracle:
        lines.append(
            f"- **oracle demonstrations**: families {', '.join(oracle['families'])}; seeds "
            f"{', '.join(str(s) for s in oracle['seeds'])}; variants per seed "
            f"{oracle['variants_per_seed'] or 'all'}; scale {oracle['scale']}. Fresh task "
            "instances built by the generators, each task's oracle tool calls played through the "
            "environment; kept only when the episode scored 1.0 and the prose answer passed its "
            "replica's grounding check (the compliance verifier for credit_cards)."
        )
    for run in config.get("runs", []):
        lines.append(f"- **run** `{run}`: episodes with score >= {config['min_score']}")
    lines += [
        "",
        "## Filters and hygiene",
        "",
        f"- score filter: run episodes need score >= {config['min_score']}; oracle "
        "demonstrations and every re-grade of an oracle record need 1.0",
        f"- exact duplicates removed (sha256 of canonical JSON): {counts['exact_duplicates']}",
        f"- near duplicates removed (MinHash, Jaccard >= {config['near_dup_threshold']} over "
        f"word 5-grams): {counts['near_duplicates']}",
        f"- split: by `{config['split_by']}` hash, eval fraction {config['eval_fraction']}; "
        f"test groups: {', '.join(manifest['split']['test_groups']) or 'none'}",
        f"- decontamination ({config['ngram']}-word n-grams, task ids, family+seed instances): "
        f"train vs test{suite}",
        "",
    ]
    skipped = manifest["skipped"]
    if skipped:
        lines += _table(
            ["left out", "count"], [(reason, info["count"]) for reason, info in skipped.items()]
        )
        lines.append("")
    lines += ["## Counts", ""]
    by_family = manifest["by_family"]
    splits = list(split_counts)
    lines += _table(
        ["family", *splits],
        [(fam, *(by_family[fam].get(s, 0) for s in splits)) for fam in sorted(by_family)],
    )
    lines.append("")
    by_replica = manifest["by_replica"]
    lines += _table(
        ["replica", *splits],
        [(rep, *(by_replica[rep].get(s, 0) for s in splits)) for rep in sorted(by_replica)],
    )
    lines += ["", *_table(["split", "records"], list(split_counts.items())), ""]
    lines += [
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        f'ds = load_dataset("parquet", data_dir="{DATA_DIR}")  # or load_dataset("<this dir>")',
        "```",
        "",
        "The JSONL files hold the same records in the same order, without the provenance "
        "columns (`id`, `task_id`, `replica`, `family`, `seed`, `variant`, `scale`, "
        "`difficulty`, `answer_kind`, `source`, `agent`, `score`, `n_tool_calls`). Tool-call "
        "arguments and tool schemas are JSON text in Parquet so rows never conflict.",
        "",
    ]
    if example is not None:
        lines += [
            "## Example record (long strings shortened)",
            "",
            "```json",
            json.dumps(_shorten(example), indent=1, ensure_ascii=False),
            "```",
            "",
        ]
    return "\n".join(lines)
