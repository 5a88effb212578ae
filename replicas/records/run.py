"""``DIR/run.json``: how a run was configured (suite, agent, attempts, tasks, executor).

Written by the runner before any episode runs (and rewritten on resume); read back by resume,
which refuses to mix runs of different agents or suites, and by reports, which print it. Reports
also read run directories written by other tools, so only ``schema_version``, ``suite`` and
``agent`` are required; unknown keys are kept as they are.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr

from replicas.records.fields import Name

__all__ = ["RUN_SCHEMA_VERSION", "RunRecord"]

RUN_SCHEMA_VERSION = 1


class RunRecord(BaseModel):
    """One ``run.json``; fields in the order they are written."""

    model_config = ConfigDict(frozen=True, extra="allow")

    schema_version: Literal[1]
    kit_version: StrictStr | None = None
    suite: Name
    agent: Name
    attempts: StrictInt | None = None
    tasks: StrictStr | None = None  # the --tasks glob, when one was given
    task_count: StrictInt | None = None
    task_ids: list[StrictStr] | None = None
    episodes_planned: StrictInt | None = None
    executor: StrictStr | None = None
    workers: StrictInt | None = None
    agent_options: dict[str, Any] | None = None
    created_at: StrictStr | None = None
    updated_at: StrictStr | None = None
    resumed: StrictBool | None = None
    python: StrictStr | None = None
    isolation: StrictStr | None = None  # how agent-controlled processes were isolated

    def to_dict(self) -> dict[str, Any]:
        """What was given (a field never set is not written), in field order."""
        return self.model_dump(exclude_unset=True)
