"""A rule set as data: every value and switch of the preset table.

The five presets of the rules file are named instances in :data:`PRESETS`; a
teacher builds a custom rule set from one of them:

>>> import dataclasses
>>> custom = dataclasses.replace(PRESETS["pressman"], name="custom", bridge_bonus=30)
>>> custom.bridge_bonus, custom.two_sided_bonus, PRESETS["pressman"].bridge_bonus
(30, 40, 40)
>>> sorted(PRESETS)
['family', 'goliath', 'pressman', 'schmidt', 'solitaire']
>>> PRESETS["schmidt"].hand_size(3)
7
>>> dataclasses.replace(PRESETS["schmidt"], max_draws=0)
Traceback (most recent call last):
...
mathgames.core.errors.SetupError: max_draws must be None (no limit) or at least 1, not 0
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from mathgames.core.errors import SetupError, shorten
from mathgames.core.i18n import translator

__all__ = ["PRESETS", "RuleSet", "shown"]

_ = translator("triomino")

START_RULES = ("highest_triple", "draw_highest", "pool_tile")
DRAW_WHEN = ("any", "blocked")
PLACE_DRAWN = ("may", "must")
WINNER_RULES = ("score", "fewest_tiles")


@dataclass(frozen=True)
class RuleSet:
    """Every parameter of a Triomino game.

    Start:
      ``start_rule``: ``"highest_triple"`` (the holder of the highest triple starts with
      it; if nobody has a triple, the holder of the highest tile), ``"draw_highest"``
      (each player draws a tile, highest value starts, ties redraw; the tiles go back
      before dealing; the starter plays any tile), ``"pool_tile"`` (solitaire: a tile
      from the pool is put on the table and scores nothing).
      ``start_bonus``: points for the first tile on top of its value;
      ``start_bonus_needs_triple``: only when that tile is a triple;
      ``zero_triple_bonus``: extra points when the first tile is 0-0-0;
      ``zero_triple_choice``: the starter holding the starting triple and 0-0-0 may
      start with 0-0-0 instead. Every round starts by the same rule; the first tile goes
      on cell ``(0, 0)``.
    Drawing:
      ``draw_when``: ``"any"`` (when you cannot or do not want to place) or
      ``"blocked"`` (only when you cannot place); ``max_draws`` per turn (``None``:
      until a drawn tile fits); ``draw_penalty`` per drawn tile; ``place_drawn``:
      a drawn tile that fits ``"may"`` or ``"must"`` be placed at once;
      ``failed_draws_penalty`` when the turn passes after drawing;
      ``empty_pool_penalty`` when the pool was empty and you cannot place.
    Bonuses:
      ``hexagon_bonuses`` for completing one, two, three hexagons (they replace each
      other); ``bridge_bonus``; ``two_sided_bonus``; ``going_out_bonus``.
    End:
      ``keep_score`` (family: no points); ``target_score`` (``None``: no limit);
      ``multi_round``: deal new rounds until somebody reaches the target (the round
      in progress is played out); ``target_ends_at_once``: reaching the target ends
      the game at once; ``winner_rule``: ``"score"`` or ``"fewest_tiles"``.
    Players:
      ``min_players``, ``max_players``; ``hand_sizes[n - 1]`` tiles each for ``n`` players.
    """

    name: str = "custom"
    min_players: int = 2
    max_players: int = 6
    hand_sizes: tuple[int, ...] = (9, 9, 7, 7, 6, 6)
    keep_score: bool = True
    start_rule: str = "highest_triple"
    start_bonus: int = 10
    start_bonus_needs_triple: bool = False
    zero_triple_bonus: int = 0
    zero_triple_choice: bool = False
    draw_when: str = "any"
    max_draws: int | None = 3
    draw_penalty: int = 5
    place_drawn: str = "may"
    failed_draws_penalty: int = 10
    empty_pool_penalty: int = 10
    hexagon_bonuses: tuple[int, int, int] = (50, 60, 70)
    bridge_bonus: int = 40
    two_sided_bonus: int = 0
    going_out_bonus: int = 25
    target_score: int | None = 400
    multi_round: bool = False
    target_ends_at_once: bool = True
    winner_rule: str = "score"

    def __post_init__(self) -> None:
        _check_types(self)
        object.__setattr__(self, "hand_sizes", tuple(self.hand_sizes))
        object.__setattr__(self, "hexagon_bonuses", tuple(self.hexagon_bonuses))
        choices = {"start_rule": START_RULES, "draw_when": DRAW_WHEN,
                   "place_drawn": PLACE_DRAWN, "winner_rule": WINNER_RULES}
        for field, allowed in choices.items():
            if getattr(self, field) not in allowed:
                raise SetupError(_("{field} must be one of {choices}, not {value}").format(
                    field=field, choices=", ".join(allowed), value=shown(getattr(self, field))))
        if not 1 <= self.min_players <= self.max_players <= 6:
            raise SetupError(_("min_players and max_players must satisfy "
                               "1 <= min_players <= max_players <= 6"))
        if len(self.hand_sizes) != 6 or not all(1 <= n <= 18 for n in self.hand_sizes):
            raise SetupError(_("hand_sizes must give 1-18 tiles for each of 1..6 players"))
        for n in range(self.min_players, self.max_players + 1):
            needed = n * self.hand_sizes[n - 1] + (1 if self.start_rule == "pool_tile" else 0)
            if needed > 56:
                raise SetupError(_("hand_sizes: {n} players with {size} tiles each need more "
                                   "than the 56 tiles").format(n=n, size=self.hand_sizes[n - 1]))
        if self.max_draws is not None and self.max_draws < 1:
            raise SetupError(_("max_draws must be None (no limit) or at least 1, not {value}")
                             .format(value=self.max_draws))
        if len(self.hexagon_bonuses) != 3:
            raise SetupError(_("hexagon_bonuses needs three values: one, two, three hexagons"))
        if self.target_score is not None and self.target_score < 1:
            raise SetupError(_("target_score must be None or a positive whole number"))
        if self.multi_round and self.target_score is None:
            raise SetupError(_("multi_round needs a target_score to end the game"))

    def hand_size(self, players: int) -> int:
        """Tiles dealt to each of ``players`` players."""
        if not _whole(players) or not self.min_players <= players <= self.max_players:
            raise SetupError(_("the {name} rules are for {low}-{high} players, not {n}").format(
                name=self.name, low=self.min_players, high=self.max_players, n=shown(players)))
        return self.hand_sizes[players - 1]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-able)."""
        data = dataclasses.asdict(self)
        data["hand_sizes"] = list(self.hand_sizes)
        data["hexagon_bonuses"] = list(self.hexagon_bonuses)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """The rule set of :meth:`to_dict` (raises :class:`SetupError` on bad data).

        >>> RuleSet.from_dict({"keep_score": "no"})
        Traceback (most recent call last):
        ...
        mathgames.core.errors.SetupError: keep_score must be true or false, not "no"
        """
        if not isinstance(data, dict):
            raise SetupError("the rules must be a table of rule fields")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = [str(key) for key in data if key not in names]
        if unknown:
            raise SetupError(f"unknown rule fields: {', '.join(sorted(unknown))}")
        return cls(**data)


#: The type each field must have: ``bool``, ``int`` (never a bool), ``str``, ``int | None``,
#: or a tuple of ints (``"ints"``).
_KINDS = {
    "name": "str", "min_players": "int", "max_players": "int", "hand_sizes": "ints",
    "keep_score": "bool", "start_rule": "str", "start_bonus": "int",
    "start_bonus_needs_triple": "bool", "zero_triple_bonus": "int",
    "zero_triple_choice": "bool", "draw_when": "str", "max_draws": "int?",
    "draw_penalty": "int", "place_drawn": "str", "failed_draws_penalty": "int",
    "empty_pool_penalty": "int", "hexagon_bonuses": "ints", "bridge_bonus": "int",
    "two_sided_bonus": "int", "going_out_bonus": "int", "target_score": "int?",
    "multi_round": "bool", "target_ends_at_once": "bool", "winner_rule": "str",
}
#: The largest size of a number of points (and of any whole-number field).
_LIMIT = 10_000


def shown(value: Any) -> str:
    """A short text form of a value given by a user or a file, for a message.

    >>> shown("no"), shown(True), shown([1, 2]), shown(None), len(shown("x" * 99))
    ('"no"', 'true', '[1, 2]', 'null', 40)
    >>> deep = []
    >>> for _ in range(5000):
    ...     deep = [deep]
    >>> shown(deep)  # nested deeper than it can be written out
    'a list'
    """
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return shorten(text)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= _LIMIT


def _check_types(rules: RuleSet) -> None:
    """Refuse any field of the wrong type, naming the field (:class:`SetupError`)."""
    for field, kind in _KINDS.items():
        value = getattr(rules, field)
        if kind == "bool" and not isinstance(value, bool):
            raise SetupError(_("{field} must be true or false, not {value}").format(
                field=field, value=shown(value)))
        if kind == "str" and not isinstance(value, str):
            raise SetupError(_("{field} must be text, not {value}").format(
                field=field, value=shown(value)))
        if kind == "str" and len(value) > 40:
            raise SetupError(_("{field} must be at most 40 characters long").format(field=field))
        if kind == "int" and not _whole(value):
            raise SetupError(_("{field} must be a whole number, not {value}").format(
                field=field, value=shown(value)))
        if kind == "int?" and value is not None and not _whole(value):
            raise SetupError(_("{field} must be a whole number or none, not {value}").format(
                field=field, value=shown(value)))
        if kind == "ints" and not (isinstance(value, (list, tuple)) and len(value) <= 6
                                   and all(_whole(v) for v in value)):
            raise SetupError(_("{field} must be a list of whole numbers, not {value}").format(
                field=field, value=shown(value)))


PRESETS: dict[str, RuleSet] = {
    "schmidt": RuleSet(name="schmidt"),
    "pressman": RuleSet(
        name="pressman", start_bonus_needs_triple=True, zero_triple_bonus=30,
        zero_triple_choice=True, draw_when="blocked", max_draws=None, place_drawn="must",
        two_sided_bonus=40, multi_round=True, target_ends_at_once=False),
    "goliath": RuleSet(
        name="goliath", start_rule="draw_highest", start_bonus=0, empty_pool_penalty=0,
        multi_round=True, target_ends_at_once=False),
    "family": RuleSet(
        name="family", keep_score=False, start_bonus=0, draw_when="blocked", max_draws=None,
        draw_penalty=0, place_drawn="must", failed_draws_penalty=0, empty_pool_penalty=0,
        hexagon_bonuses=(0, 0, 0), bridge_bonus=0, going_out_bonus=0, target_score=None,
        target_ends_at_once=False, winner_rule="fewest_tiles"),
    "solitaire": RuleSet(
        name="solitaire", min_players=1, max_players=1, start_rule="pool_tile", start_bonus=0,
        max_draws=1, place_drawn="must", failed_draws_penalty=0, target_score=None,
        target_ends_at_once=False),
}
