"""``export_sft``: sources → exact dedup → render, validate, re-grade → near dedup → suite
exclusion → split → decontamination → write (temp dir, then rename).

Each arrow is one module of this package; this one only orders them and keeps the books, so a
reader can follow one episode from a run directory (or an oracle replay) to its JSONL line.

Failure modes, all loud:
- bad input (unknown format or family, a --run path that is no run directory, an occupied
  --out): ``ValueError`` / ``FileExistsError`` before any work (the CLI's exit code 2);
- everything filtered away: :class:`ExportError` with the counts of what was dropped and why;
- a renderer producing a record its own schema rejects, or a record that does not re-grade:
  dropped and counted (``invalid_record``, ``regrade_failed``); never written.
"""

from __future__ import annotations

import copy
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from replicas._version import __version__
from replicas.export.card import render_card
from replicas.export.conversation import Conversation
from replicas.export.decontam import (
    NGRAM_WORDS,
    Decontaminator,
    Reference,
    conversations_reference,
    suite_reference,
)
from replicas.export.dedup import exact_dedup, near_dedup
from replicas.export.episodes import EpisodeCache, default_cache_dir
from replicas.export.formats import get_format
from replicas.export.formats.base import SFTFormat
from replicas.export.layout import (
    SPLITS,
    check_out_dir,
    discard,
    file_table,
    jsonl_name,
    parquet_name,
    publish,
    staging_dir,
    write_json,
    write_jsonl,
    write_parquet,
)
from replicas.export.skips import SkipLog
from replicas.export.sources import (
    OracleSpec,
    check_run_dir,
    default_system_prompt,
    oracle_conversations,
    run_conversations,
)
from replicas.export.split import GROUP_KEYS, split
from replicas.export.workers import prewarm_regrades
from replicas.tasks import task_from_id
from replicas.tasks.base import DEFAULT_SCALE

EXPORT_SCHEMA_VERSION = 1
MANIFEST_FILE = "manifest.json"
CARD_FILE = "README.md"

Progress = Callable[[str, str], None]  # (stage, detail)


class ExportError(RuntimeError):
    """The export produced nothing usable; the message says what was dropped and why."""


def parse_formats(text: str) -> tuple[str, ...]:
    """``"trl,openai"`` -> ``("trl", "openai")``; ValueError naming an unknown, empty or
    repeated name (an unknown one with the known formats)."""
    names = [n.strip() for n in str(text).split(",")]
    if not names or any(not n for n in names):
        raise ValueError(f"--format {text!r}: give format names separated by commas")
    for name in names:
        get_format(name)  # ValueError: unknown format 'x'; known formats: ...
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"--format {text!r} names {', '.join(repeated)} more than once")
    return tuple(names)


@dataclass(frozen=True)
class ExportConfig:
    """Everything ``replicas export sft`` takes (see ``replicas/cli_export.py``).

    ``format`` is one format name or several separated by commas (``"trl,openai,sharegpt"``):
    every format is written from one set of demonstrations and re-grades, each into its own
    subdirectory of ``out`` — byte for byte what a one-format export of it would write.
    ``workers`` and ``cache_episodes`` change how fast, never what, is written.
    """

    out: Path
    format: str = "openai"
    run_dirs: tuple[Path, ...] = ()
    oracle: OracleSpec | None = None
    min_score: float = 1.0
    split_by: str = "seed"
    eval_fraction: float = 0.1
    exclude_suite: str | None = None
    near_dup_threshold: float = 0.9
    ngram: int = NGRAM_WORDS
    system_prompt: str = ""
    force: bool = False
    #: final prose as its own assistant turn before submit; None = the format's default
    prose_turn: bool | None = None
    #: processes playing demonstrations and re-grades (1: all in this process)
    workers: int = 1
    #: reuse solved plays across exports (``$REPLICAS_HOME/export/episodes``); within one export
    #: they are always reused (``replicas.export.episodes``)
    cache_episodes: bool = True
    #: where the reused plays live (None: ``$REPLICAS_HOME/export/episodes``)
    episode_cache_dir: Path | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "out", Path(self.out))
        object.__setattr__(self, "run_dirs", tuple(Path(d) for d in self.run_dirs))
        formats = parse_formats(self.format)
        if not self.run_dirs and self.oracle is None:
            raise ValueError("nothing to export: give --run DIR (one or more) and/or --oracle")
        if not 0.0 <= self.min_score <= 1.0:
            raise ValueError(f"--min-score must be in [0, 1], got {self.min_score}")
        if self.split_by not in GROUP_KEYS:
            raise ValueError(f"--split-by must be one of {', '.join(GROUP_KEYS)}")
        if not 0.0 <= self.eval_fraction < 1.0:
            raise ValueError(f"--eval-fraction must be in [0, 1), got {self.eval_fraction}")
        if not 0.0 < self.near_dup_threshold <= 1.0:
            raise ValueError("--near-dup-threshold must be in (0, 1]")
        if self.ngram < 5:
            raise ValueError("--ngram must be >= 5 words")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise ValueError(f"--workers must be an int >= 1, got {self.workers!r}")
        if not self.system_prompt:
            object.__setattr__(self, "system_prompt", default_system_prompt())
        for name in formats:
            get_format(name).configured(prose_turn=self.prose_turn)
        self._check_test_split_possible()

    @property
    def formats(self) -> tuple[str, ...]:
        return parse_formats(self.format)

    def _check_test_split_possible(self) -> None:
        """A test split was asked for (``eval_fraction > 0``) but oracle demos alone could only
        make one group of ``split_by``: say so now, before any work, instead of writing a
        dataset without a test split."""
        if self.eval_fraction == 0 or self.run_dirs or self.oracle is None:
            return
        groups = {"seed": len(self.oracle.seeds), "family": len(self.oracle.families)}
        if groups.get(self.split_by, 2) < 2:
            raise ValueError(
                f"--split-by {self.split_by} needs at least 2 {self.split_by}s for a test split, "
                f"but the oracle demos have 1: use --seeds 2 or more, --split-by task, or "
                f"--eval-fraction 0 for a dataset without a test split"
            )

    def to_dict(self) -> dict[str, Any]:
        oracle = None
        if self.oracle is not None:
            oracle = {
                "families": list(self.oracle.families),
                "seeds": list(self.oracle.seeds),
                "variants_per_seed": self.oracle.variants_per_seed,
                "scale": self.oracle.scale,
            }
        return {
            "format": self.format,
            "runs": [str(d) for d in self.run_dirs],
            "oracle": oracle,
            "min_score": self.min_score,
            "split_by": self.split_by,
            "eval_fraction": self.eval_fraction,
            "exclude_suite": self.exclude_suite,
            "near_dup_threshold": self.near_dup_threshold,
            "ngram": self.ngram,
            "prose_turn": get_format(self.format).configured(prose_turn=self.prose_turn).prose_turn,
        }


@dataclass(frozen=True)
class ExportResult:
    out: Path
    manifest: dict[str, Any]
    skips: SkipLog
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: format name -> that format's result (one entry for a one-format export: itself)
    parts: Mapping[str, ExportResult] = field(default_factory=dict)

    @property
    def written(self) -> dict[str, int]:
        """split -> records; for several formats ``"<format>/<split>"`` -> records."""
        if "counts" in self.manifest:
            return dict(self.manifest["counts"]["written"])
        return {
            f"{name}/{split_name}": n
            for name, part in self.parts.items()
            for split_name, n in part.written.items()
        }


def _noop(stage: str, detail: str) -> None:
    return None


def _collect(
    config: ExportConfig, skips: SkipLog, progress: Progress, episodes: EpisodeCache
) -> list[Conversation]:
    collected: list[Conversation] = []
    if config.oracle is not None:
        collected += oracle_conversations(
            config.oracle,
            config.system_prompt,
            skips,
            lambda d: progress("oracle", d),
            episodes=episodes,
            workers=config.workers,
        )
    if config.run_dirs:
        collected += run_conversations(
            config.run_dirs,
            config.min_score,
            config.system_prompt,
            skips,
            lambda d: progress("runs", d),
        )
    return collected


def _regrade(
    conv: Conversation,
    fmt: SFTFormat,
    record: dict[str, Any],
    min_score: float,
    skips: SkipLog,
    episodes: EpisodeCache,
) -> bool:
    """Replay the calls parsed back out of ``record``; keep it only when they still score.

    The calls must equal the episode's, so they are the calls the demonstration (or an earlier
    format's re-grade) already played on this task: ``episodes`` answers with that play's
    outcome instead of playing it again (``replicas.export.episodes``).
    """

    try:
        calls = fmt.calls(record)
    except (KeyError, TypeError, ValueError) as exc:
        skips.add("regrade_failed", f"{conv.record_id}: calls unreadable: {exc}")
        return False
    expected = [(t.name, dict(t.arguments)) for t in conv.turns]
    if calls != expected:
        skips.add("regrade_failed", f"{conv.record_id}: rendered calls differ from the episode")
        return False
    try:
        result = episodes.replay(task_from_id(conv.task_id), calls, agent_name="export-regrade")
    except Exception as exc:  # an environment that cannot be set up costs this record only
        skips.add("regrade_failed", f"{conv.record_id}: {type(exc).__name__}: {exc}")
        return False
    # oracle demonstrations must solve the task; run episodes need their score filter (a
    # partial-credit score >= --min-score may not be a "pass")
    needed = 1.0 if conv.source == "oracle" else min_score
    solved = result.solved if conv.source == "oracle" else result.terminated
    if not solved or result.score < needed:
        why = ", ".join(result.reasons) or f"score {result.score}"
        skips.add("regrade_failed", f"{conv.record_id}: {why}")
        return False
    return True


def _render(
    conversations: Sequence[Conversation],
    fmt: SFTFormat,
    min_score: float,
    skips: SkipLog,
    progress: Progress,
    episodes: EpisodeCache,
) -> list[tuple[Conversation, dict[str, Any]]]:
    out: list[tuple[Conversation, dict[str, Any]]] = []
    for conv in conversations:
        progress("regrade", conv.task_id)
        record = fmt.render(conv)
        problems = fmt.validate(record)
        if problems:
            skips.add("invalid_record", f"{conv.record_id}: {'; '.join(problems[:3])}")
            continue
        if _regrade(conv, fmt, record, min_score, skips, episodes):
            out.append((conv, record))
    return out


def _nothing_left(stage: str, skips: SkipLog, counts: dict[str, Any]) -> ExportError:
    dropped = skips.summary() or "nothing was skipped"
    return ExportError(
        f"no records left {stage} (collected {counts.get('collected', {})}; "
        f"exact duplicates {counts.get('exact_duplicates', 0)}, near duplicates "
        f"{counts.get('near_duplicates', 0)}; left out: {dropped}); nothing was written"
    )


def _breakdown(rows: dict[str, list[tuple[Conversation, dict[str, Any]]]]) -> dict[str, Any]:
    by_family: dict[str, Counter[str]] = defaultdict(Counter)
    by_replica: dict[str, Counter[str]] = defaultdict(Counter)
    by_source: dict[str, Counter[str]] = defaultdict(Counter)
    for split_name, items in rows.items():
        for conv, _ in items:
            by_family[conv.family][split_name] += 1
            by_replica[conv.replica][split_name] += 1
            by_source[conv.source][split_name] += 1
    as_dict = lambda d: {k: dict(sorted(v.items())) for k, v in sorted(d.items())}  # noqa: E731
    return {
        "by_family": as_dict(by_family),
        "by_replica": as_dict(by_replica),
        "by_source": as_dict(by_source),
    }


@dataclass
class _Plan:
    """One format's dataset, decided but not yet written."""

    fmt: SFTFormat
    rows: dict[str, list[tuple[Conversation, dict[str, Any]]]]
    manifest: dict[str, Any]
    skips: SkipLog
    notes: list[str]


class _SuiteReferences:
    """``suite_reference`` memoised per (suite, families, snapshots): several formats usually
    keep the same records, and building a suite's texts builds its tasks."""

    def __init__(self) -> None:
        self._made: dict[tuple[str, frozenset[str], frozenset[tuple[str, int]]], Reference] = {}

    def get(self, suite: str, kept: Sequence[Conversation]) -> Reference:
        families = frozenset(c.family for c in kept)
        snapshots = frozenset(c.snapshot_key for c in kept)
        key = (suite, families, snapshots)
        if key not in self._made:
            self._made[key] = suite_reference(suite, families=families, snapshots=snapshots)
        return self._made[key]


def _plan(
    config: ExportConfig,
    fmt: SFTFormat,
    unique: Sequence[Conversation],
    skips: SkipLog,
    counts: dict[str, Any],
    report: Progress,
    episodes: EpisodeCache,
    suites: _SuiteReferences,
) -> _Plan:
    """Render, re-grade, near-dedup, exclude the suite, split and decontaminate for one format."""
    verified = _render(unique, fmt, config.min_score, skips, report, episodes)
    if not verified:
        raise _nothing_left("after re-grading", skips, counts)
    record_of = {conv.content_hash(): record for conv, record in verified}
    report("dedup", f"{len(verified)} records")
    kept, near = near_dedup([conv for conv, _ in verified], config.near_dup_threshold)
    counts["near_duplicates"] = len(near)

    references: list[Reference] = []
    if config.exclude_suite:
        report("decontam", f"suite {config.exclude_suite}")
        references.append(suites.get(config.exclude_suite, kept))
    decontaminator = Decontaminator(config.ngram)
    decontaminator.index_all(kept, references)
    notes: list[str] = []
    for ref in references:  # the suite: neither split may overlap it
        kept = decontaminator.drop_overlapping(kept, ref, skips)
        if ref.unbuilt:
            notes.append(
                f"{ref.name}: {ref.unbuilt} task(s) could not be built; their ids and "
                f"family+seed instances are still excluded, their text is not compared "
                f"({'; '.join(ref.notes)})"
            )
    if not kept:
        raise _nothing_left("after suite exclusion", skips, counts)

    parts = split(kept, config.split_by, config.eval_fraction)
    notes.extend(parts.notes)
    train = decontaminator.drop_overlapping(
        parts.train, conversations_reference("test", parts.test), skips
    )
    if not train:
        raise _nothing_left("for train after decontamination against test", skips, counts)
    chosen = {"train": train, "test": parts.test}
    rows = {
        s: [(conv, record_of[conv.content_hash()]) for conv in chosen[s]]
        for s in SPLITS
        if chosen[s]
    }
    counts["written"] = {s: len(r) for s, r in rows.items()}

    manifest: dict[str, Any] = {
        "schema_version": EXPORT_SCHEMA_VERSION,
        "kind": "replicas-sft-export",
        "kit_version": __version__,
        "format": fmt.name,
        "config": config.to_dict(),
        "counts": counts,
        "skipped": skips.to_dict(),
        "near_duplicate_examples": [list(x) for x in near[:10]],
        "notes": notes,
        "split": {
            "by": parts.by,
            "test_groups": list(parts.test_groups),
            "train_groups": list(parts.train_groups),
        },
        **_breakdown(rows),
        "default_scale": DEFAULT_SCALE,
    }
    return _Plan(fmt, rows, manifest, skips, notes)


def _write(staged: Path, plan: _Plan) -> None:
    """One format's files (JSONL, Parquet, extras, card, manifest) into ``staged``."""
    fmt, rows, manifest = plan.fmt, plan.rows, plan.manifest
    staged.mkdir(parents=True, exist_ok=True)
    jsonl_files: dict[str, str] = {}
    for split_name, items in rows.items():
        write_jsonl(staged / jsonl_name(split_name), [record for _, record in items])
        write_parquet(staged / parquet_name(split_name), fmt, items)
        jsonl_files[split_name] = jsonl_name(split_name)
    for name, data in fmt.extra_files(jsonl_files).items():
        write_json(staged / name, data)
    example = rows["train"][0][1]
    (staged / CARD_FILE).write_text(
        render_card(
            fmt_name=fmt.name,
            fmt_description=fmt.description,
            manifest=manifest,
            example=example,
        ),
        encoding="utf-8",
    )
    manifest["files"] = file_table(staged, exclude=(MANIFEST_FILE,))
    write_json(staged / MANIFEST_FILE, manifest)


def export_sft(config: ExportConfig, progress: Progress | None = None) -> ExportResult:
    """Build and write the dataset described by ``config`` (see the module docstring).

    Several formats (``format="trl,openai"``): the sources are collected, deduplicated and
    re-graded once; each format then gets its own copy of the skip log and counts, so its
    subdirectory ``out/<format>/`` is exactly what ``format="<format>"`` would write to ``out``.
    A top-level ``manifest.json`` lists the formats and hashes every file.
    """

    report = progress or _noop
    names = config.formats
    fmts = [get_format(name).configured(prose_turn=config.prose_turn) for name in names]
    check_out_dir(config.out, config.force)
    for run_dir in config.run_dirs:
        check_run_dir(run_dir)
    skips = SkipLog()
    counts: dict[str, Any] = {}
    cache_dir = config.episode_cache_dir or default_cache_dir()
    episodes = EpisodeCache(Path(cache_dir) if config.cache_episodes else None)

    collected = _collect(config, skips, report, episodes)
    counts["collected"] = dict(sorted(Counter(c.source for c in collected).items()))
    if not collected:
        raise _nothing_left("after collecting sources", skips, counts)
    ordered = sorted(collected, key=lambda c: (c.task_id, c.source, c.agent, c.content_hash()))
    # Exact duplicates replay identically, so they go before the (costly) re-grade; near
    # duplicates go after it, so a record that fails re-grading never displaces a good one.
    unique, counts["exact_duplicates"] = exact_dedup(ordered)
    prewarm_regrades(unique, config.workers, episodes, lambda d: report("regrade", d))
    suites = _SuiteReferences()
    plans = [
        _plan(
            replace(config, format=fmt.name) if len(fmts) > 1 else config,
            fmt,
            unique,
            copy.deepcopy(skips) if len(fmts) > 1 else skips,
            copy.deepcopy(counts) if len(fmts) > 1 else counts,
            report,
            episodes,
            suites,
        )
        for fmt in fmts
    ]

    report("write", str(config.out))
    staged = staging_dir(config.out)
    try:
        if len(plans) == 1:
            _write(staged, plans[0])
        else:
            for plan in plans:
                _write(staged / plan.fmt.name, plan)
            top = {
                "schema_version": EXPORT_SCHEMA_VERSION,
                "kind": "replicas-sft-export-set",
                "kit_version": __version__,
                "formats": {
                    p.fmt.name: {"dir": p.fmt.name, "written": p.manifest["counts"]["written"]}
                    for p in plans
                },
            }
            top["files"] = file_table(staged, exclude=(MANIFEST_FILE,))
            write_json(staged / MANIFEST_FILE, top)
        publish(staged, config.out, config.force)
    except BaseException:
        discard(staged)
        raise
    results = {
        p.fmt.name: ExportResult(
            config.out if len(plans) == 1 else config.out / p.fmt.name,
            p.manifest,
            p.skips,
            tuple(p.notes),
        )
        for p in plans
    }
    if len(plans) == 1:
        only = results[names[0]]
        return replace(only, parts={names[0]: only})
    notes = tuple(dict.fromkeys(n for p in plans for n in p.notes))
    return ExportResult(config.out, top, skips, notes, parts=results)


__all__ = [
    "EXPORT_SCHEMA_VERSION",
    "ExportConfig",
    "ExportError",
    "ExportResult",
    "export_sft",
    "parse_formats",
]
