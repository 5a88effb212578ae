"""The ``adversary`` agent: a library of reward hacks, one episode per applicable strategy.

Every strategy must score 0 on every task; a pass is a hole in a verifier or the sandbox. Each
episode is labelled with its strategy (``strategy`` in the result record). A strategy that does
not fit a task (a table scramble on a number question, a dbt hack on a question task) is not
played there — it is skipped, not counted as a pass.

Besides the score, strategies report *breaches*: forbidden actions that unexpectedly worked
(reading ``/etc/passwd``, writing ``/tmp/…``). They appear as ``breach`` in the result record.

Strategies (module): ``candidate_numbers``, ``every_value``, ``sql_as_answer``,
``echo_instruction``, ``address_grader`` (``_answers``); ``read_answer_files``, ``write_outside``
(``_probes``); ``scramble_rows``, ``reorder_ranking`` (``_scramble``, the only ones that use the
oracle answer, and only to break it); ``delete_schema_tests``, ``self_reference_model``,
``edit_dbt_project``, ``build_broken_model`` (``_dbt``); ``package_escape``,
``override_builtins``, ``read_through_dbt`` (``_escape``: escapes through dbt itself);
``hard_coded_model``, ``visible_data_only`` (``_paste``: the visible data's answer pasted into
a dbt model); ``restore_shipped_project`` (``_restore``: the kit's pristine dbt project written
back from memory, the attack an agent holding the kit's sources can play on any task whose fix
restores a shipped file); ``mart_lookup`` (``_lookup``: the answer read from a mart keyed by
what the question names); ``second_answer_line``, ``hedge_in_words``, ``hedge_digit_groups``
(``_hedge``: the right answer plus another one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from replicas.agents import register_agent
from replicas.agents.adversary import (
    _answers,
    _dbt,
    _escape,
    _hedge,
    _lookup,
    _paste,
    _probes,
    _restore,
    _scramble,
)
from replicas.agents.adversary._base import Strategy
from replicas.agents.base import Agent, AgentOptions, EnvLike, EpisodeOutcome

if TYPE_CHECKING:
    from replicas.tasks import Task

STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        *_answers.STRATEGIES,
        *_probes.STRATEGIES,
        *_scramble.STRATEGIES,
        *_dbt.STRATEGIES,
        *_escape.STRATEGIES,
        *_paste.STRATEGIES,
        *_restore.STRATEGIES,
        *_lookup.STRATEGIES,
        *_hedge.STRATEGIES,
    )
}


def strategies_for(task: Task) -> tuple[str, ...]:
    """Names of the strategies that apply to ``task``, in library order."""
    return tuple(name for name, s in STRATEGIES.items() if s.applies(task))


def parse_strategies(arg: str | None) -> tuple[str, ...] | None:
    """``"a,b"`` → ``("a", "b")`` (None = all); ValueError naming unknown strategies."""
    if arg is None:
        return None
    names = tuple(dict.fromkeys(n.strip() for n in arg.split(",") if n.strip()))
    unknown = [n for n in names if n not in STRATEGIES]
    if unknown or not names:
        raise ValueError(
            f"unknown adversary strategies {unknown or [arg]}; known: {', '.join(STRATEGIES)}"
        )
    return names


class AdversaryAgent(Agent):
    name = "adversary"

    def __init__(self, only: tuple[str, ...] | None = None) -> None:
        self.only = only

    def plan(self, task: Task) -> tuple[str | None, ...]:
        return tuple(s for s in strategies_for(task) if self.only is None or s in self.only)

    def run_episode(self, env: EnvLike, *, strategy: str | None = None) -> EpisodeOutcome:
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown adversary strategy {strategy!r}; known: {list(STRATEGIES)}")
        breaches = STRATEGIES[strategy].play(env, env.task)
        return EpisodeOutcome(extra={"breach": breaches} if breaches else {})


@register_agent(
    "adversary",
    description="reward-hacking strategies; every one must score 0",
    arg_name="STRATEGY[,STRATEGY…]",
    optional_arg=True,
)
def _make(arg: str | None, options: AgentOptions) -> Agent:
    return AdversaryAgent(parse_strategies(arg))


__all__ = ["STRATEGIES", "AdversaryAgent", "Strategy", "parse_strategies", "strategies_for"]
