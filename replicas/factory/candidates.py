"""Candidates: the seed's ordered list of concrete mutants of a replica's project.

The *site catalogue* (every place an operator can break a model, with its alternatives) depends
only on the project and the operators. A seed turns it into candidates: for every site one
alternative drawn from the seed, and an order drawn from the seed in which the models take turns
(round-robin over the models, the starting model rotated by the seed), so variant ``k`` of two
seeds usually breaks different files, and the same variant never means the same fix.

Candidate ``k`` of seed ``s`` is what task ``<replica>.mutant_fix-v1.s<s>.<k>`` breaks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from replicas.factory.operators import (
    OPERATORS_VERSION,
    Choice,
    ModelSql,
    Site,
    all_operators,
)
from replicas.factory.project import ProjectInfo, load_project
from replicas.factory.sqltext import (
    Alignment,
    Edit,
    Parsed,
    Unmutatable,
    apply_edits,
    mask,
)
from replicas.seeding import table_rng

__all__ = ["Candidate", "Catalogue", "candidates_for", "catalogue"]


@dataclass(frozen=True)
class Candidate:
    """One concrete mutant: which model, what the edit is, its raw and compiled SQL."""

    seed: int
    index: int
    operator: str
    model: str
    path: str
    layer: str
    site: str
    note: str
    edits: tuple[Edit, ...]
    raw_mutant: str
    compiled_mutant: str

    @property
    def key(self) -> str:
        """Identity of the mutant (same model text ⇒ same key, whatever the seed)."""
        digest = hashlib.sha256(f"{self.model}\0{self.raw_mutant}".encode()).hexdigest()
        return digest[:16]


@dataclass(frozen=True)
class Catalogue:
    """Every site of a project, grouped by model, plus the models the factory had to skip."""

    project: ProjectInfo
    sites: tuple[Site, ...]
    skipped: tuple[tuple[str, str], ...]
    sources: dict[str, ModelSql]

    def models(self) -> list[str]:
        return sorted({s.model for s in self.sites})


def _model_sql(project: ProjectInfo, name: str) -> ModelSql:
    info = project.models[name]
    masked = mask(info.raw)
    return ModelSql(info, project, masked, Parsed(masked), Alignment(masked, info.compiled))


def _graded_reachable(project: ProjectInfo, model: str) -> bool:
    return any(m in project.marts for m in project.downstream(model))


@cache
def _catalogue(replica: str, fingerprint: str) -> Catalogue:
    project = load_project(replica)
    sites: list[Site] = []
    skipped: list[tuple[str, str]] = []
    sources: dict[str, ModelSql] = {}
    for name in sorted(project.models):
        info = project.models[name]
        if info.materialized == "ephemeral":
            skipped.append((name, "ephemeral models are inlined into others"))
            continue
        if not _graded_reachable(project, name):
            skipped.append((name, "no graded mart is built from it"))
            continue
        try:
            model = _model_sql(project, name)
        except Unmutatable as exc:
            skipped.append((name, str(exc)))
            continue
        sources[name] = model
        for operator in all_operators():
            for site in operator.sites(model):
                good = tuple(c for c in site.choices if _usable(model, c))
                if good:
                    sites.append(Site(site.operator, site.model, site.anchor, site.what, good))
    return Catalogue(project, tuple(sites), tuple(skipped), sources)


def _usable(model: ModelSql, choice: Choice) -> bool:
    try:
        model.alignment.compile_edits(choice.edits)
        apply_edits(model.raw, choice.edits)
    except (Unmutatable, ValueError):
        return False
    return True


def catalogue(replica: str) -> Catalogue:
    """The site catalogue of ``replica``'s current project (memoised per fingerprint)."""
    project = load_project(replica)
    return _catalogue(replica, f"{project.fingerprint}-ops{OPERATORS_VERSION}")


def _order(sites: Sequence[Site], seed: int, replica: str) -> list[Site]:
    by_model: dict[str, list[Site]] = {}
    for site in sites:
        by_model.setdefault(site.model, []).append(site)
    models = sorted(by_model)
    if not models:
        return []
    rng = table_rng(seed, "factory-order", replica, OPERATORS_VERSION)
    for name in models:
        group = by_model[name]
        by_model[name] = [group[int(i)] for i in rng.permutation(len(group))]
    offset = seed % len(models)
    rotated = models[offset:] + models[:offset]
    out: list[Site] = []
    for round_ in range(max(len(g) for g in by_model.values())):
        for name in rotated:
            group = by_model[name]
            if round_ < len(group):
                out.append(group[round_])
    return out


def candidates_for(replica: str, seed: int) -> list[Candidate]:
    """Seed ``seed``'s candidates of ``replica`` in variant order (deterministic)."""
    cat = catalogue(replica)
    out: list[Candidate] = []
    for index, site in enumerate(_order(cat.sites, seed, replica)):
        model = cat.sources[site.model]
        rng = table_rng(seed, "factory-choice", replica, site.model, site.operator, site.anchor)
        choice = site.choices[int(rng.integers(len(site.choices)))]
        compiled_edits = model.alignment.compile_edits(choice.edits)
        out.append(
            Candidate(
                seed=seed,
                index=index,
                operator=site.operator,
                model=site.model,
                path=model.info.path,
                layer=model.info.layer,
                site=site.what,
                note=choice.note,
                edits=choice.edits,
                raw_mutant=apply_edits(model.raw, choice.edits),
                compiled_mutant=apply_edits(model.info.compiled, compiled_edits),
            )
        )
    return out
