"""Seed farms: a process pool and Ray build the same snapshots; cached seeds are skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replicas.build import BuildKey, FarmReport, SeedOutcome, build_many, parse_seeds
from tests.toy_replica import ensure_registered

ensure_registered()

SEEDS = [41, 42, 43]


@pytest.mark.parametrize(
    ("text", "seeds"),
    [("7", [7]), ("1-3", [1, 2, 3]), ("1-3,10, 12-13", [1, 2, 3, 10, 12, 13]), ("2,1-2", [2, 1])],
)
def test_parse_seeds(text: str, seeds: list[int]) -> None:
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("", "bad seed list"), ("a-b", "bad seed list"), ("5-1", "before the start"), ("-3", "bad")],
)
def test_parse_seeds_rejects_bad_lists(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        parse_seeds(text)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"executor": "slurm"}, "unknown executor"),
        ({"engine": "spark"}, "unknown build engine"),
        ({"workers": 0}, "positive integer"),
        ({"ray_address": "127.0.0.1:6379"}, "only applies to the ray executor"),
        ({"seeds": [1, -1]}, "non-negative integer"),
    ],
)
def test_bad_farm_arguments_fail_before_any_work(kwargs: dict, fragment: str) -> None:
    args: dict = {"seeds": [1], **kwargs}
    with pytest.raises(ValueError, match=fragment):
        build_many("toy", args.pop("seeds"), **args)


@pytest.fixture(scope="module")
def local_farm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FarmReport]:
    """A private cache and a 2-worker local farm over SEEDS (the first seed compiles)."""
    home = tmp_path_factory.mktemp("farm-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REPLICAS_HOME", str(home))
        seen: list[tuple[int, int]] = []
        report = build_many(
            "toy",
            SEEDS,
            0.01,
            workers=2,
            progress=lambda outcome, done, total: seen.append((done, total)),
        )
    assert seen == [(i, len(SEEDS)) for i in range(1, len(SEEDS) + 1)]
    return home, report


def test_local_farm_builds_every_seed_once(local_farm: tuple[Path, FarmReport]) -> None:
    home, report = local_farm
    assert report.ok and (report.built, report.cached, report.failed) == (3, 0, 0)
    assert [o.seed for o in report.outcomes] == SEEDS
    engines = sorted(str(o.engine) for o in report.outcomes)
    assert engines == ["dbt", "replay", "replay"]  # one compiling dbt build, the rest replayed
    assert report.seeds_per_min > 0
    for outcome in report.outcomes:
        assert outcome.slug == BuildKey("toy", outcome.seed, 0.01).slug
        assert (home / "snapshots" / outcome.slug / "manifest.json").is_file()
    assert len({o.manifest_sha256 for o in report.outcomes}) == len(SEEDS)
    doc = report.to_dict()
    assert json.loads(json.dumps(doc))["built_by_engine"] == {"dbt": 1, "replay": 2}


def test_farm_resumes_skipping_cached_seeds(
    local_farm: tuple[Path, FarmReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    home, first = local_farm
    monkeypatch.setenv("REPLICAS_HOME", str(home))
    report = build_many("toy", [*SEEDS, 44], 0.01, workers=2)
    assert (report.built, report.cached) == (1, 3)
    by_seed = {o.seed: o for o in report.outcomes}
    assert by_seed[44].status == "built" and by_seed[44].engine == "replay"
    for old in first.outcomes:
        assert by_seed[old.seed].manifest_sha256 == old.manifest_sha256


@pytest.mark.slow  # starts a local Ray instance
def test_ray_farm_builds_identical_snapshots(
    local_farm: tuple[Path, FarmReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    import ray

    home, local = local_farm
    monkeypatch.setenv("REPLICAS_HOME", str(home))
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    assert not ray.is_initialized()
    # force: rebuild every seed as Ray tasks (local ray.init(num_cpus=2), shut down after)
    report = build_many("toy", SEEDS, 0.01, workers=2, executor="ray", force=True)
    assert not ray.is_initialized()
    assert report.executor == "ray" and report.built == len(SEEDS)
    assert {o.engine for o in report.outcomes} == {"replay"}
    assert [o.manifest_sha256 for o in report.outcomes] == [
        o.manifest_sha256 for o in local.outcomes
    ]


def test_failing_seeds_are_reported_and_the_farm_goes_on() -> None:
    report = build_many("toy_broken", [1, 2], workers=1)
    assert not report.ok and report.failed == 2
    assert all("generate" in str(o.error) for o in report.outcomes)
    with pytest.raises(ValueError, match="error"):
        SeedOutcome(1, "x", "failed", 0.1)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--seeds", "5-1"], "the end is before the start"),
        (["--seeds", "1-2", "--out", "somewhere"], "--out applies to one seed"),
        (["--seeds", "1-2", "--seed", "3"], "either --seed or --seeds"),
        (["--seeds", "1", "--executor", "slurm"], "--executor must be one of local, ray"),
        (["--workers", "2"], "apply to --seeds farms"),
        (["--engine", "spark"], "--engine must be one of replay, dbt"),
    ],
)
def test_cli_farm_arguments_are_checked_before_any_work(args: list[str], fragment: str) -> None:
    from typer.testing import CliRunner

    from replicas.cli import app

    result = CliRunner().invoke(app, ["build", "toy", *args])
    assert result.exit_code == 2, result.output
    assert fragment in " ".join(result.output.split())


def test_cli_farm_builds_and_reports_json(
    local_farm: tuple[Path, FarmReport], monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from replicas.cli import app

    home, local = local_farm
    monkeypatch.setenv("REPLICAS_HOME", str(home))
    result = CliRunner().invoke(app, ["build", "toy", "--seeds", "41-42", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert (doc["seeds"], doc["cached"], doc["built"]) == (2, 2, 0)
    assert [o["manifest_sha256"] for o in doc["outcomes"]] == [
        o.manifest_sha256 for o in local.outcomes[:2]
    ]
