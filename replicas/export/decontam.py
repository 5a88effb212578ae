"""Decontamination: train records may share nothing instance-specific with test or a suite.

A train record is dropped when it shares with a reference (the test split, or the tasks of the
suite named by ``--exclude-suite``):

- ``task_id`` — the same task;
- ``instance`` — the same family on the same seed (variants of one family on one seed are built
  from the same data, often the same customer, card or period);
- ``ngram`` — a long word n-gram (13 words, as in GPT-3's contamination study) that is not
  boilerplate.

Task texts are instantiated templates, so every record of a family shares long n-grams with
every other one ("Count only orders with status placed, shipped, ..."), and families share
definitions with each other. Such n-grams say nothing about one instance: an n-gram is
boilerplate, and ignored, when it occurs in the records of at least ``BOILERPLATE_TASKS`` (3)
distinct tasks among everything in play (train, test and the references). Template text recurs
in every task of a family; what remains — text tied to one or two tasks, such as an eval task's
own question with its data and answer — may not appear in train. (Three distinct snapshots
imply three distinct tasks, so text recurring across seeds is covered by the same rule.)

A suite reference excludes the ids and instances of ALL its tasks. Its texts (instruction +
oracle calls, answer included) are built for the suite tasks that could overlap the export at
all: those of a family present in the export, and those on a snapshot the export also used —
a task of another family on another snapshot shares only boilerplate with it. A suite task that
cannot be built (family not registered, build error) is counted and named in the notes.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from replicas.export.conversation import Conversation, canonical_json, ngrams, words
from replicas.export.skips import SkipLog
from replicas.suite import get_suite
from replicas.tasks import task_from_id
from replicas.tasks.base import TaskId

NGRAM_WORDS = 13
BOILERPLATE_TASKS = 3

Snapshot = tuple[str, int]


@dataclass(frozen=True)
class Reference:
    """What train must not overlap: task ids (at the default scale, so the same task built at
    another scale still matches), (family, seed) instances and the referenced texts."""

    name: str
    task_ids: frozenset[str]
    instances: frozenset[tuple[str, int]]
    #: (canonical task id, text) of every referenced document.
    texts: tuple[tuple[str, str], ...] = ()
    unbuilt: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)


def conversations_reference(name: str, conversations: Sequence[Conversation]) -> Reference:
    return Reference(
        name=name,
        task_ids=frozenset(c.canonical_task_id for c in conversations),
        instances=frozenset(c.instance for c in conversations),
        texts=tuple((c.canonical_task_id, c.text()) for c in conversations),
    )


def suite_reference(
    suite_name: str, families: Collection[str], snapshots: Collection[Snapshot]
) -> Reference:
    """The published suite's ids and instances, plus the texts of the suite tasks of
    ``families`` or on ``snapshots`` (see the module docstring)."""

    suite = get_suite(suite_name)
    ids = [TaskId.parse(t) for t in suite.task_ids]
    texts: list[tuple[str, str]] = []
    unbuilt: list[str] = []
    for tid in ids:
        if tid.family not in families and (tid.replica, tid.seed) not in snapshots:
            continue
        try:
            task = task_from_id(str(tid))
        except Exception as exc:  # an unregistered/broken family must not hide the others
            unbuilt.append(f"{tid}: {type(exc).__name__}")
            continue
        calls = "\n".join(canonical_json(c.to_dict()) for c in task.oracle)
        canonical = str(TaskId(tid.family, tid.seed, tid.variant))
        texts.append((canonical, f"{task.instruction}\n{calls}"))
    return Reference(
        name=f"suite {suite_name}",
        task_ids=frozenset(str(TaskId(t.family, t.seed, t.variant)) for t in ids),
        instances=frozenset((t.family, t.seed) for t in ids),
        texts=tuple(texts),
        unbuilt=len(unbuilt),
        notes=tuple(unbuilt[:5]),
    )


def _gram_set(text: str, n: int) -> set[int]:
    # hash() is stable within one process; the grams never leave it
    return {hash(g) for g in ngrams(words(text), n)}


@dataclass
class NgramIndex:
    """n-gram hashes of every document in play, each with (up to 3 of) the tasks it occurs in."""

    n: int
    tasks_of: dict[int, set[str]] = field(default_factory=dict)

    def add(self, task_id: str, grams: Iterable[int]) -> None:
        for gram in grams:
            tasks = self.tasks_of.setdefault(gram, set())
            if len(tasks) < BOILERPLATE_TASKS:
                tasks.add(task_id)

    def is_boilerplate(self, gram: int) -> bool:
        return len(self.tasks_of.get(gram, ())) >= BOILERPLATE_TASKS

    def specific(self, grams: set[int]) -> set[int]:
        """The grams that are not boilerplate."""
        return {g for g in grams if not self.is_boilerplate(g)}


class Decontaminator:
    """Drops train records that overlap references (see the module docstring)."""

    def __init__(self, n: int = NGRAM_WORDS) -> None:
        if n < 5:
            raise ValueError(f"n-gram length must be >= 5 words, got {n}")
        self.n = n
        self.index = NgramIndex(n)
        self._grams: dict[str, set[int]] = {}

    def grams_of(self, conv: Conversation) -> set[int]:
        key = conv.content_hash()
        if key not in self._grams:
            self._grams[key] = _gram_set(conv.text(), self.n)
        return self._grams[key]

    def index_all(
        self, conversations: Sequence[Conversation], references: Sequence[Reference]
    ) -> None:
        """Register every document in play (boilerplate is judged over all of them)."""
        for conv in conversations:
            self.index.add(conv.canonical_task_id, self.grams_of(conv))
        for ref in references:
            for task_id, text in ref.texts:
                self.index.add(task_id, _gram_set(text, self.n))

    def drop_overlapping(
        self, conversations: Sequence[Conversation], reference: Reference, skips: SkipLog
    ) -> list[Conversation]:
        """``conversations`` minus those sharing an id, an instance or a specific n-gram."""
        ref_grams: set[int] = set()
        for _, text in reference.texts:
            ref_grams |= _gram_set(text, self.n)
        ref_specific = self.index.specific(ref_grams)
        kept: list[Conversation] = []
        for conv in conversations:
            if conv.canonical_task_id in reference.task_ids:
                skips.add(f"contaminated_task_id:{reference.name}", conv.record_id)
            elif conv.instance in reference.instances:
                skips.add(f"contaminated_instance:{reference.name}", conv.record_id)
            elif self.grams_of(conv) & ref_specific:
                skips.add(f"contaminated_ngram:{reference.name}", conv.record_id)
            else:
                kept.append(conv)
        return kept
