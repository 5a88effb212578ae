"""Seeded, vectorised data generators, installed as ``replicas.generators``.

Each replica has one module exposing ``generate(seed, scale) -> dict[str, polars.DataFrame]``.
"""
