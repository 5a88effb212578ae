"""Per-seed deployments: the business rules one seed's company runs its project with.

A factory "fix the bug" task whose fix is "put the kit's file back" is solved by memory: the
threat model gives the agent the kit's source, and writing the shipped project back verbatim
restores every pristine model (red team, session 10; the audit's ``restore_shipped_project``
strategy). A deployment takes that away. Each seed's company runs the shipped project with its
own documented business rules - whether shipping counts as revenue, how many orders make a
repeat customer, what a bounce is, how far a payment may be off before it is a mismatch. A
replica registers **knobs** (:func:`register_knobs`): one rule each, its shipped form and at
least two alternatives, each alternative a set of exact text replacements in the model's SQL
*and* in every document that states the rule (model YAML, the project README). The seed draws
one alternative per knob (never the shipped form), so:

- the seed's pristine project is the shipped one with those replacements: its SQL and its
  documentation agree, and the project's data tests pass on it (``tests/test_factory_deploy.py``
  checks every alternative on the visible and hidden data);
- the shipped file is wrong for the seed: writing it back undoes the seed's rule (a task is only
  kept when the graded mart differs between the two, ``replicas.factory.family``);
- the right file differs between seeds (two or more alternatives per knob), so no single
  memorised project fits them.

Grading needs the seed's mart on every dataset; the warehouses hold the *shipped* models, so
:func:`inline_reference` writes the deployed mart as one query over them: every model between a
deployed model and the mart, compiled with the seed's rules, as a common table expression.

What a deployment does not stop: an agent that diffs its sandbox against the kit's project sees
which files the deployment changed and, reading their documentation, which hunk is a rule and
which is the bug. That is reading the docs plus memory; README (The environment factory) says so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from replicas.factory.project import ProjectInfo, load_project
from replicas.replica import get_replica
from replicas.seeding import table_rng

__all__ = [
    "DEPLOY_VERSION",
    "Choice",
    "Deployment",
    "DeploymentError",
    "Knob",
    "Replace",
    "deployed_files",
    "deployed_with",
    "deployment",
    "draw",
    "inline_reference",
    "knobs_for",
    "register_knobs",
    "unregister_knobs",
]

#: Bump when drawing or applying changes what a seed's deployment is.
DEPLOY_VERSION = 1
_CTE = "__deployed_"


class DeploymentError(ValueError):
    """A knob's replacement does not match the project (text gone, or found a wrong number of
    times): the knob is stale against the project and must be rewritten."""


@dataclass(frozen=True)
class Replace:
    """Replace ``old`` by ``new`` in the project file ``path``; ``old`` must occur ``count``
    times (in a model's SQL file, also ``count`` times in its compiled SQL).

    A configuration edit (``dbt_project.yml``'s vars) changes a model's compiled SQL without
    touching its file: ``model`` names it, and ``compiled_old`` → ``compiled_new`` is the
    effect. Writing the model's shipped file back does not undo such a rule."""

    path: str
    old: str
    new: str
    count: int = 1
    model: str | None = None
    compiled_old: str | None = None
    compiled_new: str | None = None

    def __post_init__(self) -> None:
        if (self.model is None) != (self.compiled_old is None) or (self.compiled_old is None) != (
            self.compiled_new is None
        ):
            raise ValueError(f"{self.path}: a configuration edit names its model and effect")


@dataclass(frozen=True)
class Choice:
    """One form of a knob's rule: a short label (what the company decided) and its edits."""

    label: str
    edits: tuple[Replace, ...]


@dataclass(frozen=True)
class Knob:
    """One business rule of a replica's project that companies set differently."""

    name: str
    #: the model whose SQL carries the rule
    model: str
    #: the shipped project's form of the rule, in words
    shipped: str
    #: the alternatives a seed draws from (at least two, none of them the shipped form)
    choices: tuple[Choice, ...]

    def __post_init__(self) -> None:
        if len(self.choices) < 2:
            raise ValueError(f"knob {self.name}: at least two alternatives, so none is constant")
        if len({c.label for c in self.choices}) != len(self.choices):
            raise ValueError(f"knob {self.name}: alternatives need distinct labels")


_KNOBS: dict[str, tuple[Knob, ...]] = {}


def register_knobs(replica: str, knobs: Sequence[Knob]) -> None:
    """Make ``knobs`` the deployment rules of ``replica`` (one registration per replica)."""
    names = [k.name for k in knobs]
    if len(set(names)) != len(names):
        raise ValueError(f"{replica}: knob names must be distinct: {names}")
    _KNOBS[replica] = tuple(knobs)


def unregister_knobs(replica: str) -> None:
    """Forget ``replica``'s knobs (an imported replica withdrawn or re-imported without any)."""
    _KNOBS.pop(replica, None)


def knobs_for(replica: str) -> tuple[Knob, ...]:
    """The registered knobs of ``replica`` (empty: it has no deployments)."""
    # the families register their replica's knobs when the family registry loads
    from replicas.tasks.registry import family_names

    family_names()
    return _KNOBS.get(replica, ())


@dataclass(frozen=True)
class Deployment:
    """Seed ``seed``'s rules: the knob alternatives drawn, and the files and compiled models
    they change (only those)."""

    replica: str
    seed: int
    picks: tuple[tuple[str, str], ...]
    #: project-relative path -> the file's deployed text
    files: Mapping[str, str] = field(repr=False)
    #: model -> its deployed compiled SQL
    models: Mapping[str, str] = field(repr=False)
    #: model -> (old, new, count) edits of its SQL file (to apply on top of a mutant of it)
    model_edits: Mapping[str, tuple[tuple[str, str, int], ...]] = field(repr=False)
    #: model -> (old, new, count) edits of its compiled SQL (file and configuration rules)
    compiled_edits: Mapping[str, tuple[tuple[str, str, int], ...]] = field(repr=False)
    #: model -> its compiled SQL with only the configuration rules: what an agent that writes
    #: the kit's model files back (but keeps dbt_project.yml) builds
    restored: Mapping[str, str] = field(repr=False)

    @property
    def key(self) -> str:
        """What the deployment is, for cache keys."""
        blob = json.dumps(
            [DEPLOY_VERSION, self.picks, sorted(self.files.items()), sorted(self.models.items())]
        )
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def rules(self) -> dict[str, str]:
        """knob -> the drawn alternative's label."""
        return dict(self.picks)

    def apply(self, model: str, text: str, *, compiled: bool = False) -> str | None:
        """``text`` (a mutant of ``model``'s file, or of its compiled SQL) with the seed's rules
        of that model applied; None when a mutation touched a rule's text (they overlap)."""
        out = text
        edits = self.compiled_edits if compiled else self.model_edits
        for old, new, count in edits.get(model, ()):
            if out.count(old) != count:
                return None
            out = out.replace(old, new)
        return out


def _replaced(text: str, old: str, new: str, count: int, where: str) -> str:
    found = text.count(old)
    if found != count:
        raise DeploymentError(f"{where}: expected {count} occurrence(s) of {old!r}, found {found}")
    return text.replace(old, new)


def deployment(replica: str, seed: int) -> Deployment:
    """Seed ``seed``'s deployment of ``replica`` (deterministic; memoised)."""
    project = load_project(replica)
    # the knobs are in the key: an imported replica's knobs file may change without its models
    return _deployment(replica, seed, project.fingerprint, knobs_for(replica))


def draw(replica: str, seed: int) -> list[tuple[Knob, Choice]]:
    """The alternative seed ``seed`` draws for each knob of ``replica``."""
    picks = []
    for knob in knobs_for(replica):
        rng = table_rng(seed, "deployment", replica, knob.name, DEPLOY_VERSION)
        picks.append((knob, knob.choices[int(rng.integers(len(knob.choices)))]))
    return picks


@cache
def _deployment(replica: str, seed: int, fingerprint: str, knobs: tuple[Knob, ...]) -> Deployment:
    return deployed_with(replica, seed, draw(replica, seed))


def deployed_files(root: Path, picks: Sequence[tuple[Knob, Choice]]) -> dict[str, str]:
    """The project files under ``root`` that ``picks`` change, with their deployed text (the
    text-only part of a deployment, for projects the factory's replay cannot compile;
    DeploymentError when a replacement does not match)."""
    files: dict[str, str] = {}
    for _, choice in picks:
        for edit in choice.edits:
            if edit.model is not None:
                raise DeploymentError(
                    f"{edit.path}: a configuration edit needs the compiled project"
                )
            text = files.get(edit.path)
            if text is None:
                text = (root / edit.path).read_text(encoding="utf-8")
            files[edit.path] = _replaced(text, edit.old, edit.new, edit.count, edit.path)
    return files


def deployed_with(replica: str, seed: int, picks: Sequence[tuple[Knob, Choice]]) -> Deployment:
    """The deployment that applies ``picks`` to ``replica``'s shipped project (DeploymentError
    when a replacement does not match it)."""
    project = load_project(replica)
    root = Path(get_replica(replica).dbt_project)
    by_path = {m.path: name for name, m in project.models.items()}
    files: dict[str, str] = {}
    model_edits: dict[str, list[tuple[str, str, int]]] = {}
    compiled_edits: dict[str, list[tuple[str, str, int]]] = {}
    config_edits: dict[str, list[tuple[str, str, int]]] = {}
    for _, choice in picks:
        for edit in choice.edits:
            text = files.get(edit.path)
            if text is None:
                text = (root / edit.path).read_text(encoding="utf-8")
            files[edit.path] = _replaced(text, edit.old, edit.new, edit.count, edit.path)
            if edit.model is not None:
                assert edit.compiled_old is not None and edit.compiled_new is not None
                effect = (edit.compiled_old, edit.compiled_new, edit.count)
                compiled_edits.setdefault(edit.model, []).append(effect)
                config_edits.setdefault(edit.model, []).append(effect)
            elif edit.path in by_path:
                model = by_path[edit.path]
                model_edits.setdefault(model, []).append((edit.old, edit.new, edit.count))
                compiled_edits.setdefault(model, []).append((edit.old, edit.new, edit.count))

    def compiled(edits: Mapping[str, list[tuple[str, str, int]]]) -> dict[str, str]:
        out = {}
        for model, changes in edits.items():
            sql = project.models[model].compiled
            for old, new, count in changes:
                sql = _replaced(sql, old, new, count, f"{model} (compiled)")
            out[model] = sql
        return out

    return Deployment(
        replica=replica,
        seed=seed,
        picks=tuple((knob.name, choice.label) for knob, choice in picks),
        files=files,
        models=compiled(compiled_edits),
        model_edits={m: tuple(e) for m, e in model_edits.items()},
        compiled_edits={m: tuple(e) for m, e in compiled_edits.items()},
        restored=compiled(config_edits),
    )


def relation(project: ProjectInfo, model: str) -> str:
    """How compiled SQL names ``model``'s relation (``"db"."schema"."identifier"``)."""
    step = next(s for s in project.plan.models if s.unique_id == project.models[model].unique_id)
    return ".".join(
        '"' + p.replace('"', '""') + '"' for p in (step.database, step.schema, step.identifier)
    )


def affected(project: ProjectInfo, changed: Sequence[str], mart: str) -> list[str]:
    """The models between any of ``changed`` and ``mart`` (both ends included), in DAG order:
    what must be recomputed for ``mart`` when ``changed`` change."""
    down: set[str] = set()
    for name in changed:
        down.update(project.downstream(name))
    if mart not in down:
        return []
    needed = {mart}
    plan_order = [s.unique_id.rsplit(".", 1)[-1] for s in project.plan.models]
    for name in reversed(plan_order):
        if name in needed:
            needed.update(p for p in project.models[name].parents if p in down)
    return [m for m in plan_order if m in needed and m in down]


def inline_reference(project: ProjectInfo, mart: str, overrides: Mapping[str, str]) -> str | None:
    """``mart`` computed with ``overrides`` (model -> compiled SQL) as one query over a
    warehouse holding the pristine models (each model in between becomes a CTE); None when no
    override is upstream of ``mart`` (the pristine mart is the reference)."""
    chain = affected(project, sorted(overrides), mart)
    if not chain:
        return None
    names = {m: relation(project, m) for m in chain}
    ctes = []
    for model in chain:
        info = project.models[model]
        if info.materialized == "ephemeral":
            raise DeploymentError(f"{model}: an ephemeral model cannot be inlined")
        sql = overrides.get(model, info.compiled)
        for other, rel in names.items():
            sql = sql.replace(rel, f'"{_CTE}{other}"')
        ctes.append(f'"{_CTE}{model}" as (\n{sql.rstrip().rstrip(";")}\n)')
    return "with " + ",\n".join(ctes) + f'\nselect * from "{_CTE}{mart}"'
