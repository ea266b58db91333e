"""Bot levels: a name, a description drawn from measurements, and a factory.

Every game's ``bots`` module keeps a registry ``LEVELS`` of :class:`Level`
(``easy``, ``medium``, ``hard`` and, where it exists, ``expert``). A level's
``figures`` are what ``make bench`` measured for it (copied into the module
after a bench run); its ``description`` puts them into words in the current
language, so the set-up panel tells a teacher what a level means.

A level's factory takes ``seed`` (bots that break ties at random) and ``clock``
(a function returning seconds, :func:`time.process_time` by default): a bot with
a time budget reads only that clock, so a test can hand it a fake clock and
check that the budget is honoured without timing anything.

>>> level = Level("easy", lambda seed, clock: ("bot", seed), {"mean": 250.0},
...               lambda figures: "averages {mean:.0f} points".format(**figures))
>>> level.make(seed=4)
('bot', 4)
>>> level.description
'averages 250 points'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["DEFAULT_LEVEL", "LEVEL_NAMES", "Clock", "Level", "TickingClock"]

#: A clock: seconds as a float (CPU time by default, so other processes do not count).
Clock = Callable[[], float]
#: Level names from the weakest to the strongest.
LEVEL_NAMES = ("easy", "medium", "hard", "expert")
#: The level the set-up panels choose unless told otherwise.
DEFAULT_LEVEL = "medium"


@dataclass(frozen=True)
class Level:
    """One level of a game's bots."""

    name: str
    factory: Callable[[int, Clock], Any] = field(repr=False)
    figures: Mapping[str, float] = field(default_factory=dict)
    describe: Callable[[Mapping[str, float]], str] = field(
        default=lambda figures: "", repr=False)

    def make(self, seed: int = 0, clock: Clock | None = None) -> Any:
        """A fresh bot of this level (``clock``: :func:`time.process_time` if None)."""
        return self.factory(seed, clock or time.process_time)

    @property
    def description(self) -> str:
        """The measured figures in words, in the current language."""
        return self.describe(self.figures)


class TickingClock:
    """A fake clock for tests: each reading is ``step`` seconds after the last.

    >>> clock = TickingClock(0.01)
    >>> clock(), clock(), clock.readings
    (0.0, 0.01, 2)
    """

    def __init__(self, step: float) -> None:
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        value = self.readings * self.step
        self.readings += 1
        return value
