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

__all__: list[str] = []
