"""A non-editable install works: build the wheel, install it into a fresh venv, build a replica.

The fresh venv borrows the dependencies already installed in the test interpreter through a
``.pth`` path entry (re-downloading dbt for one test would dominate CI), but the kit itself comes
only from the wheel and the command runs outside the repository, so package data
(the dbt projects) and the ``replicas.generators`` / ``replicas.verifiers`` mapping are exercised
exactly as a user's ``pip install replica-kit`` would.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

from replicas.build import ensure_snapshot
from tests.paths import REPO_ROOT


def test_wheel_installs_and_builds(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(REPO_ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = dist.glob("replica_kit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "replicas/generators/ecommerce/__init__.py" in names
    assert "replicas/generators/credit_cards/catalog.py" in names
    assert "replicas/verifiers/verdict.py" in names
    assert "replicas/verifiers/compliance/__init__.py" in names
    assert "replicas/dbt_projects/ecommerce/dbt_project.yml" in names
    assert not any(n.startswith(("generators/", "verifiers/", "tests/")) for n in names)

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    py = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # dependencies come from the test interpreter's site-packages, appended *after* the venv's own
    deps = [p for p in site.getsitepackages() if "site-packages" in p]
    Path(purelib, "zz_borrowed_deps.pth").write_text("\n".join(deps) + "\n")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "-q",
            "--target",
            purelib,
            str(wheel),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"PYTHONPATH"}},
        "REPLICAS_HOME": str(tmp_path / "home"),
    }
    where = subprocess.run(
        [py, "-c", "import replicas.generators.ecommerce as g, replicas; print(g.__file__)"],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    ).stdout.strip()
    assert where.startswith(purelib), where
    proc = subprocess.run(
        [py, "-m", "replicas.cli", "build", "ecommerce", "--seed", "3", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    manifest = json.loads(proc.stdout)
    assert manifest["dbt"]["ok"] is True
    assert manifest["tables"]["marts"]["fct_orders"]["rows"] > 0
    # Determinism across processes and installs: the wheel's build in a fresh cache has the same
    # content hash, table by table, as this process's (editable) build of the same key.
    here = ensure_snapshot("ecommerce", 3).manifest
    assert manifest["tables"] == here["tables"]
    assert manifest["code_fingerprint"] == here["code_fingerprint"]
