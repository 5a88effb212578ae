"""The README's "Use it from …" snippets are the tested code.

Each ```python block under a ``###`` heading of that section is executed exactly as written: the
Gymnasium and verifiers scripts whole in a fresh interpreter (started in the background with the
OpenEnv server, see ``background``), the others in a fresh namespace, and the functions they
define are driven with real, offline components: Inspect's own ``mockllm`` model, a real
``replicas serve openenv`` on 127.0.0.1, the real ``replicas serve mcp`` stdio server spawned
from ``PATH``. Where a snippet takes the answer as an argument it is checked on a null answer
(scores 0) and on the oracle's (scores 1), so a snippet that always reports 0 would fail.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage, get_model
from inspect_ai.tool import ToolChoice, ToolInfo

from replicas.tasks import task_from_id

README = Path(__file__).resolve().parents[1] / "README.md"
SECTION = "## Use it from …"
CARDS = "credit_cards.card_terms_qa-v1.s1.0"
NULL = "I do not know"
STARTUP_S = 300.0  # the machine may be loaded; the server imports the kit before it listens
VENV_BIN = str(Path(sys.executable).parent)  # where `pip install` put the `replicas` command
HEADINGS = {
    "gym": "Gymnasium",
    "inspect": "Inspect AI",
    "openenv": "OpenEnv",
    "mcp": "MCP",
    "verifiers": "Prime Intellect verifiers (`verifiers.v1`)",
}


def _section_snippets() -> dict[str, list[str]]:
    """The ```python blocks of the section, by their ``###`` heading."""
    text = README.read_text(encoding="utf-8")
    assert text.count(f"\n{SECTION}\n") == 1
    section = text.split(f"\n{SECTION}\n", 1)[1].split("\n## ", 1)[0]
    blocks: dict[str, list[str]] = {}
    for part in re.split(r"^### ", section, flags=re.MULTILINE)[1:]:
        heading, body = part.split("\n", 1)
        code = re.findall(r"^```python\n(.*?)^```$", body, flags=re.MULTILINE | re.DOTALL)
        if code:
            blocks[heading.strip()] = code
    return blocks


SNIPPETS = _section_snippets()


def _snippet(key: str) -> str:
    (code,) = SNIPPETS[HEADINGS[key]]
    return code


def _exec(key: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": f"readme_{key}"}
    exec(compile(_snippet(key), f"README.md ({HEADINGS[key]})", "exec"), namespace)
    return namespace


def _oracle_answer(task_id: str) -> str:
    final = task_from_id(task_id).oracle[-1]
    assert final.name == "submit"
    return str(final.arguments["answer"])


def _promised_output(code: str) -> str:
    """What the snippet's ``print(...)  # <output>`` comment says it prints."""
    (promise,) = re.findall(r"^print\(.*\)\s+#\s*(.+)$", code, flags=re.MULTILINE)
    return str(promise).strip()


def test_every_python_block_of_the_section_is_one_of_the_tested_snippets() -> None:
    # a new block under a new heading (or a second block under a tested one) needs a test here
    assert set(SNIPPETS) == set(HEADINGS.values())
    assert all(len(blocks) == 1 for blocks in SNIPPETS.values())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Background:
    """What runs in its own process while the in-process tests run (the machine has two cores;
    most of each is importing a framework): the OpenEnv server and the two whole-script snippets.
    """

    openenv_url: str
    openenv: subprocess.Popen[bytes]
    scripts: dict[str, subprocess.Popen[bytes]]
    logs: Path

    def output(self, key: str) -> str:
        """The last line a script snippet printed (it must have exited 0)."""
        proc = self.scripts[key]
        returncode = proc.wait(timeout=600)
        err = (self.logs / f"{key}.err").read_text(encoding="utf-8", errors="replace")
        assert returncode == 0, err[-3000:]
        return (self.logs / f"{key}.out").read_text(encoding="utf-8").strip().splitlines()[-1]

    def wait_for_openenv(self) -> str:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if self.openenv.poll() is not None:
                err = (self.logs / "openenv.err").read_text(encoding="utf-8", errors="replace")
                raise RuntimeError(f"server exited: {err[-2000:]}")
            try:
                if httpx.get(f"{self.openenv_url}/health", timeout=2).status_code == 200:
                    return self.openenv_url
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not come up")
            time.sleep(0.5)


def _spawn(cmd: list[str], logs: Path, key: str) -> subprocess.Popen[bytes]:
    # output to files, not pipes: a full pipe nobody reads yet would stall the process
    with (logs / f"{key}.out").open("wb") as out, (logs / f"{key}.err").open("wb") as err:
        return subprocess.Popen(cmd, cwd=logs, stdout=out, stderr=err, env=os.environ)


@pytest.fixture(scope="module", autouse=True)
def background(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Background]:
    """Started before the first test. The script snippets run whole in a fresh interpreter
    outside the repository: fresh, because whether ``import replicas`` registers the Gymnasium
    ids depends on what was imported before it; outside, because with the repository root on
    sys.path (pytest puts it there) the kit's top-level ``verifiers/`` source folder would shadow
    PyPI's package."""
    logs = tmp_path_factory.mktemp("readme")
    port = _free_port()
    server = [os.path.join(VENV_BIN, "replicas"), "serve", "openenv", "--port", str(port)]
    server += ["--suite", "core-v1"]
    procs = {"openenv": _spawn(server, logs, "openenv")}
    for key in ("gym", "verifiers"):
        procs[key] = _spawn([sys.executable, "-c", _snippet(key)], logs, key)
    try:
        yield Background(
            openenv_url=f"http://127.0.0.1:{port}",
            openenv=procs["openenv"],
            scripts={k: procs[k] for k in ("gym", "verifiers")},
            logs=logs,
        )
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _scripted(calls: list[dict[str, Any]]) -> Any:
    """mockllm outputs: the calls in order, then a plain reply that ends the tool loop. Usage is
    set on every output: without it mockllm counts tokens with tiktoken's ``o200k_base``, which
    tiktoken downloads at run time."""
    usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)

    def output(
        input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: Any
    ) -> ModelOutput:
        turn = sum(1 for m in input if m.role == "assistant")
        if turn < len(calls):
            call = calls[turn]
            assert call["name"] in {t.name for t in tools}  # the episode's tools were offered
            out = ModelOutput.for_tool_call("mockllm", call["name"], call["arguments"])
        else:
            out = ModelOutput.from_content("mockllm", "Done.")
        out.usage = usage
        return out

    return output


def test_inspect_snippet_scores_with_inspects_mock_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # Inspect writes ./logs
    tiktoken_cache = tmp_path / "tiktoken"
    tiktoken_cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tiktoken_cache))
    evaluate = _exec("inspect")["evaluate"]
    null = [{"name": "submit", "arguments": {"answer": NULL}}]
    oracle = [c.to_action() for c in task_from_id(CARDS).oracle]
    null_score = evaluate(get_model("mockllm/model", custom_outputs=_scripted(null)))
    oracle_score = evaluate(get_model("mockllm/model", custom_outputs=_scripted(oracle)))
    assert isinstance(null_score, float) and 0.0 <= null_score <= 1.0
    assert (null_score, oracle_score) == (0.0, 1.0)
    assert list(tiktoken_cache.iterdir()) == []  # nothing was fetched
    assert len(list((tmp_path / "logs").glob("*.eval"))) == 2


def test_mcp_snippet_asks_the_real_stdio_server(monkeypatch: pytest.MonkeyPatch) -> None:
    # the snippet spawns `replicas` from PATH, as a user's shell would find it
    monkeypatch.setenv("PATH", VENV_BIN + os.pathsep + os.environ.get("PATH", ""))
    ask = _exec("mcp")["ask"]
    tools, score = anyio.run(ask, CARDS, NULL)
    assert "submit" in tools and set(task_from_id(CARDS).tools) <= set(tools)
    assert score == 0.0
    _, score = anyio.run(ask, CARDS, _oracle_answer(CARDS))
    assert score == 1.0


def test_openenv_snippet_plays_against_the_real_server(background: Background) -> None:
    play = _exec("openenv")["play"]
    base_url = background.wait_for_openenv()
    assert play(base_url, CARDS, NULL) == (0.0, True, False)
    assert play(base_url, CARDS, _oracle_answer(CARDS)) == (1.0, True, True)


def test_gymnasium_snippet_prints_what_it_says(background: Background) -> None:
    printed = background.output("gym")
    assert printed == "0.0 True False"
    assert printed == _promised_output(_snippet("gym"))


def test_verifiers_snippet_prints_what_it_says(background: Background) -> None:
    printed = background.output("verifiers")
    assert printed == "True 0.0"
    assert printed == _promised_output(_snippet("verifiers"))
