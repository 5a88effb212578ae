"""Prime Intellect ``verifiers.v1``: the kit's taskset loads through v1's own plugin loader,
its tasks are suite tasks with the kit's tools, and v1's scoring reports the kit's verdict.

The episodes are driven by a scripted client (its replies are the oracle's or the null agent's
tool calls as JSON, what ``ReplicaEnv`` feeds the kit turn by turn) through
:class:`EpisodeDriver`, and scored by ``Task.score`` on a v1 ``Trace``. A whole
``Env.run_episode`` is not run here: every v1 harness launches its agent program as a ``uv``
script, which resolves its dependencies at run time, and nothing may be downloaded in tests.

Runs in a subprocess outside the repository: the repository root on ``sys.path`` (pytest puts
it there) would let the kit's top-level ``verifiers/`` source folder shadow PyPI's package.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCENARIO = Path(__file__).with_name("verifiers_scenario.py")
TASKS = ["credit_cards.card_terms_qa-v1.s1.0", "ecommerce.revenue_period-v1.s1.0"]


def test_taskset_rollouts_and_rewards(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SCENARIO), *TASKS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["ids"] == TASKS and out["env"] == "ReplicaEnv"
    assert out["prompts_are_instructions"] and out["tools_in_system_prompt"]
    for task_id in TASKS:
        episode = out["episodes"][task_id]
        oracle, null = episode["oracle"], episode["null"]
        assert oracle["first_is_instruction"] and oracle["done"] and oracle["error_first"]
        assert oracle["reward"] == 1.0
        assert null["done"] and null["reward"] == 0.0
        assert episode["reply_right"] == 1.0 and episode["reply_empty"] == 0.0
