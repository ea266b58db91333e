"""Bot levels: a name, words drawn from measurements, and a factory.

Every game's ``bots`` module keeps a registry ``LEVELS`` of :class:`Level`
(``easy``, ``medium``, ``hard`` and, where it exists, ``expert``). A level's
``figures`` are what ``make bench`` measured for it (copied into the module
after a bench run). Its ``description`` tells a student, in the current
language, what the level plays like and how strong it is, every strength claim
rounded by code from those figures (:func:`games_won`); its ``measured`` words
give a teacher the figures themselves (the set-up panels keep them behind a
"How strong?" disclosure).

A level's factory takes ``seed`` (bots that break ties at random) and ``clock``
(a function returning seconds, :func:`time.process_time` by default): a bot with
a time budget reads only that clock, so a test can hand it a fake clock and
check that the budget is honoured without timing anything.

>>> level = Level("easy", lambda seed, clock: ("bot", seed), {"rate": 89.8},
...               lambda figures: f"Wins {games_won(figures['rate'])}.",
...               lambda figures: "Wins {rate}% of its games.".format(**figures))
>>> level.make(seed=4)
('bot', 4)
>>> level.description, level.measured
('Wins about 9 games in 10.', 'Wins 89.8% of its games.')
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathgames.core.i18n import format_number, translator

__all__ = ["DEFAULT_LEVEL", "LEVEL_NAMES", "Clock", "Level", "TickingClock", "games_won"]

_ = translator("core")

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
    measure: Callable[[Mapping[str, float]], str] = field(
        default=lambda figures: "", repr=False)

    def make(self, seed: int = 0, clock: Clock | None = None) -> Any:
        """A fresh bot of this level (``clock``: :func:`time.process_time` if None)."""
        return self.factory(seed, clock or time.process_time)

    @property
    def description(self) -> str:
        """What the level plays like and how strong it is, in a student's words (no
        timings), in the current language."""
        return self.describe(self.figures)

    @property
    def measured(self) -> str:
        """The measured figures in words, for teachers, in the current language."""
        return self.measure(self.figures)


def games_won(rate: float) -> str:
    """A measured win rate (in percent) as a student would say it, in the current language.

    Rounded to the nearest tenth of the games: "about 9 games in 10"; "every game"
    only when the bench saw no game lost, "almost every game" from 95 %.

    >>> games_won(89.8), games_won(41.6), games_won(100.0), games_won(96.0)
    ('about 9 games in 10', 'about 4 games in 10', 'every game', 'almost every game')
    >>> games_won(14.0), games_won(3.0)
    ('about 1 game in 10', 'fewer than 1 game in 10')
    """
    if rate >= 100:
        return _("every game")
    tenths = int(rate / 10 + 0.5)
    if tenths >= 10:
        return _("almost every game")
    if tenths < 1:
        return _("fewer than 1 game in 10")
    return _.ngettext("about {n} game in 10", "about {n} games in 10", tenths).format(
        n=format_number(tenths))


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
