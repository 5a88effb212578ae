"""A hack on dbt tasks: restore the kit's shipped project from memory instead of finding the bug.

``restore_shipped_project`` plays the attack the session-10 red team used on the factory: the
threat model gives the agent the kit's source code, and with it every replica's pristine dbt
project (``get_replica(task.replica).dbt_project``: the shipped ``dbt_projects/<replica>``, or an
imported replica's staged ``$REPLICAS_HOME/imports/<name>/project``). A task whose fix is "put
the pristine file back" — every factory mutation, a fixed injected bug — is then solved without
reading the instruction: write the pristine files back, build, submit. The answer is the same
on every seed (the whole pristine project), which the seed-sensitivity check, comparing one
task's fix with another's, never sees.

Everything goes through the tools, within the episode's step budget (``max_steps``; a dbt run
and the submit are kept in reserve). The strategy diffs as an attacker would:

1. ``list_files`` the project's ``models/``, ``macros/``, ``tests/``, ``snapshots/`` and
   ``seeds/`` (a directory whose listing would overflow the output budget is listed by its
   subdirectories), giving each sandbox file's size;
2. a shipped text file the sandbox lacks, or whose size differs, certainly differs: these are
   written first;
3. files of equal size may still differ (``sum`` → ``max``): when the budget allows reading each
   of them and writing every one that differs, each is read with ``read_file`` and written back
   only if it differs; otherwise they are written back unread (a read costs the step a write
   costs), until the budget runs out.

Within each group the files that can change the graded models come first: the models upstream
of them (by the shipped project's ``ref()``s), then macros, then schema files, then the rest.
Last, ``dbt run --select +<model>`` for every graded model and a submit. Any reward is a hole:
the task's fix can be memorised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from replicas.agents.adversary._base import Session, Strategy, dbt_task
from replicas.agents.base import EnvLike

if TYPE_CHECKING:
    from replicas.tasks import Task

#: The project directories whose files decide what a model builds (dbt_project.yml and the
#: kit-managed profile are left alone: the sandbox validation refuses most edits of them).
RESTORED_DIRS = ("models", "macros", "tests", "snapshots", "seeds")
#: Steps kept for the dbt run and the submit.
RESERVED_STEPS = 2
#: A directory is listed whole when its estimated listing fits this share of the output budget.
LISTING_FILL = 0.85
MAX_FILE_BYTES = 200_000  # write_file's content cap

_REF = re.compile(r"""\bref\(\s*['"]([A-Za-z0-9_]+)['"]\s*\)""")
_LISTED = re.compile(r"^(\S.*?)  \((\d+) bytes\)$")
_TRUNCATED = ("[listing truncated", "[output truncated")
_CONTINUES = "\n… [file continues:"


@dataclass(frozen=True)
class ShippedFile:
    path: str  # relative to the project root, posix
    text: str
    size: int  # bytes on disk
    rank: int  # 0 = a model upstream of a graded one, 1 macro, 2 schema file, 3 anything else


def shipped_project(task: Task) -> Path | None:
    """The pristine project of ``task``'s replica (None when it has none the kit can find)."""
    from replicas.replica import get_replica

    try:
        project = Path(get_replica(task.replica).dbt_project)
    except (ValueError, KeyError):
        return None
    return project if project.is_dir() else None


def _applies(task: Task) -> bool:
    return dbt_task(task) and shipped_project(task) is not None


def _upstream(texts: dict[str, str], models: tuple[str, ...]) -> set[str]:
    """Node names upstream of (and including) ``models`` by the shipped files' ``ref()``s."""
    refs: dict[str, set[str]] = {}
    for path, text in texts.items():
        if path.endswith(".sql"):
            refs.setdefault(Path(path).stem, set()).update(_REF.findall(text))
    seen: set[str] = set()
    todo = list(models)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(refs.get(name, ()))
    return seen


def _rank(path: str, upstream: set[str]) -> int:
    schema = path.endswith((".yml", ".yaml"))
    if Path(path).stem in upstream and not schema:
        return 0
    if path.startswith("macros/"):
        return 1
    return 2 if schema else 3


def shipped_files(project: Path, models: tuple[str, ...]) -> list[ShippedFile]:
    """Every text file under :data:`RESTORED_DIRS`, most relevant to ``models`` first."""
    texts: dict[str, str] = {}
    sizes: dict[str, int] = {}
    for top in RESTORED_DIRS:
        base = project / top
        if not base.is_dir():
            continue
        for file in sorted(base.rglob("*")):
            if not file.is_file() or file.is_symlink() or file.suffix == ".py":
                continue
            data = file.read_bytes()
            if len(data) > MAX_FILE_BYTES or b"\x00" in data:
                continue
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            rel = file.relative_to(project).as_posix()
            texts[rel] = text
            sizes[rel] = len(data)
    upstream = _upstream(texts, models)
    files = [ShippedFile(p, t, sizes[p], _rank(p, upstream)) for p, t in texts.items()]
    return sorted(files, key=lambda f: (f.rank, f.path))


class _Budget:
    """Counts the episode's steps (after ``reset``), keeping :data:`RESERVED_STEPS` back."""

    def __init__(self, task: Task) -> None:
        self.left = task.limits.max_steps - RESERVED_STEPS

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


def _listing_chars(files: list[ShippedFile]) -> int:
    return sum(len(f.path) + len(f"  ({f.size} bytes)\n") for f in files)


def _directories_to_list(files: list[ShippedFile], max_chars: int) -> list[str]:
    """Directories whose listings together cover ``files``, each small enough to fit the output
    budget by the shipped sizes (the sandbox's own files may add some), most relevant first."""
    limit = int(max_chars * LISTING_FILL)
    chosen: list[str] = []

    def under(directory: str) -> list[ShippedFile]:
        return [f for f in files if f.path.startswith(directory + "/")]

    def cover(directory: str) -> None:
        inside = under(directory)
        if not inside:
            return
        children = sorted({f.path[len(directory) + 1 :].split("/")[0] for f in inside})
        subdirs = [f"{directory}/{c}" for c in children if under(f"{directory}/{c}")]
        if _listing_chars(inside) <= limit or not subdirs:
            chosen.append(directory)
            return
        if any("/" not in f.path[len(directory) + 1 :] for f in inside):
            chosen.append(directory)  # its own files come first in its (truncated) listing
        for sub in subdirs:
            cover(sub)

    for top in RESTORED_DIRS:
        cover(top)
    best = {d: min(f.rank for f in under(d)) for d in chosen}
    return sorted(chosen, key=lambda d: (best[d], chosen.index(d)))


def _sandbox_sizes(
    s: Session, budget: _Budget, directories: list[str]
) -> tuple[dict[str, int], set[str]]:
    """(size of every sandbox file seen, directories whose listing was complete)."""
    sizes: dict[str, int] = {}
    complete: set[str] = set()
    for directory in directories:
        if not budget.take():
            break
        result = s.call("list_files", {"path": directory})
        if result is None:
            break
        text = result.observation
        if result.info.get("error"):
            if "does not exist" in text:
                complete.add(directory)  # the sandbox lacks the whole directory
            continue
        for line in text.splitlines():
            if m := _LISTED.match(line):
                sizes[m.group(1)] = int(m.group(2))
        if not any(marker in text for marker in _TRUNCATED):
            complete.add(directory)
    return sizes, complete


def _listed_whole(path: str, complete: set[str]) -> bool:
    return any(path.startswith(d + "/") for d in complete)


def _same_text(s: Session, budget: _Budget, file: ShippedFile) -> bool | None:
    """Whether the sandbox's copy reads the same (None when the step budget is spent)."""
    if not budget.take():
        return None
    shown = s.ok("read_file", {"path": file.path})
    if shown is None:
        return False
    # a long file shows one page: it cannot prove the copies equal, so it is written back
    return _CONTINUES not in shown and shown == file.text


def _write(s: Session, budget: _Budget, file: ShippedFile) -> bool:
    if not budget.take():
        return False
    s.call("write_file", {"path": file.path, "content": file.text})
    return True


def _play(env: EnvLike, task: Task) -> list[str]:
    s = Session(env, task)
    env.reset()
    project = shipped_project(task)
    models = tuple(task.verifier.dbt_models)
    files = shipped_files(project, models) if project is not None else []
    budget = _Budget(task)
    directories = _directories_to_list(files, task.limits.max_output_chars)
    sizes, complete = _sandbox_sizes(s, budget, directories)
    differ = [
        f
        for f in files
        if (f.path in sizes and sizes[f.path] != f.size)
        or (f.path not in sizes and _listed_whole(f.path, complete))
    ]
    unknown = [f for f in files if f not in differ]
    for file in differ:
        if not _write(s, budget, file):
            break
    if 2 * len(unknown) <= budget.left:
        for file in unknown:
            if _same_text(s, budget, file) is False:
                _write(s, budget, file)
    else:
        for file in unknown:
            if not _write(s, budget, file):
                break
    selection = " ".join(f"+{m}" for m in models)
    s.call("dbt", {"command": f"run --select {selection}"})
    s.submit("done: the project is back to its shipped state and the models build")
    return []


STRATEGIES = (
    Strategy(
        "restore_shipped_project",
        "write back the replica's shipped dbt project (from memory: the kit's own files) "
        "where the sandbox differs, build the graded models and submit",
        _applies,
        _play,
    ),
)
