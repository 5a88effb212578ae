"""Output formats of the SFT export, by name (a registry: a new format is one entry)."""

from __future__ import annotations

import difflib

from replicas.export.formats.base import SFTFormat, drop_nones
from replicas.export.formats.openai import OpenAIFormat
from replicas.export.formats.sharegpt import ShareGPTFormat
from replicas.export.formats.trl import TRLFormat

FORMATS: dict[str, SFTFormat] = {f.name: f for f in (OpenAIFormat(), TRLFormat(), ShareGPTFormat())}


def get_format(name: str) -> SFTFormat:
    """The format ``name``; ValueError naming the known formats otherwise."""
    fmt = FORMATS.get(name)
    if fmt is None:
        close = difflib.get_close_matches(name, list(FORMATS), n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise ValueError(f"unknown format {name!r}{hint}; formats: {', '.join(FORMATS)}")
    return fmt


__all__ = ["FORMATS", "SFTFormat", "drop_nones", "get_format"]
