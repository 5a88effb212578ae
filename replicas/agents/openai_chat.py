"""``openai:MODEL`` — a chat-completions tool-calling loop for any OpenAI-compatible server.

The loop: system prompt + the task instruction as the user message, the env's tools as
``tools``; every tool call the model makes is stepped on the env and its observation returned as
a ``tool`` message, until the env terminates (``submit``) or truncates (step/wall limits).

Conventions (documented because models break them):

* **Malformed tool calls** — arguments that are not JSON, an unknown tool, wrong argument types —
  are passed to the env as they are; the env answers with an error observation (and marks the
  step ``error``), which goes back to the model as that call's ``tool`` message, so the model
  can correct itself.
* **No tool call** — a reply with text but no tool call is treated as ``submit`` of that text
  (many models answer in prose when they are done). An empty reply submits an empty answer.
* **Server trouble** — HTTP 429, 5xx, timeouts, connection errors and unparseable bodies are
  retried with exponential backoff and full jitter (``retry_base_s · 2^n``, capped at
  ``retry_max_s``, at most ``max_retries`` retries; a ``Retry-After`` header is honoured within
  the cap). Other 4xx are not retried. When retries run out the episode ends with ``error`` set;
  the run goes on.
* **Tokens and cost** — ``usage.prompt_tokens`` / ``usage.completion_tokens`` of every response
  are summed per episode; cost comes from :mod:`replicas.agents.prices`.

Endpoint: ``POST {base_url}/chat/completions`` (``--base-url``, default
``https://api.openai.com/v1``). Key: ``OPENAI_API_KEY`` or ``REPLICAS_API_KEY`` (sent as a
Bearer token; omitted when unset, which local servers usually accept).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Mapping
from typing import Any

from replicas.agents import register_agent
from replicas.agents.base import (
    Agent,
    AgentError,
    AgentOptions,
    EnvLike,
    EpisodeOutcome,
    step,
)
from replicas.agents.prices import Price, load_prices, parse_prices, price_for

SYSTEM_PROMPT = (
    "You are a data engineer working in a sandboxed copy of a company's DuckDB warehouse and "
    "dbt project. Use the tools to investigate and, when asked, to change the project. Check "
    "your work with queries before answering. When you are done, call the submit tool exactly "
    "once with your final answer only, in the format the task asks for: one answer, no "
    "alternatives, no explanation."
)

API_KEY_ENVS = ("OPENAI_API_KEY", "REPLICAS_API_KEY")
_RETRYABLE_STATUS = frozenset({408, 409, 425, 429})


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _retry_after(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def _check_completion(body: Any) -> dict[str, Any]:
    """The first choice's message of a chat-completions body; _Retryable if malformed."""
    if not isinstance(body, dict):
        raise _Retryable("response body is not a JSON object")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise _Retryable(f"response has no choices: {json.dumps(body)[:200]}")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise _Retryable("response choice has no message")
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise _Retryable("tool_calls is not a list")
    return message


class OpenAIChatAgent(Agent):
    """Plays an episode by letting a chat-completions model call the env's tools."""

    def __init__(self, model: str, options: AgentOptions) -> None:
        self.model = model
        self.options = options
        self.name = f"openai:{model}"
        self.api_key = options.api_key or next(
            (os.environ[e] for e in API_KEY_ENVS if os.environ.get(e)), None
        )
        if not self.api_key and "api.openai.com" in options.base_url:
            raise ValueError(
                "the OpenAI API needs a key: set OPENAI_API_KEY (or REPLICAS_API_KEY), "
                "or point --base-url at another OpenAI-compatible server"
            )
        table = load_prices()
        custom = dict(options.prices)
        table.update({k: v for k, v in custom.items() if isinstance(v, Price)})
        table.update(parse_prices({k: v for k, v in custom.items() if not isinstance(v, Price)}))
        self.price = price_for(model, table)
        self._client: Any = None
        self._jitter = random.Random()

    # -- HTTP -------------------------------------------------------------------------------

    def _http(self) -> Any:
        if self._client is None:
            import httpx

            headers = {"Content-Type": "application/json"}
            if self.api_key:
                headers["Authorization"] = f"Bearer {self.api_key}"
            self._client = httpx.Client(
                base_url=self.options.base_url.rstrip("/"),
                headers=headers,
                timeout=self.options.request_timeout_s,
            )
        return self._client

    def _post_once(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        import httpx

        try:
            response = self._http().post("/chat/completions", json=payload)
        except httpx.TimeoutException as exc:
            raise _Retryable(f"timeout: {exc}") from None
        except httpx.TransportError as exc:
            raise _Retryable(f"connection error: {exc}") from None
        status = response.status_code
        if status in _RETRYABLE_STATUS or status >= 500:
            raise _Retryable(
                f"HTTP {status}: {response.text[:200]}",
                _retry_after(response.headers.get("retry-after")),
            )
        if status >= 400:
            raise AgentError(
                f"model server refused the request: HTTP {status}: {response.text[:300]}"
            )
        try:
            body = response.json()
        except ValueError:
            raise _Retryable(f"unparseable response body: {response.text[:200]!r}") from None
        return {"message": _check_completion(body), "usage": body.get("usage") or {}}

    def _complete(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """One completion with bounded retries (AgentError when they run out)."""
        last = "no attempt"
        for attempt in range(self.options.max_retries + 1):
            try:
                return self._post_once(payload)
            except _Retryable as exc:
                last = str(exc)
                if attempt == self.options.max_retries:
                    break
                delay = min(self.options.retry_max_s, self.options.retry_base_s * 2**attempt)
                delay *= self._jitter.uniform(0.5, 1.0)
                if exc.retry_after is not None:
                    delay = max(delay, min(exc.retry_after, self.options.retry_max_s))
                time.sleep(delay)
        raise AgentError(f"model server failed {self.options.max_retries + 1} times; last: {last}")

    # -- episode ----------------------------------------------------------------------------

    def _payload(self, messages: list[dict[str, Any]], tools: list[Any]) -> dict[str, Any]:
        payload: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            payload["tools"] = tools
            payload["tool_choice"] = "auto"
        if self.options.temperature is not None:
            payload["temperature"] = self.options.temperature
        if self.options.max_tokens is not None:
            payload["max_tokens"] = self.options.max_tokens
        return payload

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        observation, info = env.reset()
        tools = list(info.get("tools", []))
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": observation},
        ]
        tokens_in = tokens_out = 0
        error: str | None = None
        done = False
        while not done:
            try:
                reply = self._complete(self._payload(messages, tools))
            except AgentError as exc:
                error = str(exc)
                break
            usage = reply["usage"] if isinstance(reply["usage"], dict) else {}
            used_in, used_out = (
                _int(usage.get("prompt_tokens")),
                _int(usage.get("completion_tokens")),
            )
            tokens_in, tokens_out = tokens_in + used_in, tokens_out + used_out
            # a response's usage is recorded on the first step it caused
            pending: tuple[int | None, int | None] = (used_in, used_out)
            message = reply["message"]
            calls = [c for c in message.get("tool_calls") or [] if isinstance(c, dict)]
            content = message.get("content") if isinstance(message.get("content"), str) else ""
            if not calls:
                step(
                    env, "submit", {"answer": content or ""}, tokens_in=used_in, tokens_out=used_out
                )
                break
            messages.append({"role": "assistant", "content": content or None, "tool_calls": calls})
            for call in calls:
                raw_function = call.get("function")
                function: dict[str, Any] = raw_function if isinstance(raw_function, dict) else {}
                name = str(function.get("name") or "")
                arguments = function.get("arguments", "")
                if not isinstance(arguments, (str, dict)):
                    arguments = json.dumps(arguments)
                result = step(env, name, arguments, tokens_in=pending[0], tokens_out=pending[1])
                pending = (None, None)
                messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": str(call.get("id") or f"call_{len(messages)}"),
                        "content": result.observation,
                    }
                )
                if result.done:
                    done = True
                    break
        cost = self.price.cost(tokens_in, tokens_out) if self.price else 0.0
        return EpisodeOutcome(
            tokens_in=tokens_in, tokens_out=tokens_out, cost_usd=cost, error=error
        )

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None


def _int(value: Any) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


@register_agent(
    "openai",
    description="chat-completions tool-calling loop on any OpenAI-compatible server",
    needs_arg=True,
    arg_name="MODEL",
)
def _make(arg: str | None, options: AgentOptions) -> Agent:
    return OpenAIChatAgent(str(arg), options)
