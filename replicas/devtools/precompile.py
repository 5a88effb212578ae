"""Compile the bytecode of what the OS sandbox imports: dbt and every distribution it requires.

Inside bubblewrap, site-packages is mounted read-only and ``PYTHONDONTWRITEBYTECODE`` is set, so a
module without a ``.pyc`` is compiled from source by every sandboxed dbt process, every time. pip
compiles all of site-packages at install; ``uv pip install`` does not unless asked, and asking
(``--compile-bytecode``) compiles the integrations' large dependency trees too (transformers, ray,
gradio: minutes on 2 cores) although only the host imports them, where Python caches bytecode
itself. ``make install`` therefore installs with uv and then runs

    python -m replicas.devtools.precompile [DISTRIBUTION ...]   (default: dbt-duckdb)

which compiles exactly the files of the named distributions and their requirement closure (read
from the installed metadata, extras of a requirement included when its marker holds), then imports
the modules a sandboxed dbt run imports first and compiles whatever else they loaded (optional
imports such as ``requests`` trying ``chardet``, and the editable install's finder). Exit 0 when
every file compiled, 1 when one failed, 2 when a named distribution is not installed.
"""

from __future__ import annotations

import argparse
import compileall
import importlib
import sys
import sysconfig
import time
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

DEFAULT = ("dbt-duckdb",)
#: What a sandboxed ``python -m dbt.cli.main`` (and the grading driver) imports on every run.
PROBE = (
    "dbt.cli.main",
    "dbt.adapters.duckdb",
    "dbt.adapters.duckdb.impl",
    "dbt.task.build",
    "dbt.task.run",
    "dbt.parser.manifest",
)


def closure(names: Iterable[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions ``names`` need, transitively (by canonical name)."""
    found: dict[str, metadata.Distribution] = {}
    todo: list[tuple[str, frozenset[str]]] = [(n, frozenset()) for n in names]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        if (key, extras) in seen:
            continue
        seen.add((key, extras))
        try:
            dist = found.get(key) or metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional requirement this environment does not have
        found[key] = dist
        for text in dist.requires or []:
            try:
                req = Requirement(text)
            except InvalidRequirement:
                continue
            wanted = [{"extra": e} for e in extras] or [{"extra": ""}]
            if req.marker is not None and not any(req.marker.evaluate(env) for env in wanted):
                continue
            todo.append((req.name, frozenset(req.extras)))
    return found


def python_files(dist: metadata.Distribution) -> list[Path]:
    """The ``.py`` files a distribution installed (from its RECORD), resolved to real paths."""
    out = []
    for file in dist.files or []:
        if file.suffix == ".py":
            path = Path(str(file.locate())).resolve()
            if path.is_file():
                out.append(path)
    return out


def _source(module: object) -> str | None:
    """A loaded module's ``.py`` file outside the standard library (which ships compiled)."""
    path = getattr(module, "__file__", None)
    if not isinstance(path, str) or not path.endswith(".py"):
        return None
    return None if path.startswith(sysconfig.get_paths()["stdlib"]) else path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m replicas.devtools.precompile", description=__doc__.splitlines()[0]
    )
    parser.add_argument("distributions", nargs="*", default=list(DEFAULT))
    args = parser.parse_args(argv)
    missing = []
    for name in args.distributions:
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    if missing:
        print(f"error: not installed: {', '.join(missing)}", file=sys.stderr)
        return 2
    started = time.perf_counter()
    dists = closure(args.distributions)
    files = sorted({f for d in dists.values() for f in python_files(d)})
    ok = all([compileall.compile_file(f, quiet=2) for f in files])
    if args.distributions == list(DEFAULT):
        for module in PROBE:
            importlib.import_module(module)
        loaded = {Path(f).resolve() for m in list(sys.modules.values()) if (f := _source(m))}
        extra = sorted(loaded - set(files))
        ok = all([compileall.compile_file(f, quiet=2) for f in extra]) and ok
        files += extra
    print(
        f"compiled {len(files)} files of {len(dists)} distributions "
        f"in {time.perf_counter() - started:.1f} s"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
