"""Use the kit's environments from the frameworks users train and evaluate with.

One module per framework, each behind its own optional extra (``pip install
"replica-kit[inspect]"``, ``[openenv]``, ``[mcp]``, ``[verifiers]``); importing a module whose
framework is missing raises ``ImportError`` naming the extra. Gymnasium is the core API
(``replicas.Env`` is a ``gymnasium.Env``) and needs no module here; Harbor tasks are an export
(``replicas export harbor``, :mod:`replicas.integrations.harbor`).

- :mod:`replicas.integrations.inspect` — ``suite_task("core-v1")``: an ``inspect_ai.Task``
- :mod:`replicas.integrations.openenv` — an OpenEnv environment server (``replicas serve openenv``)
- :mod:`replicas.integrations.mcp` — an MCP stdio server of one episode (``replicas serve mcp``)
- :mod:`replicas.integrations.verifiers` — ``load_environment(...)`` for ``verifiers.v1``
- :mod:`replicas.integrations.harbor` — Harbor task directories
"""

from __future__ import annotations

from typing import Any

from replicas.verifiers.tables import redact_expected

__all__ = ["agent_verdict"]


def agent_verdict(verdict: dict[str, Any] | None) -> dict[str, Any] | None:
    """A verdict (``Verdict.to_dict()``) as a server facing the agent sends it: each reason's
    ``expected`` evidence removed, and the reference's values withheld from the messages and the
    feedback (``replicas.verifiers.tables.redact_expected``: a table verdict quotes reference
    cells and example rows).

    Why: a wrong answer's verdict holds the expected answer (a question task's number, set or
    list; a table or dbt task's reference cells), and an OpenEnv session may ``reset`` into the
    same task and submit it (a published task's answer never changes). Score, codes, counts and
    the agent's own ``found`` values stay. The runner's records keep the full verdict.
    """
    if verdict is None:
        return None
    reasons = []
    for reason in verdict.get("reasons", []):
        kept = {k: v for k, v in reason.items() if k != "expected"}
        if isinstance(kept.get("message"), str):
            kept["message"] = redact_expected(kept["message"])
        reasons.append(kept)
    out = {**verdict, "reasons": reasons}
    if isinstance(out.get("feedback"), str):
        out["feedback"] = redact_expected(out["feedback"])
    return out
