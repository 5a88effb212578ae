"""``replicas factory --executor ray``: the seeds' validations as Ray tasks (a real local Ray),
giving the same funnel and suite as the local executor. Both runs validate anew (no cache), so
the Ray workers really execute the mutants."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from replicas.cli import build_app
from replicas.factory.executor import check_executor, map_jobs
from replicas.factory.run import run_factory

pytest.importorskip("ray")

REPLICA = "ecommerce"
FAMILY = "ecommerce.mutant_fix-v1"
#: Timings: the only fields two runs of the same funnel may disagree on.
_TIMINGS = {"wall_s", "validate_s", "candidates_per_minute", "candidates_per_minute_wall"}


def _without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_timings(v) for k, v in value.items() if k not in _TIMINGS}
    if isinstance(value, list):
        return [_without_timings(v) for v in value]
    return value


@pytest.mark.slow  # starts a local Ray instance (its raylet must start within Ray's fixed 30 s)
def test_ray_and_local_executors_give_the_same_funnel_and_suite() -> None:
    kwargs: dict[str, Any] = {"max_candidates": 2, "workers": 2, "cache": False}
    local = run_factory(REPLICA, FAMILY, [1, 2], **kwargs)
    ray = run_factory(REPLICA, FAMILY, [1, 2], executor="ray", **kwargs)
    assert ray.suite_ids == local.suite_ids
    assert _without_timings(ray.to_dict()) == _without_timings(local.to_dict())
    data = ray.to_dict()
    assert data["candidates"] == 4 and data["validated_now"] >= 4  # validated by the Ray tasks
    assert [s.seed for s in ray.per_seed] == [1, 2]


def _square(x: int) -> int:
    return x * x


def test_map_jobs_keeps_job_order_and_refuses_bad_executors() -> None:
    assert map_jobs(_square, [(3,), (1,), (2,)], workers=2) == [9, 1, 4]
    assert map_jobs(_square, [], workers=2, executor="ray") == []
    with pytest.raises(ValueError, match="unknown executor"):
        check_executor("dask", None)
    with pytest.raises(ValueError, match="only applies"):
        check_executor("local", "ray://host:10001")


@pytest.mark.parametrize(
    "args",
    [["--executor", "dask"], ["--ray-address", "ray://nowhere:1"]],
    ids=["executor", "address-without-ray"],
)
def test_cli_bad_executor_exits_2_and_writes_nothing(tmp_path: Path, args: list[str]) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        build_app(("factory",)), ["factory", REPLICA, *args, "--out", str(out)]
    )
    assert result.exit_code == 2, result.output
    assert "executor" in result.output
    assert not out.exists()
