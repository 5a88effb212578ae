"""An imported project's deployment knobs: the business rules its companies set differently.

A factory fix task whose right answer is "the project's own file" is solved by memory: the agent
that has the project (the kit's threat model gives it the source) writes the file back. The kit's
own ecommerce project answers this with per-seed *deployments* (``replicas.factory.deploy``):
each seed's company runs the project with its own documented business rules, so the shipped file
is wrong for the seed. The kit cannot guess an imported project's rules, so the project declares
them, in ``replicas_knobs.yml`` at its root::

    version: 1
    knobs:
      - name: revenue_statuses            # one business rule
        model: fct_orders                 # the model whose SQL carries it
        shipped: placed, shipped and completed orders are revenue
        choices:                          # two or more other forms, none the shipped one
          - label: placed orders are not revenue until they ship
            edits:                        # exact replacements, each found `count` times (1)
              - path: dbt_project.yml     # a var: its effect on the model's compiled SQL too
                old: 'revenue_statuses: ["placed", "shipped", "completed"]'
                new: 'revenue_statuses: ["shipped", "completed"]'
                compiled: {model: fct_orders, old: "'placed', 'shipped', 'completed'",
                           new: "'shipped', 'completed'"}
              - path: models/marts/_marts.yml   # and every sentence that states the rule
                old: (placed, shipped, completed)
                new: (shipped, completed)

With knobs, the import registers ``NAME.mutant_fix-v2`` beside ``NAME.mutant_fix-v1``:
``replicas factory NAME`` then screens each seed's survivors under the seed's deployment
(``replicas.factory.deployed``) and the sandbox holds the seed's deployed project. The file is
read with a schema (unknown keys are errors) and every edit is checked against the staged
project at import, and against the compiled SQL when the import builds (``--no-check`` skips
that build); a knob that does not apply refuses the import with the knob, file and text named.
The import keeps the file beside the staged project (``$REPLICAS_HOME/imports/NAME/``), not in
it: a task's sandbox is a copy of the project and must not list the other deployments' rules.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from replicas.factory.deploy import Choice, Knob, Replace

__all__ = ["KNOBS_FILE", "KnobsError", "check_files", "combinations", "load_knobs", "parse_knobs"]

KNOBS_FILE = "replicas_knobs.yml"
#: Deployments checked at import when the knobs allow more (then each alternative once).
_MAX_COMBOS = 4096


class KnobsError(ValueError):
    """The project's knobs file cannot be read or does not apply to the project."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Compiled(_Strict):
    model: str = Field(min_length=1)
    old: str = Field(min_length=1)
    new: str


class _Edit(_Strict):
    path: str = Field(min_length=1)
    old: str = Field(min_length=1)
    new: str
    count: int = Field(default=1, ge=1)
    compiled: _Compiled | None = None


class _Choice(_Strict):
    label: str = Field(min_length=1)
    edits: list[_Edit] = Field(min_length=1)


class _Knob(_Strict):
    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    model: str = Field(min_length=1)
    shipped: str = Field(min_length=1)
    choices: list[_Choice] = Field(min_length=2)


class _File(_Strict):
    version: Literal[1]
    knobs: list[_Knob] = Field(min_length=1)


def _error_text(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def parse_knobs(text: str, *, source: str = KNOBS_FILE) -> tuple[Knob, ...]:
    """The knobs declared in ``text`` (a knobs file's content); KnobsError naming the problem."""
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise KnobsError(f"{source}: not valid YAML ({str(exc).splitlines()[0]})") from None
    try:
        parsed = _File.model_validate(doc)
    except ValidationError as exc:
        raise KnobsError(f"{source}: {_error_text(exc)}") from None
    knobs = []
    for k in parsed.knobs:
        for c in k.choices:
            for e in c.edits:
                if Path(e.path).is_absolute() or ".." in Path(e.path).parts:
                    raise KnobsError(
                        f"{source}: knob {k.name}: edit path {e.path!r} must be relative to the "
                        "project and stay inside it"
                    )
        try:
            knobs.append(
                Knob(
                    name=k.name,
                    model=k.model,
                    shipped=k.shipped,
                    choices=tuple(
                        Choice(
                            c.label,
                            tuple(
                                Replace(
                                    e.path,
                                    e.old,
                                    e.new,
                                    e.count,
                                    model=e.compiled.model if e.compiled else None,
                                    compiled_old=e.compiled.old if e.compiled else None,
                                    compiled_new=e.compiled.new if e.compiled else None,
                                )
                                for e in c.edits
                            ),
                        )
                        for c in k.choices
                    ),
                )
            )
        except ValueError as exc:
            raise KnobsError(f"{source}: {exc}") from None
    names = [k.name for k in knobs]
    if len(set(names)) != len(names):
        raise KnobsError(f"{source}: knob names must be distinct: {names}")
    return tuple(knobs)


def load_knobs(directory: Path) -> tuple[Knob, ...]:
    """The knobs in ``directory``'s knobs file (a project's root, or an import's directory,
    where the import keeps the file beside the staged project); empty when there is none."""
    path = directory / KNOBS_FILE
    if not path.is_file():
        return ()
    return parse_knobs(path.read_text(encoding="utf-8"), source=KNOBS_FILE)


def combinations(knobs: tuple[Knob, ...]) -> list[list[tuple[Knob, Choice]]]:
    """Every deployment ``knobs`` allow (one alternative per knob), at most ``_MAX_COMBOS`` of
    them: the first alternative of each knob with every alternative of every other knob, then
    the full product when it is small enough."""
    total = 1
    for knob in knobs:
        total *= len(knob.choices)
    if total <= _MAX_COMBOS:
        return [list(zip(knobs, combo, strict=True)) for combo in itertools.product(
            *(k.choices for k in knobs)
        )]  # fmt: skip
    out = []
    for i, knob in enumerate(knobs):
        for choice in knob.choices:
            out.append([(k, choice if j == i else k.choices[0]) for j, k in enumerate(knobs)])
    return out


def check_files(project: Path, knobs: tuple[Knob, ...], models: set[str]) -> None:
    """Every edit of every deployment the knobs allow finds its text in the project's files as
    often as it declares (a seed applies one alternative of each knob, in order) and names a
    model of the project; KnobsError naming the knob, alternative, file and text otherwise."""
    for knob in knobs:
        if knob.model not in models:
            raise KnobsError(f"{KNOBS_FILE}: knob {knob.name}: no model {knob.model!r}")
        for choice in knob.choices:
            for edit in choice.edits:
                if edit.model is not None and edit.model not in models:
                    raise KnobsError(
                        f"{KNOBS_FILE}: knob {knob.name}: compiled effect on unknown model "
                        f"{edit.model!r}"
                    )
    originals: dict[str, str] = {}
    for picks in combinations(knobs):
        texts: dict[str, str] = {}
        editors: dict[str, list[str]] = {}  # path -> the knobs that edited it before
        for knob, choice in picks:
            for edit in choice.edits:
                if edit.path not in texts:
                    if edit.path not in originals:
                        file = project / edit.path
                        if not file.is_file():
                            raise KnobsError(
                                f"{KNOBS_FILE}: knob {knob.name} ({choice.label}): no file "
                                f"{edit.path} in the project"
                            )
                        originals[edit.path] = file.read_text(encoding="utf-8")
                    texts[edit.path] = originals[edit.path]
                found = texts[edit.path].count(edit.old)
                if found != edit.count:
                    before = [k for k in editors.get(edit.path, []) if k != knob.name]
                    context = f" after the edits of {', '.join(before)}" if before else ""
                    raise KnobsError(
                        f"{KNOBS_FILE}: knob {knob.name} ({choice.label}): {edit.path} holds "
                        f"{edit.old!r} {found} time(s){context}, the edit expects {edit.count}"
                    )
                texts[edit.path] = texts[edit.path].replace(edit.old, edit.new)
                if knob.name not in editors.setdefault(edit.path, []):
                    editors[edit.path].append(knob.name)
        for path, text in texts.items():
            if path.endswith((".yml", ".yaml")):
                try:
                    yaml.safe_load(text)
                except yaml.YAMLError as exc:
                    rules = ", ".join(f"{k.name}={c.label!r}" for k, c in picks)
                    raise KnobsError(
                        f"{KNOBS_FILE}: {path} is not valid YAML under the deployment {rules} "
                        f"({str(exc).splitlines()[0]})"
                    ) from None
