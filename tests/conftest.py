"""Shared fixtures: one build cache for the whole session (snapshots are built once), and
registry isolation for tests that register replicas, families, agents or audit checks."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Set before any test imports the kit so every snapshot lands in one cache. `make test` and CI
# point REPLICAS_HOME at the repository's .replicas-home; a bare `pytest` gets a temp dir.
if "REPLICAS_HOME" not in os.environ:
    os.environ["REPLICAS_HOME"] = tempfile.mkdtemp(prefix="replicas-test-home-")


@pytest.fixture(scope="session")
def replicas_home() -> Path:
    return Path(os.environ["REPLICAS_HOME"])


@contextlib.contextmanager
def _restored_registries() -> Iterator[None]:
    # Imported here, not at the top: REPLICAS_HOME must be set before the kit is first imported.
    from replicas.agents import AGENTS
    from replicas.audit import CHECKS
    from replicas.replica import REPLICAS
    from replicas.tasks.registry import FAMILIES

    with contextlib.ExitStack() as stack:
        for registry in (REPLICAS, FAMILIES, AGENTS, CHECKS):
            stack.enter_context(registry.restoring())
        yield


@pytest.fixture
def registries() -> Iterator[None]:
    """Every replica, family, agent and audit check registered during the test is undone after."""
    with _restored_registries():
        yield


@pytest.fixture(scope="module")
def module_registries() -> Iterator[None]:
    """``registries`` for a whole module (module-scoped fixtures that register depend on it)."""
    with _restored_registries():
        yield


# --------------------------------------------------------------------------------------------
# Scheduling under xdist (`make test` runs `-n 2 --dist loadgroup`).
#
# Why: with per-test scheduling (`worksteal`), the tests of one module can land on both
# workers, and each worker then builds the module's expensive fixture (a whole audit, three SFT
# exports, two dbt imports: minutes each). The modules in ONE_WORKER_MODULES therefore run on
# one worker, as one unit of work, so such a fixture is built once. The list is every module
# that owns a module- or session-scoped fixture computing something (not one that only
# registers toy families), plus test_suite, whose tests fill and read one on-disk task cache:
# run one after the other, the second reads what the first built instead of building the same
# tasks at the same time on the other worker. A new module with an expensive module fixture
# belongs here. Every other test is its own unit and goes to whichever worker is free.
#
# The grouping is done by the scheduler below, not with ``xdist_group`` marks: pytest-xdist
# 3.8 tags grouped tests by assigning ``item._nodeid``, which pytest 9 no longer reads, so
# marks are silently ignored with the pytest installed here.
#
# Work is handed out in collection order, and the collection is sorted heaviest module first
# (longest job first): the tail of the run is made of short tests and neither worker idles
# while the other finishes a long module. The weights only order the run; a module missing
# from MODULE_SECONDS runs after the listed ones, in its usual order.

ONE_WORKER_MODULES = frozenset(
    {
        "test_audit",  # report: one audit of 13 tasks with every check
        "test_build_farm",  # local_farm
        "test_export_chat_templates",  # trl_rows
        "test_export_pipeline",  # exports (three SFT exports), runs
        "test_export_speed",  # plain exports, the shared episode cache
        "test_factory",  # first_task (the seed's funnel)
        "test_factory_multi",  # combos (the combination funnel)
        "test_families_credit_cards",  # snapshots, tasks
        "test_families_ecommerce",  # snapshots and the per-process task memo
        "test_generator_credit_cards",  # builds, warehouse
        "test_generator_ecommerce",  # small, mid
        "test_generator_enterprise",  # small
        "test_import_dbt",  # imported (two dbt imports)
        "test_import_factory",  # imported
        "test_integrations_harbor",  # exported
        "test_integrations_openenv",  # server
        "test_report",  # model_run
        "test_report_html",  # report
        "test_report_real_run",  # real_runs
        "test_runner",  # runs
        "test_suite",  # the task cache of every core-v1/core-v2 task
    }
)

#: Seconds each module took in the fast tier (summed over its tests, setup included), measured
#: 2026-12-02 with a cold REPLICAS_HOME (`--junitxml`, load average 8-10 on 2 cores). Only the
#: order of the run depends on them.
MODULE_SECONDS: dict[str, float] = {
    "test_audit": 417,
    "test_build_replay": 390,
    "test_export_pipeline": 329,
    "test_suite": 288,
    "test_isolation": 250,
    "test_integrations_gymnasium": 193,
    "test_families_ecommerce": 186,
    "test_import_dbt": 181,
    "test_runtime_families": 172,
    "test_runner": 158,
    "test_factory_multi": 137,
    "test_wheel": 131,
    "test_sql_limits": 121,
    "test_security": 120,
    "test_runtime_env": 115,
    "test_build": 93,
    "test_readme_integrations": 90,
    "test_agents_cmd": 82,
    "test_integrations_openenv": 78,
    "test_runner_cli": 75,
    "test_factory": 65,
    "test_generator_credit_cards": 63,
    "test_build_farm": 61,
    "test_integrations_verifiers": 59,
    "test_hard_v2": 58,
    "test_parse_seed": 58,  # 2026-12-02, cold home, load average 3-6
    "test_integrations_mcp": 56,
    "test_integrations_harbor": 46,
    "test_compliance_evalset": 45,
    "test_families_credit_cards": 41,
    "test_compliance": 37,
    "test_cli": 33,
    "test_audit_cli": 30,
    "test_import_factory": 27,
    "test_export_speed": 27,
    "test_integrations_inspect": 24,
    "test_export_chat_templates": 19,
}


def _module_name(item: pytest.Item) -> str:
    return Path(str(item.path)).stem


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # sorted() is stable: within a module (and among unlisted modules) the order is unchanged.
    items[:] = sorted(items, key=lambda item: -MODULE_SECONDS.get(_module_name(item), 0.0))


@pytest.hookimpl(optionalhook=True)  # the hook exists only when pytest-xdist is loaded
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``: ONE_WORKER_MODULES as units, every other test alone, in collection
    order (xdist's default reorders units by their number of tests, undoing the sort above)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleGroupScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if Path(module).stem in ONE_WORKER_MODULES else nodeid

    config.option.loadscopereorder = False
    return ModuleGroupScheduling(config, log)
