"""A game of Triomino: dealing, turns, drawing, passing, rounds, the score sheet.

The state is plain data (:meth:`Game.to_dict`), so save, load and undo are
exact. Dealing is seeded: the round ``r`` of a game with seed ``s`` is shuffled
by ``random.Random(f"{s}:{r}")``, so a game can be replayed.

>>> game = Game("pressman", players=2, seed=7)
>>> len(game.hands[0]), len(game.hands[1]), len(game.pool)
(9, 9, 38)
>>> first = game.legal_placements()[0]       # the starter must play the start tile
>>> str(first.tile) in game.start_tiles
True
>>> game.play(first)
>>> [e.describe() for e in game.sheet]      # doctest: +ELLIPSIS
['tile ... +...', ...]
>>> game.undo(); len(game.table)
0
>>> Game.from_json(game.to_json()).to_dict() == game.to_dict()
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from mathgames.core.errors import (
    CorruptSaveError,
    IllegalMoveError,
    InvalidMoveError,
    MathgamesError,
    SetupError,
    read_save,
)
from mathgames.core.i18n import translator
from mathgames.triomino.geometry import Cell, cell_id
from mathgames.triomino.rules import PRESETS, RuleSet, shown
from mathgames.triomino.sheet import ScoreEntry
from mathgames.triomino.table import ORIGIN, Placement, Table
from mathgames.triomino.table import check_placement as _check_placement
from mathgames.triomino.tiles import Tile, all_tiles, highest_tile

__all__ = ["FORMAT", "Action", "Game"]

_ = translator("triomino")

FORMAT = "mathgames-triomino"
#: The fields of a saved game.
FIELDS = ("format", "version", "rules", "names", "seed", "round", "turn", "phase", "current",
          "starter", "start_tiles", "start_draws", "table", "hands", "pool", "drawn",
          "last_drawn", "sheet", "round_winners", "round_ends", "winners", "log")
VERSION = 1
#: The longest player name.
MAX_NAME = 40
PHASES = ("play", "round_over", "game_over")
ZERO = Tile(0, 0, 0)

#: A move: ``("place", Placement)``, ``("draw", None)`` or ``("pass", None)``.
Action = tuple[str, "Placement | None"]


def _tiles(texts: Any, what: str) -> list[Tile]:
    if not isinstance(texts, list):
        raise CorruptSaveError(f"{what} must be a list of tiles")
    tiles = []
    for number, text in enumerate(texts, 1):
        try:
            tiles.append(Tile.parse(text))
        except InvalidMoveError:
            raise CorruptSaveError(f"{what}, tile {number}: {shown(text)} is not a tile "
                                   "like 0-1-2") from None
    return tiles


def _is_player(value: Any, n: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n


def _check_whole(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidMoveError(f"{what} must be a whole number, not {shown(value)}")
    return value


class Game:
    """A whole Triomino game (one or more rounds) under one :class:`RuleSet`.

    ``rules``: a RuleSet or a preset name; ``players``: how many, or their names;
    ``seed``: the dealing seed; ``history``: keep snapshots for :meth:`undo`.
    """

    def __init__(self, rules: RuleSet | str = "pressman", players: int | Sequence[str] = 2,
                 seed: int = 0, *, history: bool = True, _deal: bool = True) -> None:
        if isinstance(rules, str):
            if rules not in PRESETS:
                raise SetupError(f"unknown preset {shown(rules)}; choose one of "
                                 f"{', '.join(PRESETS)} or pass a RuleSet")
            rules = PRESETS[rules]
        if not isinstance(rules, RuleSet):
            raise SetupError(f"the rules must be a preset name or a RuleSet, not "
                             f"{shown(rules)}")
        self.rules: RuleSet = rules
        if isinstance(players, int) and not isinstance(players, bool):
            rules.hand_size(players)
            names = [_("Player {n}").format(n=i + 1) for i in range(players)]
        elif isinstance(players, (list, tuple)) and all(
                isinstance(name, str) and name.strip() and len(name) <= MAX_NAME
                for name in players):
            names = list(players)
        else:
            raise SetupError(f"players must be a number or a list of names (at most {MAX_NAME} "
                               f"characters each), not {shown(players)}")
        rules.hand_size(len(names))
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"the seed must be a whole number, not {shown(seed)}")
        self.names: list[str] = names
        self.seed = seed
        self.keep_history = history
        self._history: list[dict[str, Any]] = []
        self.round = 1
        self.sheet: list[ScoreEntry] = []
        self.round_winners: list[list[int]] = []
        self.round_ends: list[str] = []
        self.winners: list[int] = []
        self.log: list[list[Any]] = []
        self.turn = 0
        if _deal:
            self._deal()

    # -- dealing ------------------------------------------------------------------
    def _deal(self) -> None:
        rules, n = self.rules, len(self.names)
        rng = random.Random(f"{self.seed}:{self.round}")
        pool = all_tiles()
        rng.shuffle(pool)
        self.table = Table()
        self.start_draws: list[list[Any]] = []
        self.start_tiles: list[str] = []
        starter = 0
        if rules.start_rule == "draw_highest" and n > 1:
            candidates = list(range(n))
            while len(candidates) > 1 and len(pool) >= len(candidates):
                drawn = {p: pool.pop() for p in candidates}
                self.start_draws.extend([p, str(t)] for p, t in drawn.items())
                best = max(t.value for t in drawn.values())
                candidates = [p for p in candidates if drawn[p].value == best]
                pool.extend(drawn.values())
                rng.shuffle(pool)
            starter = candidates[0]
        if rules.start_rule == "pool_tile":
            self.table.place(Placement(pool.pop(), ORIGIN, 0))
        size = rules.hand_size(n)
        self.hands: list[list[Tile]] = [[pool.pop() for _ in range(size)] for _ in range(n)]
        self.pool: list[Tile] = pool
        if rules.start_rule == "highest_triple":
            triples = [t for hand in self.hands for t in hand if t.kind == "triple"]
            start = highest_tile(triples or [t for hand in self.hands for t in hand])
            starter = next(p for p, hand in enumerate(self.hands) if start in hand)
            self.start_tiles = [str(start)]
            if (rules.zero_triple_choice and start.kind == "triple" and start != ZERO
                    and ZERO in self.hands[starter]):
                self.start_tiles.append(str(ZERO))
        elif rules.start_rule == "draw_highest":
            self.start_tiles = sorted({str(t) for t in self.hands[starter]})
        self.starter = starter
        self.current = starter
        self.phase = "play"
        self.drawn = 0
        self.last_drawn: Tile | None = None

    @classmethod
    def from_position(cls, rules: RuleSet | str, hands: Sequence[Sequence[Tile | str]],
                      table: Sequence[Placement] = (), pool: Sequence[Tile | str] = (),
                      *, names: Sequence[str] | None = None, current: int = 0,
                      checked: bool = True, history: bool = True) -> Game:
        """A game set up by hand (a puzzle, a lesson, a test): the tiles need not be all 56.

        ``table`` is placed in order (each checked unless ``checked`` is false), the pool
        is drawn from its end, and ``current`` is to move.

        >>> game = Game.from_position("schmidt", [["0-2-3", "2-3-3"], ["5-5-5"]],
        ...                           table=[Placement(Tile.parse("0-1-2"), (0, 0), 0)])
        >>> [str(p) for p in game.legal_placements()]
        ['0-2-3 at c-1_0 turned 0']

        On an empty table, ``current`` starts with any tile of their hand.
        """
        def tiles(items: Any, what: str) -> list[Tile]:
            if not isinstance(items, (list, tuple)):
                raise SetupError(f"{what} must be a list of tiles")
            return [t if isinstance(t, Tile) else Tile.parse(t) for t in items]

        if not isinstance(hands, (list, tuple)):
            raise SetupError("hands must be a list with one hand per player")
        game = cls(rules, len(hands) if names is None else names, history=history,
                   _deal=False)
        if len(hands) != len(game.names):
            raise SetupError("hands must be a list with one hand per player")
        if not isinstance(table, (list, tuple)) or not all(
                isinstance(p, Placement) for p in table):
            raise SetupError("table must be a list of placements")
        for placement in table:
            _check_placement(placement)
        new_hands = [tiles(hand, "a hand") for hand in hands]
        new_pool = tiles(pool, "the pool")
        if isinstance(current, bool) or current not in range(len(game.names)):
            raise SetupError(f"current must be the number of a player, 0 to "
                             f"{len(game.names) - 1}, not {shown(current)}")
        if checked:
            game.table = Table(table)
        else:
            game.table = Table()
            for placement in table:
                game.table.place(placement)
        game.hands, game.pool = new_hands, new_pool
        # on an empty table the player to move starts, with any tile of theirs
        game.start_tiles = [] if table else sorted({str(t) for t in new_hands[current]})
        game.start_draws = []
        game.starter = game.current = current
        game.phase, game.drawn, game.last_drawn = "play", 0, None
        return game

    def next_round(self) -> None:
        """Deal the next round (only when a round is over and the game is not)."""
        if self.phase != "round_over":
            raise IllegalMoveError(_("a new round can start only when a round is over"))
        self._snapshot()
        self.round += 1
        self._deal()

    # -- reading ------------------------------------------------------------------
    @property
    def players(self) -> int:
        """How many players."""
        return len(self.names)

    @property
    def scores(self) -> list[int]:
        """Each player's total: the sum of their score-sheet entries."""
        totals = [0] * len(self.names)
        for entry in self.sheet:
            totals[entry.player] += entry.points
        return totals

    def round_scores(self, round_number: int) -> list[int]:
        """Each player's points in one round."""
        _check_whole(round_number, "the round")
        totals = [0] * len(self.names)
        for entry in self.sheet:
            if entry.round == round_number:
                totals[entry.player] += entry.points
        return totals

    def entries(self, round_number: int, player: int) -> list[ScoreEntry]:
        """The score-sheet entries of one player in one round."""
        _check_whole(round_number, "the round")
        self._check_player(player)
        return [e for e in self.sheet if e.round == round_number and e.player == player]

    def _check_player(self, player: Any) -> None:
        if isinstance(player, bool) or not isinstance(player, int) or not (
                0 <= player < len(self.names)):
            raise InvalidMoveError(f"there is no player {shown(player)}; the players are 0 "
                                   f"to {len(self.names) - 1}")

    def hand(self, player: int | None = None) -> list[Tile]:
        """A player's tiles (a copy), sorted; the current player's by default."""
        if player is not None:
            self._check_player(player)
        return sorted(self.hands[self.current if player is None else player])

    def hand_value(self, player: int) -> int:
        """The points left in a player's hand."""
        self._check_player(player)
        return sum(t.value for t in self.hands[player])

    @property
    def is_start_move(self) -> bool:
        """Whether the next tile is the first on the table."""
        return len(self.table) == 0

    def placeable_tiles(self) -> list[Tile]:
        """The tiles the current player may place now (start tile, drawn tile or hand)."""
        if self.phase != "play":
            return []
        hand = self.hands[self.current]
        if self.is_start_move:
            allowed = set(self.start_tiles)
            return [t for t in hand if str(t) in allowed]
        if self.drawn:
            return [self.last_drawn] if self.last_drawn in hand else []
        return list(hand)

    def legal_placements(self, tile: Tile | None = None) -> list[Placement]:
        """Every legal placement for the current player now (of one tile, if given)."""
        tiles = self.placeable_tiles()
        if tile is not None:
            if isinstance(tile, str):
                tile = Tile.parse(tile)
            if not isinstance(tile, Tile):
                raise InvalidMoveError(f"{shown(tile)} is not a tile")
            tiles = [t for t in tiles if t == tile]
        return self.table.placements_for(tiles)

    def can_draw(self) -> bool:
        """Whether the current player may draw a tile now."""
        rules = self.rules
        if self.phase != "play" or self.is_start_move or not self.pool:
            return False
        if rules.max_draws is not None and self.drawn >= rules.max_draws:
            return False
        if rules.draw_when == "blocked" or (self.drawn and rules.place_drawn == "must"):
            return not self.table.can_place_any(self.placeable_tiles())
        return True

    def can_pass(self) -> bool:
        """Whether the current player may end the turn without placing."""
        if self.phase != "play" or self.is_start_move or self.can_draw():
            return False
        if self.drawn and self.rules.place_drawn == "may":
            return True
        return not self.table.can_place_any(self.placeable_tiles())

    def legal_actions(self) -> list[Action]:
        """Every move of the current player: placements, then draw and pass if allowed."""
        actions: list[Action] = [("place", p) for p in self.legal_placements()]
        if self.can_draw():
            actions.append(("draw", None))
        if self.can_pass():
            actions.append(("pass", None))
        return actions

    def points_for(self, placement: Placement) -> int:
        """What placing ``placement`` now would score (value, bonuses, start, going out).

        Assumes the placement is legal; nothing changes.
        """
        _check_placement(placement)
        rules, tile = self.rules, placement.tile
        if not rules.keep_score:
            return 0
        points = tile.value
        if self.is_start_move:
            if rules.start_bonus and (tile.kind == "triple" or not rules.start_bonus_needs_triple):
                points += rules.start_bonus
            if tile == ZERO:
                points += rules.zero_triple_bonus
        bonus = self.table.bonus(placement.cell)
        if bonus.kind == "hexagon":
            points += rules.hexagon_bonuses[bonus.hexagons - 1]
        elif bonus.kind == "bridge":
            points += rules.bridge_bonus
        elif bonus.kind == "two_sided":
            points += rules.two_sided_bonus
        if len(self.hands[self.current]) == 1:
            points += rules.going_out_bonus
            points += sum(self.hand_value(p) for p in range(len(self.names)) if p != self.current)
        return points

    def pass_penalty(self) -> int:
        """What passing now would cost (0 if nothing)."""
        if self.drawn:
            return self.rules.failed_draws_penalty
        return self.rules.empty_pool_penalty

    # -- moves ----------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Make a move given as an :data:`Action`."""
        kind, placement = action if isinstance(action, tuple) and len(action) == 2 else (
            None, None)
        if kind == "place" and isinstance(placement, Placement):
            self.play(placement)
        elif kind == "draw" and placement is None:
            self.draw()
        elif kind == "pass" and placement is None:
            self.pass_turn()
        else:
            raise InvalidMoveError(f"{shown(str(action))} is not a move: give ('place', a "
                                   "placement), ('draw', None) or ('pass', None)")

    def place(self, tile: Tile | str, cell: Cell, rotation: int = 0) -> None:
        """Place ``tile`` on ``cell`` turned by ``rotation`` (see :meth:`play`)."""
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        self.play(_check_placement(Placement(tile, cell, rotation)))

    def check(self, placement: Placement) -> None:
        """Raise :class:`IllegalMoveError` saying why, if the current player may not play it.

        A placement that is not even well formed raises :class:`InvalidMoveError`.
        """
        _check_placement(placement)
        if self.phase != "play":
            raise IllegalMoveError(_("the round is over"))
        name = self.names[self.current]
        tile = placement.tile
        if tile not in self.hands[self.current]:
            raise IllegalMoveError(_("{tile} is not in {name}'s hand").format(tile=tile, name=name))
        if self.is_start_move:
            if str(tile) not in self.start_tiles:
                raise IllegalMoveError(_("the first tile must be {tiles}").format(
                    tiles=_(" or ").join(self.start_tiles)))
            if placement.cell != ORIGIN:
                raise IllegalMoveError(_("the first tile goes in the middle, on cell {cell}")
                                       .format(cell=cell_id(ORIGIN)))
        elif self.drawn and tile != self.last_drawn:
            raise IllegalMoveError(_("after drawing, only the drawn tile {tile} may be placed")
                                   .format(tile=self.last_drawn))
        self.table.check(placement)

    def play(self, placement: Placement) -> None:
        """Place a tile: checked (clear error, state unchanged), scored, turn ended."""
        self.check(placement)
        self._snapshot()
        self._play(placement)

    def _add(self, player: int, reason: str, points: int, count: int = 0,
             tile: str = "") -> None:
        if self.rules.keep_score:
            self.sheet.append(ScoreEntry(self.round, player, reason, points, count, tile,
                                         self.turn))

    def _play(self, placement: Placement) -> None:
        rules, player, tile = self.rules, self.current, placement.tile
        start = self.is_start_move
        bonus = self.table.bonus(placement.cell)
        self._add(player, "tile", tile.value, tile=str(tile))
        if start:
            if rules.start_bonus and (tile.kind == "triple" or not rules.start_bonus_needs_triple):
                self._add(player, "start", rules.start_bonus, tile=str(tile))
            if tile == ZERO and rules.zero_triple_bonus:
                self._add(player, "zero_start", rules.zero_triple_bonus, tile=str(tile))
        if bonus.kind == "hexagon":
            self._add(player, "hexagon", rules.hexagon_bonuses[bonus.hexagons - 1],
                      count=bonus.hexagons)
        elif bonus.kind == "bridge" and rules.bridge_bonus:
            self._add(player, "bridge", rules.bridge_bonus)
        elif bonus.kind == "two_sided" and rules.two_sided_bonus:
            self._add(player, "two_sided", rules.two_sided_bonus)
        self.table.place(placement)
        self.hands[player].remove(tile)
        self.log.append([self.turn, player, "place", *placement.to_list()])
        if not self.hands[player]:
            self._add(player, "out", rules.going_out_bonus)
            if len(self.names) > 1:
                left = sum(self.hand_value(p) for p in range(len(self.names)) if p != player)
                self._add(player, "opponents", left, count=left)
            self._end_round("out", [player])
            return
        self._end_turn()

    def draw(self) -> Tile:
        """Draw a tile from the pool (if the rules allow it now); returns it."""
        if not self.can_draw():
            raise IllegalMoveError(self._why_no_draw())
        self._snapshot()
        tile = self.pool.pop()
        self.hands[self.current].append(tile)
        self.drawn += 1
        self.last_drawn = tile
        if self.rules.draw_penalty:
            if self.sheet and self.sheet[-1].reason == "draw" and self.sheet[-1].turn == self.turn:
                last = self.sheet.pop()
                self._add(last.player, "draw", last.points - self.rules.draw_penalty,
                          count=last.count + 1)
            else:
                self._add(self.current, "draw", -self.rules.draw_penalty, count=1)
        self.log.append([self.turn, self.current, "draw", str(tile)])
        return tile

    def _why_no_draw(self) -> str:
        if self.phase != "play":
            return _("the round is over")
        if self.is_start_move:
            return _("the first tile must be placed before anyone draws")
        if not self.pool:
            return _("the pool is empty")
        if self.rules.max_draws is not None and self.drawn >= self.rules.max_draws:
            return _.ngettext("you may draw at most {n} tile per turn",
                              "you may draw at most {n} tiles per turn",
                              self.rules.max_draws).format(n=self.rules.max_draws)
        if self.drawn:
            return _("the drawn tile fits, so it must be placed")
        return _("you may draw only when no tile of yours fits")

    def pass_turn(self) -> None:
        """End the turn without placing (only when nothing else is allowed), with its penalty."""
        if not self.can_pass():
            if self.phase != "play":
                raise IllegalMoveError(_("the round is over"))
            if self.can_draw():
                raise IllegalMoveError(_("you cannot pass while you may still draw"))
            raise IllegalMoveError(_("you cannot pass: a tile of yours fits"))
        self._snapshot()
        penalty = self.pass_penalty()
        if penalty:
            self._add(self.current, "no_fit" if self.drawn else "empty_pool", -penalty)
        self.log.append([self.turn, self.current, "pass"])
        self._end_turn()

    # -- turns and rounds -------------------------------------------------------------
    def _end_turn(self) -> None:
        self.drawn = 0
        self.last_drawn = None
        self.turn += 1
        rules = self.rules
        if (rules.keep_score and rules.target_ends_at_once and rules.target_score is not None
                and max(self.scores) >= rules.target_score):
            self._end_round("target", self._leaders())
            return
        if not self.pool and not any(self.table.can_place_any(h) for h in self.hands):
            self._end_round("blocked", self._blocked_winners())
            return
        self.current = (self.current + 1) % len(self.names)

    def _target_reached(self) -> bool:
        """Whether a player's total reached the target at any moment of the game (the sheet
        in order): who reaches it during a round ends the game when that round ends, even
        if their total drops below it again before then."""
        target = self.rules.target_score
        if not self.rules.keep_score or target is None:
            return False
        totals = [0] * len(self.names)
        for entry in self.sheet:
            totals[entry.player] += entry.points
            if totals[entry.player] >= target:
                return True
        return False

    def _leaders(self) -> list[int]:
        scores = self.scores
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def _blocked_winners(self) -> list[int]:
        totals = [self.hand_value(p) for p in range(len(self.names))]
        if self.rules.winner_rule == "fewest_tiles":
            counts = [len(h) for h in self.hands]
            return [p for p, c in enumerate(counts) if c == min(counts)]
        low = min(totals)
        winners = [p for p, t in enumerate(totals) if t == low]
        if len(self.names) > 1:
            everyone = sum(totals)
            for p in winners:
                self._add(p, "blocked_win", everyone - 2 * totals[p], count=everyone - totals[p])
        return winners

    def _end_round(self, how: str, winners: list[int]) -> None:
        self.drawn = 0
        self.last_drawn = None
        if self.rules.winner_rule == "fewest_tiles" and how == "out":
            counts = [len(h) for h in self.hands]
            winners = [p for p, c in enumerate(counts) if c == min(counts)]
        self.round_ends.append(how)
        self.round_winners.append(sorted(winners))
        self.log.append([self.turn, -1, "round_end", how])
        rules = self.rules
        target = rules.target_score
        if rules.multi_round and how != "target" and not self._target_reached():
            self.phase = "round_over"
            return
        self.phase = "game_over"
        several_reached = (rules.multi_round and target is not None
                           and sum(s >= target for s in self.scores) > 1)
        if rules.winner_rule == "fewest_tiles" or several_reached:
            self.winners = sorted(winners)
        else:
            self.winners = self._leaders()

    # -- undo, save, load ---------------------------------------------------------------
    def _snapshot(self) -> None:
        if self.keep_history:
            self._history.append(self.to_dict())

    @property
    def can_undo(self) -> bool:
        """Whether there is a move to take back."""
        return bool(self._history)

    def undo(self) -> None:
        """Take back the last move (a placement, a draw, a pass or dealing a round)."""
        if not self._history:
            raise IllegalMoveError(_("there is nothing to undo"))
        self._restore(self._history.pop(), trusted=True)

    def undo_snapshots(self, limit: int) -> list[dict[str, Any]]:
        """The last ``limit`` states that :meth:`undo` would go back to, oldest first.

        A saved game can carry them (see :meth:`restore_undo`), so that a resumed game
        can still take back its last moves.

        >>> game = Game("pressman", players=2, seed=1)
        >>> game.play(game.legal_placements()[0])
        >>> len(game.undo_snapshots(5)), game.undo_snapshots(0)
        (1, [])
        """
        _check_whole(limit, "the number of states")
        if limit <= 0:
            return []
        return [dict(snapshot) for snapshot in self._history[-limit:]]

    def restore_undo(self, snapshots: Any) -> None:
        """Give a loaded game the undo states of :meth:`undo_snapshots`.

        Every state is checked as a saved game of the same rules and players (raises
        :class:`CorruptSaveError` and keeps the history as it was if one is not).

        >>> game = Game("pressman", players=2, seed=1)
        >>> game.play(game.legal_placements()[0])
        >>> resumed = Game.from_json(game.to_json())
        >>> resumed.can_undo
        False
        >>> resumed.restore_undo(game.undo_snapshots(5))
        >>> resumed.undo()
        >>> resumed.to_json() == Game("pressman", players=2, seed=1).to_json()
        True
        """
        if not isinstance(snapshots, list):
            raise CorruptSaveError("the undo states must be a list")
        checked = []
        for number, snapshot in enumerate(snapshots, 1):
            try:
                state = Game.from_dict(snapshot, history=False)
            except CorruptSaveError as error:
                raise CorruptSaveError(f"undo state {number}: {error}") from None
            if state.rules != self.rules or state.names != self.names:
                raise CorruptSaveError(f"undo state {number} is of another game")
            checked.append(state.to_dict())
        if self.keep_history:
            self._history = checked

    def to_dict(self) -> dict[str, Any]:
        """The whole game as plain, JSON-able data (language-neutral)."""
        return {
            "format": FORMAT, "version": VERSION,
            "rules": self.rules.to_dict(), "names": list(self.names), "seed": self.seed,
            "round": self.round, "turn": self.turn, "phase": self.phase,
            "current": self.current, "starter": self.starter,
            "start_tiles": list(self.start_tiles), "start_draws": [list(d) for d in
                                                                   self.start_draws],
            "table": [p.to_list() for p in self.table.order],
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "pool": [str(t) for t in self.pool],
            "drawn": self.drawn, "last_drawn": str(self.last_drawn) if self.last_drawn else None,
            "sheet": [e.to_list() for e in self.sheet],
            "round_winners": [list(w) for w in self.round_winners],
            "round_ends": list(self.round_ends), "winners": list(self.winners),
            "log": [list(item) for item in self.log],
        }

    def to_json(self) -> str:
        """The saved game as JSON text."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str, *, history: bool = True) -> Game:
        """Load a saved game; raise :class:`CorruptSaveError` (and load nothing) on bad text.

        >>> Game.from_json('{"format": "chess"}')
        Traceback (most recent call last):
        ...
        mathgames.core.errors.CorruptSaveError: this is not a saved Triomino game
        """
        if not isinstance(text, str):
            raise CorruptSaveError("a saved game must be text")
        return cls.from_dict(read_save(text), history=history)

    @classmethod
    def from_dict(cls, data: Any, *, history: bool = True) -> Game:
        """Load :meth:`to_dict` data, checking everything (CorruptSaveError if wrong).

        Every refusal says in words what is wrong and where:

        >>> data = Game("schmidt", 2, seed=1).to_dict()
        >>> data["sheet"] = [[1, -1, "tile", 5, 0, "1-1-3", 0]]
        >>> Game.from_dict(data)
        Traceback (most recent call last):
        ...
        mathgames.core.errors.CorruptSaveError: the score sheet, entry 1: there is no player -1
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CorruptSaveError("this is not a saved Triomino game")
        if data.get("version") != VERSION:
            raise CorruptSaveError(f"unknown saved-game version {shown(data.get('version'))}")
        for key in FIELDS:
            if key not in data:
                raise CorruptSaveError(f"the saved game has no {key!r} field")
        unknown = sorted(str(key) for key in data if key not in FIELDS)
        if unknown:
            raise CorruptSaveError(f"the saved game has unknown fields: {', '.join(unknown)}")
        try:
            rules = RuleSet.from_dict(data["rules"])
        except SetupError as error:
            raise CorruptSaveError(f"the rules: {error}") from None
        names = data["names"]
        if not isinstance(names, list) or not all(
                isinstance(n, str) and n.strip() and len(n) <= MAX_NAME for n in names):
            raise CorruptSaveError("'names' must be a list of names")
        seed = data["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise CorruptSaveError(f"the seed must be a whole number, not {shown(seed)}")
        try:
            game = cls(rules, names, seed, history=history, _deal=False)
        except SetupError as error:
            raise CorruptSaveError(str(error)) from None
        game._restore(data, trusted=False)
        return game

    def _restore(self, data: dict[str, Any], trusted: bool) -> None:
        """Replace the state by ``data`` (validated unless ``trusted``); all or nothing."""
        if not trusted:
            try:
                self._check_saved(data)
            except CorruptSaveError:
                raise
            except MathgamesError as error:  # pragma: no cover - _check_saved names the field
                raise CorruptSaveError(f"the saved game is damaged: {error}") from None
        hands = [[Tile.parse(t) for t in h] for h in data["hands"]]
        pool = [Tile.parse(t) for t in data["pool"]]
        table = Table()
        for item in data["table"]:
            table.place(Placement.from_list(item))
        sheet = [ScoreEntry.from_list(e) for e in data["sheet"]]
        last_drawn = None if data["last_drawn"] is None else Tile.parse(data["last_drawn"])
        start_tiles = [str(Tile.parse(t)) for t in data["start_tiles"]]
        # everything read: now change the state
        self.round, self.turn, self.phase = data["round"], data["turn"], data["phase"]
        self.current, self.starter, self.drawn = data["current"], data["starter"], data["drawn"]
        self.start_tiles = start_tiles
        self.start_draws = [list(d) for d in data["start_draws"]]
        self.table, self.hands, self.pool = table, hands, pool
        self.last_drawn = last_drawn
        self.sheet = sheet
        self.round_winners = [list(w) for w in data["round_winners"]]
        self.round_ends = list(data["round_ends"])
        self.winners = list(data["winners"])
        self.log = [list(item) for item in data["log"]]

    def _check_saved(self, data: dict[str, Any]) -> None:
        """Refuse (:class:`CorruptSaveError`) saved data that is not a legal game of ours."""
        n = len(self.names)
        for key in ("round", "turn", "current", "starter", "drawn"):
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or not (
                    0 <= value <= 10 ** 6):
                raise CorruptSaveError(f"{key!r} must be a whole number >= 0, "
                                       f"not {shown(value)}")
        if data["current"] >= n or data["starter"] >= n:
            raise CorruptSaveError(f"'current' and 'starter' must be players 0 to {n - 1}")
        if data["round"] < 1:
            raise CorruptSaveError("'round' counts from 1")
        phase = data["phase"]
        if not isinstance(phase, str) or phase not in PHASES:
            raise CorruptSaveError(f"unknown phase {shown(phase)}; it is one of "
                                   f"{', '.join(PHASES)}")
        if not isinstance(data["hands"], list) or len(data["hands"]) != n:
            raise CorruptSaveError("'hands' must hold one hand per player")
        hands = [_tiles(h, f"the hand of player {p}") for p, h in enumerate(data["hands"])]
        pool = _tiles(data["pool"], "the pool")
        if not isinstance(data["table"], list):
            raise CorruptSaveError("'table' must be a list of placements")
        placements = []
        for number, item in enumerate(data["table"], 1):
            try:
                placements.append(Placement.from_list(item))
            except InvalidMoveError:
                raise CorruptSaveError(f"the table, tile {number}: not a placement "
                                       "[tile, x, y, rotation]") from None
        if placements and placements[0].cell != ORIGIN:
            raise CorruptSaveError("the first tile on the table must lie on the origin cell")
        try:
            table = Table(placements)
        except IllegalMoveError as error:
            raise CorruptSaveError(f"the table has an illegal tile: {error}") from None
        every = sorted([*table.tiles(), *pool, *(t for h in hands for t in h)])
        if every != all_tiles():
            raise CorruptSaveError("the table, hands and pool do not hold the 56 tiles once")
        if not isinstance(data["sheet"], list):
            raise CorruptSaveError("the score sheet must be a list of entries")
        for number, item in enumerate(data["sheet"], 1):
            where = f"the score sheet, entry {number}"
            try:
                entry = ScoreEntry.from_list(item)
            except ValueError:
                raise CorruptSaveError(f"{where}: not an entry [round, player, reason, points, "
                                       "count, tile, turn]") from None
            if not 0 <= entry.player < n:
                raise CorruptSaveError(f"{where}: there is no player {entry.player}")
            if not 1 <= entry.round <= data["round"]:
                raise CorruptSaveError(f"{where}: round {entry.round} is not one of rounds 1 "
                                       f"to {data['round']}")
            if not 0 <= entry.turn <= data["turn"] or entry.count < 0 or abs(
                    entry.points) > 10 ** 6:
                raise CorruptSaveError(f"{where}: its turn, count or points are out of range")
        last_drawn = data["last_drawn"]
        if last_drawn is not None:
            last_drawn = _tiles([last_drawn], "the last drawn tile ('last_drawn')")[0]
        if data["drawn"]:
            if last_drawn not in hands[data["current"]]:
                raise CorruptSaveError("the drawn tile ('last_drawn') is not in the hand of "
                                       "the player to move")
            if not placements or (self.rules.max_draws is not None
                                  and data["drawn"] > self.rules.max_draws):
                raise CorruptSaveError("'drawn' counts more tiles than the rules allow")
        start_tiles = _tiles(data["start_tiles"], "the start tiles ('start_tiles')")
        if not isinstance(data["start_draws"], list) or not all(
                isinstance(d, list) and len(d) == 2 and isinstance(d[0], int)
                and not isinstance(d[0], bool) and 0 <= d[0] < n and isinstance(d[1], str)
                for d in data["start_draws"]):
            raise CorruptSaveError("'start_draws' must list [player, tile] pairs")
        _tiles([d[1] for d in data["start_draws"]], "the start draws ('start_draws')")
        log = data["log"]
        if not isinstance(log, list) or not all(
                isinstance(item, list) and len(item) <= 8 and all(
                    isinstance(v, (int, str)) and not isinstance(v, bool) for v in item)
                for item in log):
            raise CorruptSaveError("the 'log' must be a list of lists of numbers and words")
        ends, round_winners = data["round_ends"], data["round_winners"]
        if not isinstance(ends, list) or not all(
                isinstance(e, str) and e in ("out", "blocked", "target") for e in ends):
            raise CorruptSaveError("'round_ends' must list how each round ended "
                                   "(out, blocked or target)")
        if not isinstance(round_winners, list) or not all(
                isinstance(ws, list) and all(_is_player(w, n) for w in ws)
                for ws in round_winners):
            raise CorruptSaveError("'round_winners' must list players 0 to "
                                   f"{n - 1} for each round")
        if len(ends) != len(round_winners) or len(ends) > data["round"]:
            raise CorruptSaveError("'round_ends' and 'round_winners' must have one entry per "
                                   "round played")
        winners = data["winners"]
        if not isinstance(winners, list) or not all(_is_player(w, n) for w in winners):
            raise CorruptSaveError(f"'winners' must list players 0 to {n - 1}")
        if phase == "play":
            if not all(hands):
                raise CorruptSaveError("a round in play where a player has no tile left")
            if not placements and not set(start_tiles) & set(hands[data["current"]]):
                raise CorruptSaveError("the player to move holds none of the start tiles "
                                       "('start_tiles')")

    def copy(self, history: bool = False) -> Game:
        """An independent copy (without undo history unless asked)."""
        other = Game(self.rules, list(self.names), self.seed, history=history, _deal=False)
        other._restore(self.to_dict(), trusted=True)
        return other

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} players={len(self.names)} seed={self.seed} "
                f"round={self.round} tiles on table={len(self.table)} phase={self.phase}>")

    def _repr_svg_(self) -> str:
        from mathgames.triomino.view import table_svg

        return table_svg(self.table)
