"""Task model, task families and their registry.

Public surface for family authors (see ``replicas/tasks/family.py`` for a worked example)::

    from replicas.tasks import (
        BuildContext, Task, TaskFamily, ToolCall, Limits, VerifierConfig,
        register_family, sql, submit, write_file, dbt,
    )
"""

from replicas.tasks.base import (
    ANSWER_KINDS,
    DBT_TOOLS,
    DEFAULT_SCALE,
    READ_ONLY_TOOLS,
    TOOL_NAMES,
    AnswerKind,
    Difficulty,
    Limits,
    Task,
    TaskId,
    ToolCall,
    dbt,
    format_task_id,
    sql,
    submit,
    write_file,
)
from replicas.tasks.family import (
    BuildContext,
    TaskBuildError,
    TaskFamily,
    state_tolerance,
    undiscriminated_readings,
)
from replicas.tasks.grading import (
    GradeContext,
    RebuildResult,
    default_grade,
    grade_dbt,
    reference_on,
)
from replicas.tasks.loader import build_task, replicas_home, task_from_id
from replicas.tasks.registry import (
    all_families,
    family_names,
    get_family,
    register_family,
    unregister_family,
)
from replicas.verifiers.config import VerifierConfig

__all__ = [
    "ANSWER_KINDS",
    "DBT_TOOLS",
    "DEFAULT_SCALE",
    "READ_ONLY_TOOLS",
    "TOOL_NAMES",
    "AnswerKind",
    "BuildContext",
    "Difficulty",
    "GradeContext",
    "Limits",
    "RebuildResult",
    "Task",
    "TaskBuildError",
    "TaskFamily",
    "TaskId",
    "ToolCall",
    "VerifierConfig",
    "all_families",
    "build_task",
    "dbt",
    "default_grade",
    "family_names",
    "format_task_id",
    "get_family",
    "grade_dbt",
    "reference_on",
    "register_family",
    "replicas_home",
    "sql",
    "state_tolerance",
    "submit",
    "task_from_id",
    "undiscriminated_readings",
    "unregister_family",
    "write_file",
]
