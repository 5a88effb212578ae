"""Harbor task directories, one per task (``replicas export harbor --suite core-v1 --out DIR``).

Each directory follows Harbor's task format (``task.toml`` schema 1.4, Harbor 0.25)::

    <task id>/
      task.toml                  name, description, metadata, timeouts, resources, no network;
                                 a separate verifier that receives /workspace as an artifact
      instruction.md             the task instruction + where things are in /workspace
      environment/Dockerfile     the agent's image: python, duckdb, dbt-core + dbt-duckdb (NOT
                                 the kit: it can rebuild any task, answer included)
      environment/workspace/     the agent's world: warehouse.duckdb and the dbt project, exactly
                                 what an episode's sandbox holds (withheld models dropped,
                                 patches applied)
      tests/Dockerfile           the verifier's image: python + the kit, this folder at /tests
      tests/test.sh              Harbor's verifier entry point: runs grade.py
      tests/grade.py             the kit's verifier on the agent's final answer/project
      tests/task.json            the task id (read by grade.py)
      solution/solve.sh          the oracle: writes the oracle's files and final answer

The agent answers by writing ``/workspace/answer.txt`` (and, for dbt tasks, editing
``/workspace/project``). The verifier runs in its own container (``environment_mode =
"separate"``; Harbor collects ``/workspace`` from the agent's and restores it there), opens the
task's episode with the kit (building the pristine snapshot, which never exists in the agent's
container), replays every changed project file through the episode's ``write_file`` tool (so
the kit's project policy applies), submits the answer, and writes the verdict's score to
``/logs/verifier/reward.txt`` and the verdict to ``verdict.json``. dbt tasks are graded with the
verifier container as the OS sandbox (bubblewrap rarely runs inside Docker), so ``test.sh`` sets
``REPLICAS_UNSAFE_NO_OS_SANDBOX=1``.

Paths are overridable for running a task's test script outside a container
(``REPLICAS_WORKSPACE``, ``REPLICAS_VERIFIER_LOGS``, ``REPLICAS_PYTHON``); the kit's tests do
exactly that against the oracle and the null answer.
"""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from replicas import __version__
from replicas.atomicio import publish_dir, remove_tree
from replicas.env import make
from replicas.suite import get_suite
from replicas.tasks import Task

__all__ = [
    "ANSWER_FILE",
    "GRADE_SCRIPT",
    "HarborExport",
    "export_harbor",
    "write_task_dir",
]

ANSWER_FILE = "answer.txt"
PROJECT_DIR = "project"
WAREHOUSE_FILE = "warehouse.duckdb"
DEFAULT_IMAGE = "python:3.11-slim"
#: dbt writes these into a project; they are not the agent's work.
_BUILD_OUTPUT_DIRS = ("target", "logs", "dbt_packages")

GRADE_SCRIPT = f'''"""Harbor verifier of one replica-kit task (written by `replicas export harbor`).

Grades the agent's /workspace with the kit's own verifier: opens the task's episode, replays the
project files the agent changed through the episode's write_file tool, submits answer.txt, and
writes the verdict's score to reward.txt and the whole verdict to verdict.json.
"""

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIP_DIRS = {set(_BUILD_OUTPUT_DIRS)!r}


def changed_files(agent: Path, initial: Path) -> dict[str, str]:
    changed = {{}}
    for path in sorted(agent.rglob("*")):
        rel = path.relative_to(agent)
        if not path.is_file() or rel.parts[0] in SKIP_DIRS:
            continue
        before = initial / rel
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not before.is_file() or before.read_text(encoding="utf-8") != text:
            changed[rel.as_posix()] = text
    return changed


def main() -> int:
    task_id = json.loads((HERE / "task.json").read_text(encoding="utf-8"))["task_id"]
    workspace = Path(os.environ.get("REPLICAS_WORKSPACE", "/workspace"))
    logs = Path(os.environ.get("REPLICAS_VERIFIER_LOGS", "/logs/verifier"))
    logs.mkdir(parents=True, exist_ok=True)
    answer_path = workspace / "{ANSWER_FILE}"
    answer = answer_path.read_text(encoding="utf-8").strip() if answer_path.is_file() else ""

    import replicas

    notes = []
    with replicas.make(task_id, agent_name="harbor") as env:
        env.reset()
        project = workspace / "{PROJECT_DIR}"
        if "write_file" in env.task.tools and project.is_dir():
            for rel, text in changed_files(project, env.sandbox.project_dir).items():
                obs, *_ = env.step({{"name": "write_file", "arguments": {{"path": rel, "content": text}}}})
                if obs.startswith("ERROR"):
                    notes.append(f"{{rel}}: {{obs}}")
        _, reward, terminated, truncated, info = env.step(
            {{"name": "submit", "arguments": {{"answer": answer}}}}
        )
        verdict = info.get("verdict") or {{}}
    (logs / "reward.txt").write_text(f"{{float(reward)}}\\n", encoding="utf-8")
    report = {{"task_id": task_id, "reward": float(reward), "verdict": verdict, "notes": notes}}
    (logs / "verdict.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
    print(f"{{task_id}}: reward {{float(reward)}}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

TEST_SCRIPT = """#!/usr/bin/env bash
# Harbor verifier entry point (written by `replicas export harbor`): the kit grades /workspace.
set -euo pipefail
# dbt tasks: the container is the OS sandbox (bubblewrap rarely runs inside Docker).
export REPLICAS_UNSAFE_NO_OS_SANDBOX="${REPLICAS_UNSAFE_NO_OS_SANDBOX:-1}"
exec "${REPLICAS_PYTHON:-python3}" "$(dirname "$0")/grade.py"
"""


@dataclass(frozen=True)
class HarborExport:
    out: Path
    task_dirs: tuple[Path, ...]


def _instruction(task: Task) -> str:
    lines = [
        task.instruction.strip(),
        "",
        "## Where things are",
        "",
        f"- `/workspace/{WAREHOUSE_FILE}`: the warehouse (DuckDB; raw tables in schema `raw`, "
        "dbt models in `main`). Query it with the `duckdb` Python package, which is installed; "
        "work on a copy if you run dbt (the verifier rebuilds the project on its own data).",
        f"- `/workspace/{PROJECT_DIR}/`: the dbt project (dbt-core and dbt-duckdb are installed).",
        "",
        "## How to answer",
        "",
        f"Write your final answer, and nothing else, to `/workspace/{ANSWER_FILE}`.",
    ]
    if "write_file" in task.tools:
        lines.append(
            f"This task is graded on the dbt project: make your changes in "
            f"`/workspace/{PROJECT_DIR}/` and summarise them in `/workspace/{ANSWER_FILE}`."
        )
    return "\n".join(lines) + "\n"


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid TOML basic string


#: Harbor's verifier timeout for a task without its own grading budget (every v1 family).
VERIFIER_TIMEOUT_S = 1800.0
#: What a verifier container spends before grading starts: building the seed's snapshot and the
#: hidden datasets (minutes for the enterprise replica on 2 cores).
VERIFIER_SETUP_S = 900.0


def verifier_timeout_s(task: Task) -> float:
    """Harbor's verifier timeout: long enough for setup plus the task's whole grading budget, so
    Harbor never cuts off a grading the kit would still have finished (and scored)."""
    budget = task.limits.grading_wall_s
    if budget is None:
        return VERIFIER_TIMEOUT_S
    return max(VERIFIER_TIMEOUT_S, float(budget) + VERIFIER_SETUP_S)


def _task_toml(task: Task) -> str:
    agent_s = float(task.limits.wall_s) * 2  # Harbor's agent also pays for model calls
    return "\n".join(
        [
            'schema_version = "1.4"',
            "# the agent's work, collected after its phase and restored in the verifier's container",
            'artifacts = ["/workspace"]',
            "",
            "[task]",
            f"name = {_toml_str('replicas/' + task.id)}",
            f"description = {_toml_str(f'{task.family} ({task.replica}), seed {task.seed}')}",
            'authors = [{ name = "replica-kit" }]',
            f"keywords = [{_toml_str(task.replica)}, {_toml_str(task.answer_kind)}]",
            "",
            "[metadata]",
            f"task_id = {_toml_str(task.id)}",
            f"family = {_toml_str(task.family)}",
            f"difficulty = {_toml_str(task.difficulty)}",
            f"answer_kind = {_toml_str(task.answer_kind)}",
            f"kit_version = {_toml_str(__version__)}",
            "",
            "[verifier]",
            f"timeout_sec = {verifier_timeout_s(task)}",
            'environment_mode = "separate"',
            "",
            "[agent]",
            f"timeout_sec = {agent_s}",
            "",
            "[environment]",
            "build_timeout_sec = 1800.0",
            "cpus = 2",
            "memory_mb = 4096",
            "storage_mb = 10240",
            'network_mode = "no-network"',
            "",
        ]
    )


#: What the agent may use in its container: the warehouse's engine and dbt, not the kit.
AGENT_PACKAGES = ("duckdb", "dbt-core", "dbt-duckdb")


def agent_requirements() -> list[str]:
    """``AGENT_PACKAGES`` pinned to the versions the kit runs with here (Harbor's lint asks for
    exact pins; the exported task then sees the same engine as the kit's own episodes)."""
    return [f"{name}=={metadata.version(name)}" for name in AGENT_PACKAGES]


def _agent_dockerfile(image: str) -> str:
    packages = " ".join(shlex.quote(p) for p in agent_requirements())
    return "\n".join(
        [
            f"FROM {image}",
            f"RUN pip install --no-cache-dir {packages}",
            "WORKDIR /workspace",
            "COPY workspace/ /workspace/",
            "",
        ]
    )


def _verifier_dockerfile(kit_requirement: str, image: str) -> str:
    return "\n".join(
        [
            f"FROM {image}",
            f"RUN pip install --no-cache-dir {shlex.quote(kit_requirement)}",
            "COPY . /tests/",
            "RUN chmod +x /tests/test.sh",
            "",
        ]
    )


def _heredoc(path: str, text: str) -> str:
    """Shell that writes ``text`` to ``$WORKSPACE/path``. A quoted heredoc expands nothing;
    its delimiter derives from the content's hash, so the content cannot end it early. The
    heredoc adds a final newline; ``truncate`` then trims the file back to ``text`` exactly."""
    tag = "REPLICAS_EOF_" + hashlib.sha256(text.encode()).hexdigest()[:16]
    target = f'"$WORKSPACE"/{shlex.quote(path)}'
    return (
        f'mkdir -p "$(dirname {target})"\n'
        f"cat > {target} <<'{tag}'\n{text}\n{tag}\n"
        f"truncate -s -1 {target}\n"
    )


def _solve_script(task: Task) -> str:
    script = (
        "#!/usr/bin/env bash\n"
        "# The oracle (written by `replicas export harbor`): its files and its final answer.\n"
        "set -euo pipefail\n"
        'WORKSPACE="${REPLICAS_WORKSPACE:-/workspace}"\n'
    )
    answer = ""
    for call in task.oracle:
        if call.name == "write_file":
            rel = f"{PROJECT_DIR}/{call.arguments['path']}"
            script += _heredoc(rel, str(call.arguments["content"]))
        elif call.name == "submit":
            answer = str(call.arguments.get("answer", ""))
    return script + _heredoc(ANSWER_FILE, answer)


def write_task_dir(
    task_id: str,
    dest: Path,
    *,
    kit_requirement: str | None = None,
    image: str = DEFAULT_IMAGE,
) -> Path:
    """Write the Harbor task directory of ``task_id`` at ``dest`` (which must not exist)."""
    if dest.exists():
        raise FileExistsError(f"{dest} exists")
    requirement = kit_requirement or f"replica-kit=={__version__}"
    with make(task_id, agent_name="harbor-export") as env:
        env.reset()
        task = env.task
        sandbox = env.sandbox
        assert sandbox is not None  # reset() made it
        workspace = dest / "environment" / "workspace"
        workspace.mkdir(parents=True)
        sandbox.release_connection()
        shutil.copyfile(sandbox.warehouse, workspace / WAREHOUSE_FILE)
        shutil.copytree(
            sandbox.project_dir,
            workspace / PROJECT_DIR,
            ignore=shutil.ignore_patterns(*_BUILD_OUTPUT_DIRS),
        )
    (dest / "environment" / "Dockerfile").write_text(_agent_dockerfile(image), encoding="utf-8")
    (dest / "task.toml").write_text(_task_toml(task), encoding="utf-8")
    (dest / "instruction.md").write_text(_instruction(task), encoding="utf-8")
    tests = dest / "tests"
    tests.mkdir()
    (tests / "test.sh").write_text(TEST_SCRIPT, encoding="utf-8")
    (tests / "grade.py").write_text(GRADE_SCRIPT, encoding="utf-8")
    (tests / "task.json").write_text(json.dumps({"task_id": task.id}) + "\n", encoding="utf-8")
    (tests / "Dockerfile").write_text(_verifier_dockerfile(requirement, image), encoding="utf-8")
    solution = dest / "solution"
    solution.mkdir()
    (solution / "solve.sh").write_text(_solve_script(task), encoding="utf-8")
    for script in (tests / "test.sh", solution / "solve.sh"):
        script.chmod(0o755)
    return dest


def export_harbor(
    out: Path,
    *,
    suite: str = "core-v1",
    task_ids: Sequence[str] = (),
    kit_requirement: str | None = None,
    image: str = DEFAULT_IMAGE,
    force: bool = False,
    progress: Callable[[str], None] | None = None,
) -> HarborExport:
    """One Harbor task directory per task of ``suite`` (or of ``task_ids``) under ``out``.

    Staged in a temporary sibling directory and renamed into place at the end: an interrupted
    export leaves nothing half-written.
    """
    out = Path(out)
    if out.exists() and not force:
        raise FileExistsError(f"{out} exists (use --force to replace it)")
    ids = list(dict.fromkeys(task_ids)) if task_ids else list(get_suite(suite).task_ids)
    out.parent.mkdir(parents=True, exist_ok=True)
    staged = Path(tempfile.mkdtemp(prefix=f".tmp-{out.name}-", dir=out.parent))
    try:
        for task_id in ids:
            if progress is not None:
                progress(task_id)
            write_task_dir(task_id, staged / task_id, kit_requirement=kit_requirement, image=image)
        publish_dir(staged, out)
    except BaseException:
        remove_tree(staged)
        raise
    return HarborExport(out=out, task_dirs=tuple(out / t for t in ids))
