"""SFT dataset export: fine-tuning data from verified trajectories and oracle demonstrations.

    from replicas.export import ExportConfig, OracleSpec, export_sft
    result = export_sft(ExportConfig(
        out=Path("sft"), format="trl",
        oracle=OracleSpec(families=("ecommerce.revenue_period-v1",), seeds=(100, 101)),
    ))
    result.written            # {"train": 7, "test": 1}

Modules, in the order data flows through them: ``sources`` (oracle replays, run directories)
→ ``conversation`` (the format-neutral record) → ``dedup`` (exact) → ``formats`` (openai, trl,
sharegpt: render, validate, parse back) → ``replay`` (re-grading) → ``dedup`` (near) →
``decontam`` / ``split`` → ``layout`` / ``card`` (JSONL, Parquet in the Hugging Face layout,
dataset card, manifest). ``pipeline`` orders them; ``episodes`` keeps solved plays so a
demonstration is played once for its re-grade, every format and later exports; ``workers``
plays independent tasks in parallel processes with results in plan order.
"""

from replicas.export.conversation import Conversation, ToolTurn
from replicas.export.formats import FORMATS, SFTFormat, get_format
from replicas.export.pipeline import (
    EXPORT_SCHEMA_VERSION,
    ExportConfig,
    ExportError,
    ExportResult,
    export_sft,
)
from replicas.export.sources import OracleSpec, RunSourceError, fresh_seeds

__all__ = [
    "EXPORT_SCHEMA_VERSION",
    "FORMATS",
    "Conversation",
    "ExportConfig",
    "ExportError",
    "ExportResult",
    "OracleSpec",
    "RunSourceError",
    "SFTFormat",
    "ToolTurn",
    "export_sft",
    "fresh_seeds",
    "get_format",
]
