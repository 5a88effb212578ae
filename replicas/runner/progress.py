"""Progress display: a rich bar on a terminal (done/total, pass rate so far, ETA), else nothing."""

from __future__ import annotations

from typing import Any, Protocol

from replicas.records import EpisodeRecord


class Progress(Protocol):
    def note(self, message: str) -> None: ...

    def start(self, total: int, already_done: int) -> None: ...

    def advance(self, record: EpisodeRecord) -> None: ...

    def stop(self) -> None: ...


class NullProgress:
    """For pipes, CI logs and library use."""

    def note(self, message: str) -> None:
        pass

    def start(self, total: int, already_done: int) -> None:
        pass

    def advance(self, record: EpisodeRecord) -> None:
        pass

    def stop(self) -> None:
        pass


class RichProgress:
    """One bar: ``episodes ━━━━ 12/40 · pass 58% · errors 0 · 0:01:10 left``."""

    def __init__(self, label: str, console: Any = None) -> None:
        self.label = label
        self.console = console
        self.passed = 0
        self.finished = 0
        self.errors = 0
        self._progress: Any = None
        self._task: Any = None

    def note(self, message: str) -> None:
        from rich.console import Console

        (self.console or Console(stderr=True)).print(f"[dim]{message}[/dim]", highlight=False)

    def start(self, total: int, already_done: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("· pass {task.fields[rate]}"),
            TextColumn("· errors {task.fields[errors]}"),
            TimeElapsedColumn(),
            TextColumn("· ETA"),
            TimeRemainingColumn(),
            console=self.console,
            transient=False,
        )
        self._progress.start()
        self._task = self._progress.add_task(
            self.label, total=total, completed=0, rate="–", errors=0
        )
        if already_done:
            self._progress.console.print(f"resuming: {already_done} episodes already recorded")

    def advance(self, record: EpisodeRecord) -> None:
        self.finished += 1
        self.passed += int(record.passed)
        self.errors += int(bool(record.error))
        if self._progress is not None:
            rate = f"{100.0 * self.passed / self.finished:.0f}%"
            self._progress.update(self._task, advance=1, rate=rate, errors=self.errors)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
