"""The funnel of one (replica, seed, scale): candidates validated in order, survivors numbered.

Candidate ``i`` of a seed (``replicas.factory.candidates``) goes through the stages

``candidates`` → ``built`` (the mutant project runs) → ``changed_output`` (a graded mart differs
on the visible data and on a hidden dataset) → ``unique`` (no earlier candidate of the seed gave
the same output on that mart) → ``usable`` (the difference can be told as a symptom).

Survivor ``k`` of the seed is the ``k``-th usable candidate in the seed's order: task
``<replica>.mutant_fix-v1.s<seed>.<k>``. Outcomes are validated lazily (task ``k`` only needs the
candidates up to its own) and cached on disk under ``$REPLICAS_HOME/factory``, keyed by the
project, the operators, the factory's own code, the snapshot and the hidden datasets, so a code
change re-validates and an unchanged one never does.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from replicas.atomicio import write_json_atomic
from replicas.build import ensure_snapshot, source_closure
from replicas.factory.candidates import Candidate, candidates_for
from replicas.factory.operators import OPERATORS_VERSION
from replicas.factory.symptom import describe
from replicas.factory.validate import Evaluator, Outcome
from replicas.paths import replicas_home
from replicas.tasks.hidden import hidden_key

__all__ = ["STAGES", "OutcomeCache", "SeedFunnel", "Survivor", "code_key", "count_stages"]

STAGES: tuple[str, ...] = ("candidates", "built", "changed_output", "unique", "usable")
_SCHEMA = 1


@dataclass(frozen=True)
class Survivor:
    """A usable candidate: the mutant, what validation found, and the symptom text."""

    number: int
    candidate: Candidate
    outcome: Outcome
    symptom: str

    @property
    def graded(self) -> str:
        assert self.outcome.graded is not None  # survivors changed a graded mart
        return self.outcome.graded

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """The broken models as a fix family sees any variant (a combination has several)."""
        return (self.candidate,)


def code_key(module: str) -> str:
    """Hash of ``module``'s first-party source closure: validating code that changes re-validates."""
    digest = hashlib.sha256()
    for name, path in source_closure(module):
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


KeyT = TypeVar("KeyT", int, str)
OutcomeT = TypeVar("OutcomeT", bound="_Cacheable")


class _Cacheable(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class OutcomeCache(Generic[KeyT, OutcomeT]):
    """Outcomes validated lazily, at most once, and kept in one JSON file per funnel.

    Shared by the seed funnel (outcomes by candidate index) and the combinations
    (``replicas.factory.combine``, by combination key). The file is written atomically after
    every :attr:`flush_every` new validations and on :meth:`close`; ``cache=False`` reads and
    writes nothing. A subclass says how to read one stored outcome (:meth:`_stored`) and how to
    make its evaluator.
    """

    flush_every: ClassVar[int] = 10

    def _open_cache(
        self, path: Path, key: str, replica: str, seed: int, scale: float, cache: bool
    ) -> None:
        self.path = path
        self.key = key
        #: ``cache=False`` validates everything anew and writes nothing (measurements, tests).
        self.cache = cache
        self._identity = {"replica": replica, "seed": seed, "scale": scale}
        self._outcomes: dict[KeyT, OutcomeT] = self._load() if cache else {}
        self._evaluator: Evaluator | None = None
        self._dirty = 0
        #: Wall time spent validating (not loading from the cache) in this process.
        self.validate_s = 0.0
        self.validated = 0

    def _stored(self, raw: dict[str, Any]) -> tuple[KeyT, OutcomeT] | None:
        """One outcome of the file and its key (None: stale, skip it; TypeError: drop the file)."""
        raise NotImplementedError

    def _new_evaluator(self) -> Evaluator:
        raise NotImplementedError

    def _load(self) -> dict[KeyT, OutcomeT]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("key") != self.key:
            return {}
        out: dict[KeyT, OutcomeT] = {}
        for raw in data.get("outcomes", []):
            try:
                stored = self._stored(raw)
            except TypeError:
                return {}
            if stored is not None:
                out[stored[0]] = stored[1]
        return out

    def flush(self) -> None:
        """Write the outcomes validated so far (atomically; a failed write costs a re-run)."""
        if not self._dirty or not self.cache:
            return
        payload: dict[str, Any] = {
            "key": self.key,
            **self._identity,
            "outcomes": [self._outcomes[k].to_dict() for k in sorted(self._outcomes)],
        }
        try:
            write_json_atomic(self.path, payload, indent=None, default=str)
        except OSError:
            return
        self._dirty = 0

    def close(self) -> None:
        self.flush()
        if self._evaluator is not None:
            self._evaluator.close()
            self._evaluator = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _validated(self, key: KeyT, validate: Callable[[Any], OutcomeT]) -> OutcomeT:
        """The outcome stored under ``key``, else ``validate(evaluator)``'s, stored."""
        found = self._outcomes.get(key)
        if found is not None:
            return found
        if self._evaluator is None:
            self._evaluator = self._new_evaluator()
        started = time.perf_counter()
        outcome = validate(self._evaluator)
        self.validate_s += time.perf_counter() - started
        self.validated += 1
        self._outcomes[key] = outcome
        self._dirty += 1
        if self._dirty >= self.flush_every:
            self.flush()
        return outcome


class SeedFunnel(OutcomeCache[int, Outcome]):
    """The lazily validated, disk-cached funnel of one (replica, seed, scale)."""

    def __init__(
        self, replica: str, seed: int, scale: float | None = None, *, cache: bool = True
    ) -> None:
        self.replica = replica
        self.seed = seed
        self.snapshot = ensure_snapshot(replica, seed, scale)
        self.scale = float(self.snapshot.scale)
        self.candidates: list[Candidate] = candidates_for(replica, seed)
        manifest = json.dumps(self.snapshot.manifest, sort_keys=True, default=str)
        key = hashlib.sha256(
            "\x1f".join(
                [
                    str(_SCHEMA),
                    str(OPERATORS_VERSION),
                    code_key("replicas.factory.funnel"),
                    hidden_key(replica),
                    manifest,
                ]
            ).encode()
        ).hexdigest()[:24]
        path = replicas_home() / "factory" / replica / f"s{seed}-x{self.scale:g}-{key}.json"
        self._open_cache(path, key, replica, seed, self.scale, cache)

    # ---- cache -------------------------------------------------------------------------------

    def _stored(self, raw: dict[str, Any]) -> tuple[int, Outcome] | None:
        outcome = Outcome.from_dict(raw)
        index = outcome.index
        if 0 <= index < len(self.candidates) and self.candidates[index].key == outcome.key:
            return index, outcome
        return None

    def _new_evaluator(self) -> Evaluator:
        return Evaluator(self.replica, self.seed, self.scale)

    # ---- validation --------------------------------------------------------------------------

    def cached(self, index: int) -> bool:
        return index in self._outcomes

    def outcome(self, index: int) -> Outcome:
        """Candidate ``index``'s outcome, validated now if not cached."""
        return self._validated(index, lambda ev: ev.evaluate(self.candidates[index]))

    def walk(
        self,
        indices: Iterable[int] | None = None,
        *,
        on_outcome: Callable[[Candidate, Outcome], None] | None = None,
    ) -> dict[int, str]:
        """Validate ``indices`` (default: all) in order; the stage each candidate reached.

        ``unique`` compares with every earlier candidate of the seed that changed output, so
        the candidates before the last one asked for are validated too (from the cache when
        they were before): a survivor's number never depends on which candidates were asked.
        """
        wanted = sorted(set(range(len(self.candidates)) if indices is None else indices))
        stages: dict[int, str] = {}
        if not wanted:
            return stages
        seen: set[tuple[str, str]] = set()
        chosen = set(wanted)
        for index in range(wanted[-1] + 1):
            outcome = self.outcome(index)
            stage = self._stage(index, outcome, seen)
            if index in chosen:
                stages[index] = stage
                if on_outcome is not None:
                    on_outcome(self.candidates[index], outcome)
        self.flush()
        return stages

    def _stage(self, index: int, outcome: Outcome, seen: set[tuple[str, str]]) -> str:
        if not outcome.built:
            return "candidates"
        if not outcome.changed_output or outcome.graded is None or outcome.signature is None:
            return "built"
        identity = (outcome.graded, outcome.signature)
        if identity in seen:
            return "changed_output"
        seen.add(identity)
        if self.symptom(index) is None:
            return "unique"
        return "usable"

    def symptom(self, index: int) -> str | None:
        outcome = self.outcome(index)
        return describe(outcome.symptom, outcome.caught, self.candidates[index].model)

    def survivors(self, limit: int | None = None, upto: int | None = None) -> list[Survivor]:
        """Usable candidates in order, numbered 0, 1, …; stops after ``limit`` of them or
        after candidate ``upto``."""
        out: list[Survivor] = []
        seen: set[tuple[str, str]] = set()
        for index, candidate in enumerate(self.candidates):
            if limit is not None and len(out) >= limit:
                break
            if upto is not None and index > upto:
                break
            outcome = self.outcome(index)
            if self._stage(index, outcome, seen) == "usable":
                text = self.symptom(index)
                assert text is not None  # usable means describable
                out.append(Survivor(len(out), candidate, outcome, text))
        self.flush()
        return out


def count_stages(stages: Iterable[str]) -> dict[str, int]:
    """Funnel counts: how many candidates reached each stage (a stage counts all later ones)."""
    reached = dict.fromkeys(STAGES, 0)
    for stage in stages:
        for name in STAGES[: STAGES.index(stage) + 1]:
            reached[name] += 1
    return reached
