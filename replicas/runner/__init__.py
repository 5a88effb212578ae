"""The runner: suite × agent × attempts → a run directory.

Run directory layout (every file carries ``schema_version``)::

    DIR/run.json                        the run's configuration (suite, agent, attempts, tasks glob,
                                        task ids, executor, kit version, timestamps)
    DIR/results.jsonl                   one line per episode (``replicas.records``)
    DIR/trajectories/<task_id>__<agent>__a<attempt>[__<strategy>].json
                                        the runtime trajectory of each episode
    DIR/summary.json                    written by ``replicas.report.write_summary`` when present

Reading API for reports: :func:`read_results` (valid records + torn/foreign line counts),
:func:`read_run_config`, :func:`read_trajectory`.
"""

from replicas.records import (
    RESULTS_SCHEMA_VERSION,
    RUN_SCHEMA_VERSION,
    EpisodeKey,
    EpisodeRecord,
    record_key,
)
from replicas.runner.executors import ExecutorError, get_executor
from replicas.runner.plan import load_tasks, plan_episodes, select_task_ids
from replicas.runner.records import EpisodeSpec, agent_slug, trajectory_relpath
from replicas.runner.run import (
    DEFAULT_SUITE,
    RunConfig,
    RunDirError,
    RunOutcome,
    run,
    write_summary_if_available,
)
from replicas.runner.store import (
    RESULTS_FILE,
    RUN_FILE,
    TRAJECTORIES_DIR,
    ResultsRead,
    ResultsStore,
    read_results,
    read_run_config,
    read_trajectory,
)

__all__ = [
    "DEFAULT_SUITE",
    "RESULTS_FILE",
    "RESULTS_SCHEMA_VERSION",
    "RUN_FILE",
    "RUN_SCHEMA_VERSION",
    "TRAJECTORIES_DIR",
    "EpisodeKey",
    "EpisodeRecord",
    "EpisodeSpec",
    "ExecutorError",
    "ResultsRead",
    "ResultsStore",
    "RunConfig",
    "RunDirError",
    "RunOutcome",
    "agent_slug",
    "get_executor",
    "load_tasks",
    "plan_episodes",
    "read_results",
    "read_run_config",
    "read_trajectory",
    "record_key",
    "run",
    "select_task_ids",
    "trajectory_relpath",
    "write_summary_if_available",
]
