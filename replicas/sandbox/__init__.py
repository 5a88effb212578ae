"""Per-episode sandboxes: the agent's whole world, and the policy on what may live in it.

A sandbox is one private temporary directory per episode::

    <root>/project/           the snapshot's dbt project (+ the task's patch); the only place
                              file tools may touch; created on first use
    <root>/warehouse.duckdb   a copy of the warehouse — only for tasks that write (dbt tasks),
                              with the graded models and everything downstream DROPPED

Modules: ``core`` (the :class:`Sandbox` lifecycle), ``project`` (what a dbt project may contain,
copying an untrusted one), ``templates`` (per-process pristine copies that make resets cheap),
``query_client``/``query_server`` (agent SQL runs in a resource-limited child process per worker
thread) and ``sql_policy`` (what agent SQL may read, how a result cell is shown).
Nothing here ever holds an expected answer: those live in the task and the pristine snapshot.
"""

from replicas.sandbox.core import (
    PROJECT_DIRNAME,
    Sandbox,
    SandboxSpec,
    discard_later,
    wait_for_discards,
)
from replicas.sandbox.project import (
    MAX_PROJECT_FILE_BYTES,
    SKIP_PROJECT_DIRS,
    copy_project_safely,
    prepare_for_dbt,
    project_violations,
    refused_content,
    refused_project_file,
    validate_dbt_project_yml,
)
from replicas.sandbox.templates import WAREHOUSE_NAME, downstream_models, raw_only_warehouse

__all__ = [
    "MAX_PROJECT_FILE_BYTES",
    "PROJECT_DIRNAME",
    "SKIP_PROJECT_DIRS",
    "WAREHOUSE_NAME",
    "Sandbox",
    "SandboxSpec",
    "copy_project_safely",
    "discard_later",
    "downstream_models",
    "prepare_for_dbt",
    "project_violations",
    "raw_only_warehouse",
    "refused_content",
    "refused_project_file",
    "validate_dbt_project_yml",
    "wait_for_discards",
]
