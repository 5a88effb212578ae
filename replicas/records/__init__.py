"""The on-disk records a run leaves behind, as pydantic models shared by writers and readers.

=====================  =========================================  ================================
file                   model                                      written by / read by
=====================  =========================================  ================================
``results.jsonl``      :class:`EpisodeRecord` (one per line)      runner / report, compare, resume
``run.json``           :class:`RunRecord`                         runner / resume, report
trajectory ``*.json``  :class:`TrajectoryRecord`, ``StepRecord``  env / runner, SFT export, checker
=====================  =========================================  ================================

Every record carries ``schema_version``; a reader refuses versions it does not know. A record that
does not fit its model is a :class:`ValueError` naming the field. (``audit.json`` is the audit's
own model, :class:`replicas.audit.AuditReport`; the snapshot ``manifest.json`` is the build's.)
"""

from __future__ import annotations

from replicas.records.results import RESULTS_SCHEMA_VERSION, EpisodeKey, EpisodeRecord, record_key
from replicas.records.run import RUN_SCHEMA_VERSION, RunRecord
from replicas.records.trajectory import (
    OUTCOMES,
    SCHEMA_VERSION,
    StepRecord,
    TrajectoryRecord,
    totals,
    validate_trajectory,
)

__all__ = [
    "OUTCOMES",
    "RESULTS_SCHEMA_VERSION",
    "RUN_SCHEMA_VERSION",
    "SCHEMA_VERSION",
    "EpisodeKey",
    "EpisodeRecord",
    "RunRecord",
    "StepRecord",
    "TrajectoryRecord",
    "record_key",
    "totals",
    "validate_trajectory",
]
