"""``cmd:COMMAND`` — any external harness plays episodes over JSON lines on stdin/stdout.

Protocol (version 1)
--------------------
The kit starts ``COMMAND`` once per episode (split like a shell would with ``shlex``, run
WITHOUT a shell — use ``cmd:"sh -c '…'"`` for pipes or ``&&``; working directory and environment
are the caller's). Each message is one JSON object on one line, UTF-8, newline-terminated.
The harness writes only protocol messages to stdout; logs go to stderr (the kit keeps the tail
of stderr for error reports).

1. kit → harness, once::

     {"type": "reset", "protocol": 1, "task_id": "ecommerce.revenue_period-v1.s1.0",
      "observation": "<the task instruction>",
      "tools": [<OpenAI function schemas: {"type": "function", "function": {...}}>],
      "limits": {"max_steps": 30, "wall_s": 300.0}}

2. harness → kit, one per turn::

     {"type": "action", "name": "sql", "arguments": {"query": "select 1"}}

   ``arguments`` may be an object or a JSON string. Optional ``"usage": {"tokens_in": N,
   "tokens_out": M}`` and ``"cost_usd": X`` are added to the episode's totals.

3. kit → harness, after every action::

     {"type": "observation", "observation": "<tool output or 'ERROR: …'>", "reward": 0.0,
      "terminated": false, "truncated": false, "error": false}

   Bad tool names or arguments come back as an observation with ``"error": true``; the episode
   goes on. ``terminated`` is true after ``submit``; ``truncated`` when a step or time limit hit.

4. kit → harness, when the episode has ended (terminated or truncated)::

     {"type": "verdict", "score": 1.0, "passed": true, "reasons": ["…codes…"],
      "feedback": "…", "outcome": "submitted" | "truncated"}

   then the kit closes the harness's stdin; the harness should exit (it is killed after 5 s).

Failures — the harness exits early, sends a line that is not JSON or not an ``action``, or sends
nothing for ``episode_timeout_s`` (``--episode-timeout``, default 600 s) — end the episode with the
reason recorded as the episode's ``error`` (score 0); the run goes on with the next episode.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from typing import IO, Any

from replicas.agents import register_agent
from replicas.agents.base import Agent, AgentOptions, EnvLike, EpisodeOutcome, StepResult, step

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 10_000_000
#: Lines read ahead of the episode. The protocol is turn by turn, so a harness that floods
#: actions blocks on its own stdout instead of growing the runner's memory.
READ_AHEAD_LINES = 2
EXIT_GRACE_S = 5.0
_EOF = object()


class HarnessError(Exception):
    """The harness broke the protocol; the message becomes the episode's ``error``."""


def _put(lines: queue.Queue[Any], item: Any, stop: threading.Event) -> bool:
    """Block until ``item`` fits in the bounded queue, or give up when the episode is over."""
    while not stop.is_set():
        try:
            lines.put(item, timeout=0.2)
            return True
        except queue.Full:
            continue
    return False


def _reader(stream: IO[bytes], lines: queue.Queue[Any], stop: threading.Event) -> None:
    try:
        for line in iter(lambda: stream.readline(MAX_LINE_BYTES + 1), b""):
            if not _put(lines, line, stop):
                return
    except (OSError, ValueError):
        pass
    _put(lines, _EOF, stop)


class _Harness:
    """One running harness process with a line reader and a deadline."""

    def __init__(self, argv: list[str], deadline: float) -> None:
        self.deadline = deadline
        # kept open for the harness's lifetime and closed in close(); a with-block cannot span it
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self.stderr,
                start_new_session=True,  # its own process group: a kill takes its children too
            )
        except OSError as exc:
            self.stderr.close()
            raise HarnessError(f"cannot start harness {argv[0]!r}: {exc}") from None
        self.lines: queue.Queue[Any] = queue.Queue(maxsize=READ_AHEAD_LINES)
        self.stop = threading.Event()
        stdout = self.proc.stdout
        if stdout is None:  # cannot happen with stdout=PIPE; keeps the type checker honest
            raise HarnessError("harness has no stdout pipe")
        threading.Thread(target=_reader, args=(stdout, self.lines, self.stop), daemon=True).start()

    def send(self, message: Mapping[str, Any]) -> None:
        data = (json.dumps(message, separators=(",", ":"), default=str) + "\n").encode()
        stdin = self.proc.stdin
        try:
            if stdin is None:
                raise ValueError("no stdin pipe")
            stdin.write(data)
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise HarnessError(self._exit_reason("stopped reading its input")) from None

    def receive(self) -> dict[str, Any]:
        remaining = self.deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise HarnessError(
                "harness timed out (no action before the episode deadline)"
            ) from None
        if line is _EOF:
            raise HarnessError(self._exit_reason("exited before the episode ended"))
        if len(line) > MAX_LINE_BYTES:
            raise HarnessError(f"harness sent a line over {MAX_LINE_BYTES} bytes")
        text = line.decode("utf-8", errors="replace").strip()
        if not text:
            return self.receive()
        try:
            message = json.loads(text)
        except ValueError:
            raise HarnessError(f"harness sent malformed JSON: {text[:200]!r}") from None
        if not isinstance(message, dict):
            raise HarnessError(f"harness sent a non-object message: {text[:200]!r}")
        return message

    def _exit_reason(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        status = f"exit code {code}" if code is not None else "still running"
        return f"harness {what} ({status}); stderr tail: {self.stderr_tail()!r}"

    def stderr_tail(self, limit: int = 400) -> str:
        try:
            self.stderr.flush()
            self.stderr.seek(0, os.SEEK_END)
            size = self.stderr.tell()
            self.stderr.seek(max(0, size - limit))
            return self.stderr.read().decode("utf-8", errors="replace").strip()
        except (OSError, ValueError):
            return ""

    def close(self, *, graceful: bool) -> None:
        """Close stdin; give a well-behaved harness ``EXIT_GRACE_S`` to exit, then kill its group
        (at once when it broke the protocol)."""
        self.stop.set()
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=EXIT_GRACE_S if graceful else 0.05)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.stderr.close()


def _usage(message: Mapping[str, Any]) -> tuple[int, int, float]:
    raw = message.get("usage")
    usage: Mapping[str, Any] = raw if isinstance(raw, dict) else {}

    def count(value: Any) -> int:
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0

    cost = message.get("cost_usd")
    cost_value = float(cost) if isinstance(cost, (int, float)) and 0 <= cost < 1e6 else 0.0
    return count(usage.get("tokens_in")), count(usage.get("tokens_out")), cost_value


class CommandAgent(Agent):
    """Drives an external harness process through one episode per run_episode call."""

    def __init__(self, command: str, options: AgentOptions) -> None:
        try:
            self.argv = shlex.split(command)
        except ValueError as exc:
            raise ValueError(f"cannot parse agent command {command!r}: {exc}") from None
        if not self.argv:
            raise ValueError("cmd agent needs a command: 'cmd:python my_agent.py'")
        self.options = options
        self.name = f"cmd:{command}"

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        observation, info = env.reset()
        task = env.task
        tokens_in = tokens_out = 0
        cost = 0.0
        deadline = time.monotonic() + self.options.episode_timeout_s
        try:
            harness = _Harness(self.argv, deadline)
        except HarnessError as exc:
            return EpisodeOutcome(error=str(exc))
        error: str | None = None
        ended = False
        try:
            harness.send(
                {
                    "type": "reset",
                    "protocol": PROTOCOL_VERSION,
                    "task_id": task.id,
                    "observation": observation,
                    "tools": info.get("tools", []),
                    "limits": {"max_steps": task.limits.max_steps, "wall_s": task.limits.wall_s},
                }
            )
            while not ended:
                message = harness.receive()
                name, arguments = _action(message)
                used_in, used_out, used_cost = _usage(message)
                tokens_in += used_in
                tokens_out += used_out
                cost += used_cost
                result = step(env, name, arguments, tokens_in=used_in, tokens_out=used_out)
                ended = result.done
                self._reply(harness, result, ended)
        except HarnessError as exc:
            error = str(exc)
        finally:
            harness.close(graceful=ended)
        return EpisodeOutcome(
            tokens_in=tokens_in, tokens_out=tokens_out, cost_usd=cost, error=error
        )

    @staticmethod
    def _reply(harness: _Harness, result: StepResult, ended: bool) -> None:
        """The observation, and after the last step the verdict. Once the episode has ended, a
        harness that stopped listening is no error: it already has what it needed."""
        messages: list[dict[str, Any]] = [
            {
                "type": "observation",
                "observation": result.observation,
                "reward": result.reward,
                "terminated": result.terminated,
                "truncated": result.truncated,
                "error": bool(result.info.get("error", False)),
            }
        ]
        if ended:
            verdict = result.info.get("verdict") or {}
            messages.append(
                {
                    "type": "verdict",
                    "score": float(verdict.get("score", 0.0)),
                    "passed": bool(verdict.get("passed", False)),
                    "reasons": [r.get("code") for r in verdict.get("reasons", [])],
                    "feedback": str(verdict.get("feedback", "")),
                    "outcome": "submitted" if result.terminated else "truncated",
                }
            )
        try:
            for message in messages:
                harness.send(message)
        except HarnessError:
            if not ended:
                raise


def _action(message: Mapping[str, Any]) -> tuple[str, dict[str, Any] | str]:
    """Name and arguments of an ``action`` message (HarnessError for anything else)."""
    if message.get("type") != "action":
        raise HarnessError(f"expected an action message, got type {message.get('type')!r}")
    name = message.get("name")
    if not isinstance(name, str):
        raise HarnessError("action message needs a string 'name'")
    arguments = message.get("arguments", {})
    if not isinstance(arguments, (dict, str)):
        arguments = json.dumps(arguments)
    return name, arguments


@register_agent(
    "cmd",
    description="external harness over the JSON-lines protocol (replicas.agents.cmd)",
    needs_arg=True,
    arg_name="COMMAND",
)
def _make(arg: str | None, options: AgentOptions) -> Agent:
    return CommandAgent(str(arg), options)
