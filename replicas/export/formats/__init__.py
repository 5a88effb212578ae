"""Output formats of the SFT export, by name (a registry: a new format is one entry)."""

from __future__ import annotations

from replicas.export.formats.base import SFTFormat, drop_nones
from replicas.export.formats.openai import OpenAIFormat
from replicas.export.formats.sharegpt import ShareGPTFormat
from replicas.export.formats.trl import TRLFormat
from replicas.registry import Registry

FORMATS: Registry[SFTFormat] = Registry("format")
for _format in (OpenAIFormat(), TRLFormat(), ShareGPTFormat()):
    FORMATS.register(_format.name, _format)


def get_format(name: str) -> SFTFormat:
    """The format ``name``; ValueError naming the known formats otherwise."""
    return FORMATS.get(name)


__all__ = ["FORMATS", "SFTFormat", "drop_nones", "get_format"]
