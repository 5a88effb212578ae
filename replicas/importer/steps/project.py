"""Check a user's dbt project and stage the copy a replica builds from.

The copy differs from the user's project only where the kit's build needs it to:

- ``dbt_project.yml`` names the kit's profile (``replica``, written per build; the user's
  ``profiles.yml`` is read only to refuse a non-duckdb adapter and is not copied);
- every source reads schema ``raw`` (the generator loads there), each table under an
  ``identifier`` that is unique across sources;
- every seed used as raw data becomes a pass-through model of the same name over a
  ``raw`` table (so ``ref('raw_orders')`` still resolves, the generator re-synthesises its rows
  per seed, and the replay engine — which does not run seeds — applies); the seed's YAML
  properties (descriptions, tests) move onto that model;
- vendored packages (``dbt_packages/<pkg>``) become ``macros/vendor/<pkg>/`` with their
  ``<pkg>.`` prefixes dropped (episode sandboxes allow no packages directory).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from replicas.dbt import PROFILE_NAME

__all__ = [
    "SEED_MODEL_DIR",
    "SEED_SOURCE",
    "ImportRefused",
    "ProjectFacts",
    "SeedFile",
    "SourceTable",
    "check_project",
    "stage_copy",
]

SEED_SOURCE = "replica_seed_data"
SEED_MODEL_DIR = "_seed_data"
_NEVER_COPY = {
    "target",
    "logs",
    "dbt_packages",
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    ".user.yml",
    "profiles.yml",
    "packages.yml",
    "dependencies.yml",
    "package-lock.yml",
}


class ImportRefused(ValueError):
    """The project cannot be imported; the message says why and what to do (CLI: exit 2)."""


@dataclass(frozen=True)
class SourceTable:
    """One table of ``sources:`` as the user declared it, and its raw name in the replica."""

    source: str
    name: str
    raw_name: str
    description: str
    columns: tuple[tuple[str, str | None, str], ...]  # (name, declared data_type, description)


@dataclass(frozen=True)
class SeedFile:
    """One CSV under a seed path; ``static`` seeds are kept verbatim instead of re-synthesised."""

    name: str
    path: Path
    raw_name: str
    properties: Mapping[str, Any]
    static: bool


@dataclass(frozen=True)
class ProjectFacts:
    root: Path
    project_name: str
    doc: Mapping[str, Any]
    model_paths: tuple[str, ...]
    seed_paths: tuple[str, ...]
    sources: tuple[SourceTable, ...]
    seeds: tuple[SeedFile, ...]
    vendored: tuple[str, ...] = field(default_factory=tuple)


def _load_yaml(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ImportRefused(f"{path}: not readable YAML ({exc})") from None


def _yaml_files(root: Path, dirs: tuple[str, ...]) -> Iterator[Path]:
    for d in dirs:
        base = root / d
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.suffix in {".yml", ".yaml"} and path.is_file():
                    yield path


def _check_profile(root: Path, profile: str | None) -> None:
    path = root / "profiles.yml"
    if not path.is_file() or not profile:
        return  # the kit writes its own duckdb profile
    doc = _load_yaml(path) or {}
    entry = doc.get(profile) if isinstance(doc, dict) else None
    if not isinstance(entry, dict):
        return
    outputs = entry.get("outputs") or {}
    target = entry.get("target") or next(iter(outputs), None)
    output = outputs.get(target) if isinstance(outputs, dict) else None
    kind = (output or {}).get("type") if isinstance(output, dict) else None
    if kind is not None and str(kind).lower() != "duckdb":
        raise ImportRefused(
            f"{path}: profile {profile!r} target {target!r} uses the {kind!r} adapter; "
            "replicas import dbt needs a dbt-duckdb project (type: duckdb)"
        )


def _package_dir_name(entry: Mapping[str, Any]) -> str:
    if "package" in entry:
        return str(entry["package"]).rsplit("/", 1)[-1]
    if "git" in entry:
        name = str(entry["git"]).rstrip("/").rsplit("/", 1)[-1]
        return name[:-4] if name.endswith(".git") else name
    if "tarball" in entry:
        return str(entry.get("name") or entry["tarball"]).rsplit("/", 1)[-1]
    return str(entry.get("local", "")).rstrip("/").rsplit("/", 1)[-1]


def _check_packages(root: Path) -> tuple[str, ...]:
    """The vendored package names; refuse packages that are neither vendored nor local."""
    missing: list[str] = []
    vendored: list[str] = []
    for fname in ("packages.yml", "dependencies.yml"):
        path = root / fname
        if not path.is_file():
            continue
        doc = _load_yaml(path) or {}
        for entry in (doc.get("packages") or []) if isinstance(doc, dict) else []:
            if not isinstance(entry, dict):
                continue
            label = str(entry.get("package") or entry.get("git") or entry.get("tarball") or "")
            dirname = _package_dir_name(entry)
            if "local" in entry and not label:
                local = (root / str(entry["local"])).resolve()
                if not local.is_dir():
                    missing.append(f"local:{entry['local']}")
                else:
                    raise ImportRefused(
                        f"{path}: local package {entry['local']!r} is not supported; copy the "
                        f"macros you use into macros/vendor/{dirname}/ and remove it from {fname}"
                    )
                continue
            if (root / "dbt_packages" / dirname / "dbt_project.yml").is_file():
                vendored.append(dirname)
            else:
                missing.append(label)
    if missing:
        raise ImportRefused(
            f"{root} needs dbt packages that are not vendored: {', '.join(missing)}; nothing is "
            "downloaded at run time — run `dbt deps` where you have network and keep "
            "dbt_packages/ in the project, or copy the packages' macros into "
            "macros/vendor/<package>/ and remove them from packages.yml"
        )
    return tuple(vendored)


def check_project(path: Path) -> ProjectFacts:
    """The facts of the dbt project at ``path``; :class:`ImportRefused` when it cannot be used."""
    root = Path(path).expanduser()
    if not root.exists():
        raise ImportRefused(f"no such directory: {root}")
    if not root.is_dir():
        raise ImportRefused(f"{root} is not a directory (give the dbt project's root directory)")
    project_yml = root / "dbt_project.yml"
    if not project_yml.is_file():
        raise ImportRefused(f"{root} is not a dbt project (no dbt_project.yml)")
    root = root.resolve()
    doc = _load_yaml(project_yml)
    if not isinstance(doc, dict) or not doc.get("name"):
        raise ImportRefused(f"{project_yml}: no project name")
    _check_profile(root, doc.get("profile"))
    vendored = _check_packages(root)
    model_paths = tuple(str(p) for p in doc.get("model-paths") or ["models"])
    seed_paths = tuple(str(p) for p in doc.get("seed-paths") or ["seeds"])
    for mp in model_paths:
        pys = sorted((root / mp).rglob("*.py")) if (root / mp).is_dir() else []
        if pys:
            raise ImportRefused(
                f"{pys[0]}: Python models are not supported (episode sandboxes run SQL models "
                "only); port it to SQL"
            )
    if not any((root / mp).is_dir() for mp in model_paths):
        raise ImportRefused(f"{root} has no models directory ({', '.join(model_paths)})")
    sources = _read_sources(root, model_paths)
    seeds = _read_seeds(root, model_paths, seed_paths, {t.raw_name for t in sources})
    if not sources and not seeds:
        raise ImportRefused(
            f"{root} declares no sources and has no seeds: there is no raw data to synthesise"
        )
    return ProjectFacts(
        root=root,
        project_name=str(doc["name"]),
        doc=doc,
        model_paths=model_paths,
        seed_paths=seed_paths,
        sources=sources,
        seeds=seeds,
        vendored=vendored,
    )


def _read_sources(root: Path, model_paths: tuple[str, ...]) -> tuple[SourceTable, ...]:
    found: list[tuple[str, dict[str, Any]]] = []
    for path in _yaml_files(root, model_paths):
        doc = _load_yaml(path)
        if not isinstance(doc, dict):
            continue
        for source in doc.get("sources") or []:
            if not isinstance(source, dict) or "name" not in source:
                continue
            for table in source.get("tables") or []:
                if isinstance(table, dict) and "name" in table:
                    found.append((str(source["name"]), table))
    counts: dict[str, int] = {}
    for _, table in found:
        ident = str(table.get("identifier") or table["name"]).lower()
        counts[ident] = counts.get(ident, 0) + 1
    out = []
    for source, table in found:
        ident = str(table.get("identifier") or table["name"]).lower()
        raw = ident if counts[ident] == 1 else f"{source}__{ident}".lower()
        if not raw.isidentifier():
            raise ImportRefused(f"source table {source}.{table['name']}: {raw!r} is not a name")
        cols = tuple(
            (
                str(c["name"]),
                str(c["data_type"]) if c.get("data_type") else None,
                str(c.get("description") or ""),
            )
            for c in table.get("columns") or []
            if isinstance(c, dict) and "name" in c
        )
        out.append(
            SourceTable(source, str(table["name"]), raw, str(table.get("description") or ""), cols)
        )
    return tuple(out)


def _seed_properties(root: Path, dirs: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    props: dict[str, dict[str, Any]] = {}
    for path in _yaml_files(root, dirs):
        doc = _load_yaml(path)
        if isinstance(doc, dict):
            for seed in doc.get("seeds") or []:
                if isinstance(seed, dict) and "name" in seed:
                    props[str(seed["name"])] = seed
    return props


def _read_seeds(
    root: Path, model_paths: tuple[str, ...], seed_paths: tuple[str, ...], taken: set[str]
) -> tuple[SeedFile, ...]:
    props = _seed_properties(root, model_paths + seed_paths)
    out = []
    for sp in seed_paths:
        base = root / sp
        if not base.is_dir():
            continue
        for csv in sorted(base.rglob("*.csv")):
            name = csv.stem
            if not name.isidentifier():
                raise ImportRefused(f"{csv}: seed name {name!r} is not an identifier")
            prop = props.get(name, {})
            meta = dict((prop.get("config") or {}).get("meta") or prop.get("meta") or {})
            static = str((meta.get("replica_kit") or {}).get("synthesise", "true")).lower() in {
                "false",
                "no",
                "0",
            }
            raw = name.lower() if name.lower() not in taken else f"seed__{name.lower()}"
            out.append(SeedFile(name, csv, raw, prop, static))
    return tuple(out)


# --------------------------------------------------------------------------------------------
# the staged copy


def _ignore(_dir: str, names: list[str]) -> set[str]:
    return {n for n in names if n in _NEVER_COPY or n.endswith((".duckdb", ".duckdb.wal"))}


def _rewrite_profile(text: str) -> str:
    if re.search(r"(?m)^profile\s*:", text):
        return re.sub(r"(?m)^profile\s*:.*$", f"profile: {PROFILE_NAME}", text)
    return text.rstrip("\n") + f"\nprofile: {PROFILE_NAME}\n"


def _dump(doc: Any) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)


def _rewrite_yaml(path: Path, facts: ProjectFacts) -> None:
    """Sources read schema ``raw`` under their raw names; seed properties move elsewhere."""
    doc = _load_yaml(path)
    if not isinstance(doc, dict) or not ({"sources", "seeds"} & set(doc)):
        return
    raw_names = {(t.source, t.name): t.raw_name for t in facts.sources}
    for source in doc.get("sources") or []:
        if not isinstance(source, dict):
            continue
        source["schema"] = "raw"
        source.pop("database", None)
        for table in source.get("tables") or []:
            if isinstance(table, dict) and "name" in table:
                table["identifier"] = raw_names[(str(source["name"]), str(table["name"]))]
    doc.pop("seeds", None)
    path.write_text(_dump(doc), encoding="utf-8")


def _seed_models(facts: ProjectFacts, models_root: Path) -> None:
    if not facts.seeds:
        return
    target = models_root / SEED_MODEL_DIR
    target.mkdir(parents=True, exist_ok=True)
    tables = []
    models = []
    for seed in facts.seeds:
        (target / f"{seed.name}.sql").write_text(
            f"-- The seed {seed.name} of the original project, used as raw data: replica-kit\n"
            "-- loads a re-synthesised copy per build seed into the raw schema.\n"
            f"select * from {{{{ source('{SEED_SOURCE}', '{seed.name}') }}}}\n",
            encoding="utf-8",
        )
        tables.append({"name": seed.name, "identifier": seed.raw_name})
        model: dict[str, Any] = {"name": seed.name}
        for key in ("description", "columns", "data_tests", "tests"):
            if key in seed.properties:
                model[key] = seed.properties[key]
        models.append(model)
    doc = {
        "version": 2,
        "sources": [
            {
                "name": SEED_SOURCE,
                "description": "Seeds of the original project, re-synthesised per build.",
                "schema": "raw",
                "tables": tables,
            }
        ],
        "models": models,
    }
    (target / f"{SEED_MODEL_DIR}.yml").write_text(_dump(doc), encoding="utf-8")


def _vendor(facts: ProjectFacts, dest: Path) -> None:
    """Vendored packages' macros go to macros/vendor/<pkg>/, ``<pkg>.`` prefixes dropped."""
    if not facts.vendored:
        return
    prefix = re.compile(r"\b(" + "|".join(map(re.escape, facts.vendored)) + r")\.(?=[A-Za-z_])")
    for pkg in facts.vendored:
        src = facts.root / "dbt_packages" / pkg / "macros"
        if src.is_dir():
            shutil.copytree(src, dest / "macros" / "vendor" / pkg, dirs_exist_ok=True)
    for path in sorted(dest.rglob("*")):
        if path.is_file() and path.suffix in {".sql", ".yml", ".yaml"}:
            text = path.read_text(encoding="utf-8")
            new = prefix.sub("", text)
            if new != text:
                path.write_text(new, encoding="utf-8")


def stage_copy(facts: ProjectFacts, dest: Path) -> None:
    """Write the replica's copy of the project into the new directory ``dest``."""
    shutil.copytree(facts.root, dest, ignore=_ignore)
    for sp in facts.seed_paths:
        seeds_dir = dest / sp
        if seeds_dir.is_dir() and seeds_dir.resolve() != dest.resolve():
            shutil.rmtree(seeds_dir)
    project_yml = dest / "dbt_project.yml"
    project_yml.write_text(_rewrite_profile(project_yml.read_text(encoding="utf-8")))
    for path in list(_yaml_files(dest, facts.model_paths)):
        _rewrite_yaml(path, facts)
    _seed_models(facts, dest / facts.model_paths[0])
    _vendor(facts, dest)
