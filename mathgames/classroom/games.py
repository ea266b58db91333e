"""The games a classroom table plays, each behind one small interface (:class:`TableGame`).

A table (:class:`~mathgames.classroom.table_state.TableState`) and its page
(:mod:`mathgames.pages.table`) never ask which game they hold: they ask the game's
adapter, found by the game's name in :data:`GAMES`. An adapter is plain Python
(the rules core, its pure SVG views and narration; no Jupyter): a new game from the
seats, seed and settings; a move applied from its text; a bot's move; whose turn it is;
the winners; the view for a seat; the keyboard and the clicks (a :class:`Pick` in, a
:class:`Reply` out); and what a screen reader is told.

>>> game = table_game("star")
>>> position = game.new_game(2, seed=1, settings={})
>>> game.to_move(position), game.seat_counts
(0, (2, 3, 4, 6))
>>> game.play(position, game.bot_move(position, "easy", seed=1))
>>> game.to_move(position)
1
>>> game.play(position, "a1-a1")
Traceback (most recent call last):
...
mathgames.core.errors.IllegalMoveError: ...
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mathgames.core.errors import InvalidMoveError, MathgamesError, quoted
from mathgames.core.i18n import format_number, translator
from mathgames.core.svg import TEXT_PALETTE, esc

__all__ = [
    "GAMES",
    "LOOK_KEYS",
    "HalmaTable",
    "Pick",
    "Reply",
    "TableGame",
    "TriominoTable",
    "table_game",
    "triomino_action",
    "triomino_text",
]

_ = translator("classroom")
_t = translator("triomino")  # the Triomino game's own words: its rounds and pool

#: The keys that only look (the frame, the zoom): a page that watches a table takes these.
LOOK_KEYS = ("+", "-", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight")

#: How a seat is named in a told move (the page's names: two bots told apart).
Names = Callable[[int], str]


@dataclass(frozen=True)
class Pick:
    """What a player has chosen on their page, before a move: a Halma piece
    (``selected``), a Triomino tile turned ``rotation`` times, and the keyboard's frame
    (``cursor``: a Halma cell's name, or a Triomino place ``(x, y)``)."""

    selected: str | None = None
    tile: Any = None
    rotation: int = 0
    cursor: Any = None


@dataclass(frozen=True)
class Reply:
    """What a click or a key does: the new :class:`Pick`, and at most one of a ``move``
    to play (its text), a ``click`` on the board (a cell, as if tapped), a ``zoom`` step,
    an ``error`` to show; ``said`` is told to a screen reader."""

    pick: Pick
    move: str | None = None
    click: str | None = None
    zoom: int = 0
    error: str | None = None
    said: str | None = None


class TableGame(Protocol):
    """One game as a classroom table plays it (see the module's docstring)."""

    name: str
    #: The seat counts a table of this game may have.
    seat_counts: tuple[int, ...]
    #: Whether a player holds tiles of their own (a rack, with Turn, Draw and Pass).
    has_rack: bool
    #: Whether the board has zoom buttons (+ and - zoom).
    zooms: bool
    #: A class the table's page takes for this game's layout ("" for none).
    css_class: str

    def title(self) -> str:
        """The game's name in the current language."""

    def open_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """``settings`` with the defaults a table opened now takes (kept in its log)."""

    def new_game(self, seats: int, seed: int, settings: Mapping[str, Any]) -> Any:
        """The rules core's game for a new table (raises for settings it refuses)."""

    def copy_game(self, game: Any) -> Any:
        """An independent copy of ``game``."""

    def play(self, game: Any, text: str) -> None:
        """Check the move ``text`` and play it; raise a MathgamesError and change nothing
        if it is wrong."""

    def bot_move(self, game: Any, level: str, seed: int) -> str:
        """The move, as text, of a bot of ``level`` whose turn it is."""

    def to_move(self, game: Any) -> int:
        """The seat whose turn it is."""

    def is_over(self, game: Any) -> bool:
        """Whether the game is over."""

    def round_over(self, game: Any) -> bool:
        """Whether a round has ended and the next is still to be dealt (move ``next``)."""

    def next_round(self, game: Any) -> None:
        """Deal the next round."""

    def winners(self, game: Any) -> list[int]:
        """The seats that won the finished game (none in a draw)."""

    def scores(self, game: Any) -> list[int] | None:
        """Each seat's points so far (None for a game without points)."""

    # -- the page's side -----------------------------------------------------------------
    def help_texts(self) -> tuple[str, str]:
        """How to play, with a pointer and by touch (see ``ui_widget.by_pointer``)."""

    def start_pick(self, game: Any) -> Pick:
        """What a page has chosen when it sits down: nothing, the frame at its start."""

    def board_svg(self, game: Any, seat: int, pick: Pick, started: bool) -> str:
        """The board as ``seat`` sees it (``-1``: a page that watches)."""

    def rack_svg(self, game: Any, seat: int, pick: Pick, started: bool) -> str:
        """``seat``'s own tiles ("" without a rack); never another player's."""

    def can(self, game: Any, seat: int, move: str) -> bool:
        """Whether ``seat`` may play ``move`` (``draw``, ``pass``) now: a button's state."""

    def click(self, game: Any, seat: int, pick: Pick, cell: str) -> Reply:
        """A click on the board's ``cell`` at ``seat``'s turn."""

    def rack_click(self, pick: Pick, cell: str) -> Pick:
        """A click on the rack's ``cell`` (a tile chosen)."""

    def key(self, game: Any, seat: int, pick: Pick, key: str) -> Reply:
        """A key pressed on the board or the rack."""

    def your_turn(self, game: Any, seat: int, pick: Pick) -> str:
        """The status line at ``seat``'s turn: what to do next."""

    def last_told(self, game: Any, name: Names) -> str:
        """The last turn in words, shown under the status line ("" for none)."""

    def round_told(self, game: Any, name: Names) -> list[str]:
        """How the round that is over ended, in sentences."""

    def told_mark(self, game: Any) -> int:
        """How far the game's moves are told (for :meth:`told_since`)."""

    def told_since(self, game: Any, mark: int, seat: int, name: Names) -> list[str]:
        """The others' moves since ``mark`` (a :meth:`told_mark`), in words."""

    def seats_html(self, game: Any, started: bool, labels: Sequence[str]) -> str:
        """Who sits where (``labels``: each seat's name, "you", the turn's arrow) and the
        game's own figures (a race's pieces home, each player's points)."""


def seat_list(labels: Sequence[str], extras: Sequence[str] = ()) -> str:
    """The seats as a numbered list in the players' colours (``extras``: a text after
    each name).

    >>> seat_list(["Ann", "bot"]).count("<li")
    2
    """
    rows = [f'<li data-seat="{i}" style="color:{TEXT_PALETTE[i % len(TEXT_PALETTE)]}">'
            f"{esc(label + (extras[i] if extras else ''))}</li>"
            for i, label in enumerate(labels)]
    return f'<ol start="1">{"".join(rows)}</ol>'


@contextlib.contextmanager
def _refusal(text: str) -> Iterator[None]:
    """The error contract of :meth:`TableGame.play`: a rules core refuses with a
    MathgamesError; any other ValueError it raises on a move's text is one too."""
    try:
        yield
    except MathgamesError:
        raise
    except ValueError as error:
        raise InvalidMoveError(f"{quoted(text)} is not a move: {error}") from error


def _bot(levels: Mapping[str, Any], make_bot: Callable[..., Any], level: str,
         seed: int) -> Any:
    """A bot of a table's ``level``, or of an earlier version's table (``greedy``...)."""
    return levels[level].make(seed) if level in levels else make_bot(level, seed=seed)


# -- Halma and Chinese checkers ------------------------------------------------------------------

class HalmaTable:
    """Halma (``board="halma"``) or Chinese checkers (``"star"``) at a table: a move is a
    path of cells (``"d14-c14"``); a click chooses a piece, then where it goes.

    >>> star = HalmaTable("star", (2, 3, 4, 6)); game = star.new_game(2, 0, {})
    >>> start = next(c for c in game.topology.names if game.owner(c) == 0 and game.moves_from(c))
    >>> end, move = next(iter(game.moves_from(start).items()))
    >>> reply = star.click(game, 0, Pick(), start)
    >>> reply.pick.selected == start, star.click(game, 0, reply.pick, end).move == str(move)
    (True, True)
    """

    has_rack = False
    zooms = True
    css_class = ""

    def __init__(self, board: str, seat_counts: tuple[int, ...]) -> None:
        self.name = board
        self.seat_counts = seat_counts

    def title(self) -> str:
        return {"halma": _("Halma"), "star": _("Chinese checkers")}[self.name]

    def open_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        from mathgames.halma.game import DEFAULT_FILL_RULE

        return {"fill_rule": DEFAULT_FILL_RULE, **settings}

    def new_game(self, seats: int, seed: int, settings: Mapping[str, Any]) -> Any:
        from mathgames.halma.game import Game

        limit = settings.get("move_limit")
        # a table opened before the fill rule was a setting replays under the literal rule
        rule = settings.get("fill_rule", "literal")
        placement = settings.get("placement")
        if placement:
            return Game.custom(self.name, seats, {int(p): list(cells) for p, cells
                                                  in placement.items()}, move_limit=limit,
                               fill_rule=rule)
        return Game(self.name, seats, move_limit=limit, fill_rule=rule)

    def copy_game(self, game: Any) -> Any:
        return game.copy()

    def play(self, game: Any, text: str) -> None:
        with _refusal(text):
            game.play(text)

    def bot_move(self, game: Any, level: str, seed: int) -> str:
        from mathgames.halma.bots import LEVELS, make_bot

        return str(_bot(LEVELS, make_bot, level, seed).choose(game))

    def to_move(self, game: Any) -> int:
        return int(game.to_move)

    def is_over(self, game: Any) -> bool:
        return bool(game.is_over())

    def round_over(self, game: Any) -> bool:
        return False

    def next_round(self, game: Any) -> None:
        raise InvalidMoveError(f"{self.title()} has no rounds")

    def winners(self, game: Any) -> list[int]:
        return list(game.result().winners) if game.is_over() else []

    def scores(self, game: Any) -> list[int] | None:
        return None

    def help_texts(self) -> tuple[str, str]:
        return (_("Click a piece, then where it goes. Keys: the arrows move the frame, Enter "
                  "or space clicks, Escape lets go, + and - zoom."),
                _("Tap a piece, then where it goes; the magnifier buttons make the squares "
                  "bigger."))

    def start_pick(self, game: Any) -> Pick:
        topology = game.topology
        return Pick(cursor=topology.names[topology.center])  # the middle of the board

    def board_svg(self, game: Any, seat: int, pick: Pick, started: bool) -> str:
        from mathgames.halma.view import render

        return render(game, selected=pick.selected, cursor=pick.cursor, show_target=started)

    def rack_svg(self, game: Any, seat: int, pick: Pick, started: bool) -> str:
        return ""

    def can(self, game: Any, seat: int, move: str) -> bool:
        return False

    def click(self, game: Any, seat: int, pick: Pick, cell: str) -> Reply:
        if pick.selected is not None:
            moves = game.moves_from(pick.selected)
            if cell in moves:
                return Reply(pick, move=str(moves[cell]))
        selected = cell if game.owner(cell) == seat else None
        return Reply(dataclasses.replace(pick, selected=selected))

    def rack_click(self, pick: Pick, cell: str) -> Pick:
        return pick

    def key(self, game: Any, seat: int, pick: Pick, key: str) -> Reply:
        """The arrows move the frame, Enter or space clicks there, Escape lets go, + and -
        zoom."""
        from mathgames.halma.view import ARROWS, arrow_step, cell_said

        if key in ("+", "-"):
            return Reply(pick, zoom=+1 if key == "+" else -1)
        if key in ARROWS:
            cursor = arrow_step(game.topology, pick.cursor, key)
            return Reply(dataclasses.replace(pick, cursor=cursor), said=cell_said(game, cursor))
        if key in ("Enter", " "):
            return Reply(pick, click=pick.cursor)
        if key == "Escape":
            return Reply(dataclasses.replace(pick, selected=None))
        return Reply(pick)

    def your_turn(self, game: Any, seat: int, pick: Pick) -> str:
        return _("Your turn")

    def last_told(self, game: Any, name: Names) -> str:
        return ""

    def round_told(self, game: Any, name: Names) -> list[str]:
        return []

    def told_mark(self, game: Any) -> int:
        return len(game.moves)

    def told_since(self, game: Any, mark: int, seat: int, name: Names) -> list[str]:
        return [f"{name(mover)}: {move}" for (mover, _path, _done), move
                in list(zip(game.history, game.moves, strict=True))[mark:] if mover != seat]

    def seats_html(self, game: Any, started: bool, labels: Sequence[str]) -> str:
        if not started:
            return seat_list(labels)
        # a race's progress: the pieces already in the target camp
        return seat_list(labels, [" · " + _("{n} of {total} home").format(
            n=game.pieces_home(i), total=len(game.pieces_of(i))) for i in range(len(labels))])


# -- Triomino ------------------------------------------------------------------------------------

def triomino_action(text: str) -> Any:
    """An action of the Triomino core from its text: ``draw``, ``pass`` or
    ``place <tile> <x> <y> <rotation>``.

    >>> triomino_action("draw")
    ('draw', None)
    >>> triomino_text(triomino_action("place 0-0-0 0 0 0"))
    'place 0-0-0 0 0 0'
    """
    from mathgames.triomino.table import Placement

    if text in ("draw", "pass"):
        return (text, None)
    parts = text.split()
    if len(parts) != 5 or parts[0] != "place":
        raise InvalidMoveError(f"{quoted(text)} is not a Triomino action")
    try:
        return ("place", Placement.from_list([parts[1], int(parts[2]), int(parts[3]),
                                              int(parts[4])]))
    except ValueError:
        raise InvalidMoveError(f"{quoted(text)} is not a Triomino action") from None


def triomino_text(action: Any) -> str:
    """The text of a Triomino core action (see :func:`triomino_action`)."""
    kind, placement = action
    if kind != "place":
        return kind
    tile, x, y, rotation = placement.to_list()
    return f"place {tile} {x} {y} {rotation}"


class TriominoTable:
    """Triomino at a table: a move is ``draw``, ``pass``, ``place <tile> <x> <y> <turns>``
    or ``next`` (the next round); a player chooses one of their tiles, then its place.
    The keyboard is the Triomino widget's (:mod:`mathgames.triomino.keyboard`).

    >>> trio = TriominoTable(); game = trio.new_game(2, 7, {})
    >>> tile = game.placeable_tiles()[0]
    >>> pick = trio.rack_click(Pick(), f"t{tile}")
    >>> reply = trio.click(game, game.current, pick, "c0_0")
    >>> reply.move.startswith(f"place {tile} 0 0")
    True
    """

    name = "triomino"
    seat_counts = (2, 3, 4, 5, 6)
    has_rack = True
    zooms = False
    css_class = "mg-table-triomino"

    def title(self) -> str:
        return _("Triomino")

    def open_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        return dict(settings)

    def new_game(self, seats: int, seed: int, settings: Mapping[str, Any]) -> Any:
        from mathgames.triomino.game import Game

        return Game(settings.get("rules", "pressman"), seats, seed=seed, history=False)

    def copy_game(self, game: Any) -> Any:
        return game.copy()

    def play(self, game: Any, text: str) -> None:
        action = triomino_action(text)
        with _refusal(text):
            if action[0] == "place":
                game.check(action[1])
            game.apply(action)

    def bot_move(self, game: Any, level: str, seed: int) -> str:
        from mathgames.triomino.bots import LEVELS, make_bot

        return triomino_text(_bot(LEVELS, make_bot, level, seed).choose(game))

    def to_move(self, game: Any) -> int:
        return int(game.current)

    def is_over(self, game: Any) -> bool:
        return bool(game.phase == "game_over")

    def round_over(self, game: Any) -> bool:
        return bool(game.phase == "round_over")

    def next_round(self, game: Any) -> None:
        game.next_round()

    def winners(self, game: Any) -> list[int]:
        if not self.is_over(game):
            return []
        scores = game.scores
        return [i for i, points in enumerate(scores) if points == max(scores)]

    def scores(self, game: Any) -> list[int] | None:
        return list(game.scores)

    def help_texts(self) -> tuple[str, str]:
        return (_("Click one of your tiles, then its place. Keys: 1 to 9 or T choose a tile, "
                  "R turns it, the arrows or N go from place to place, Enter puts it there, D "
                  "draws, P passes."),
                _("Tap one of your tiles, then its place; slide your tiles sideways to see "
                  "them all."))

    def start_pick(self, game: Any) -> Pick:
        return Pick()

    def _mine(self, game: Any, seat: int, started: bool) -> bool:
        return started and game.phase == "play" and game.current == seat

    def board_svg(self, game: Any, seat: int, pick: Pick, started: bool) -> str:
        from mathgames.triomino.view import table_svg

        # the free places show on the player's turn, a tile chosen or not; while the table
        # is empty, the middle on every page (a blank table would not say where tiles go)
        empty = started and not game.table.order
        clickable: set[Any] = (game.table.frontier() if self._mine(game, seat, started)
                               or empty else set())
        last = game.table.order[-1].cell if game.table.order else None
        return table_svg(game.table, clickable=clickable, last=last,
                         title=_("Triomino table"),
                         cursor=pick.cursor if pick.cursor in clickable else None)

    def rack_svg(self, game: Any, seat: int, pick: Pick, started: bool) -> str:
        from mathgames.triomino.view import rack_svg

        mine = self._mine(game, seat, started)
        hand = game.hand(seat) if seat >= 0 else []  # this player's tiles only
        return rack_svg(hand, selected=pick.tile if mine else None, rotation=pick.rotation,
                        title=_("Your tiles"),
                        playable=set(game.placeable_tiles()) if mine else None)

    def can(self, game: Any, seat: int, move: str) -> bool:
        if not self._mine(game, seat, True):
            return False
        return bool({"draw": game.can_draw, "pass": game.can_pass}[move]())

    def click(self, game: Any, seat: int, pick: Pick, cell: str) -> Reply:
        from mathgames.triomino.geometry import parse_cell

        if pick.tile is None:
            return Reply(pick, error=_("Choose a tile first"))
        where = parse_cell(cell)
        fitting = [p for p in game.legal_placements(pick.tile) if p.cell == where]
        # turned as shown, or else the way it fits
        chosen = next((p for p in fitting if p.rotation == pick.rotation),
                      fitting[0] if fitting else None)
        if chosen is None:
            return Reply(pick, error=_("That tile does not fit there"))
        return Reply(pick, move=triomino_text(("place", chosen)))

    def rack_click(self, pick: Pick, cell: str) -> Pick:
        from mathgames.triomino.tiles import Tile

        return dataclasses.replace(pick, tile=Tile.parse(cell[1:]), rotation=0)

    def _tile(self, pick: Pick, tile: Any) -> Reply:
        return Reply(dataclasses.replace(pick, tile=tile, rotation=0),
                     said=_("Tile {tile}").format(tile=tile))

    def key(self, game: Any, seat: int, pick: Pick, key: str) -> Reply:
        """1-9 choose a tile (T: the next tile that may go now), R turns it, the arrows go
        to the nearest free place that way and N to the next one, Enter or space puts the
        tile there, D draws, P passes."""
        from mathgames.triomino.geometry import cell_id
        from mathgames.triomino.keyboard import ARROWS, free_places, place_said, step_cursor

        if key.isdigit() and key != "0" and seat >= 0:
            hand = game.hand(seat)
            if int(key) <= len(hand):
                return self._tile(pick, hand[int(key) - 1])
        elif key in ("t", "T") and game.placeable_tiles():
            tiles = game.placeable_tiles()
            at = tiles.index(pick.tile) + 1 if pick.tile in tiles else 0
            return self._tile(pick, tiles[at % len(tiles)])
        elif key in ("r", "R") and pick.tile is not None:
            return Reply(dataclasses.replace(pick, rotation=(pick.rotation + 1) % 3))
        elif key in ("d", "D"):
            return Reply(pick, move="draw")
        elif key in ("p", "P"):
            return Reply(pick, move="pass")
        elif key in (*ARROWS, "n", "N", "Enter", " "):
            places = free_places(game, seat)
            if not places:
                return Reply(pick)
            arrow = key if key in (*ARROWS, "n", "N") else None
            if arrow is None and pick.cursor in places:  # Enter: the tile goes there
                return Reply(pick, click=cell_id(pick.cursor))
            cursor = step_cursor(game, places, pick.cursor, arrow)
            moved = dataclasses.replace(pick, cursor=cursor)
            if arrow is None:  # Enter with no frame: the frame's start, as the widget
                return Reply(moved, click=cell_id(cursor))
            return Reply(moved, said=place_said(game, places, cursor, pick.tile,
                                                pick.rotation))
        return Reply(pick)

    def your_turn(self, game: Any, seat: int, pick: Pick) -> str:
        if game.phase != "play":
            return _("Your turn")
        if not game.legal_placements():
            return _("Your turn: none of your tiles fits: draw, or pass")
        if pick.tile is None and set(game.placeable_tiles()) != set(game.hand(seat)):
            # some tiles are dimmed (not allowed now)
            return _("Your turn: choose one of your bright tiles, then its place on the table")
        if pick.tile is None:
            return _("Your turn: choose one of your tiles, then its place on the table")
        return _("Your turn: choose the tile's place on the table, or turn the tile")

    def last_told(self, game: Any, name: Names) -> str:
        from mathgames.triomino.narrate import describe_start, describe_turn

        if game.phase != "play":
            return ""
        # who starts the round and why, then each turn
        return (describe_start(game, name) if game.is_start_move
                else describe_turn(game, name)) or ""

    def round_told(self, game: Any, name: Names) -> list[str]:
        from mathgames.triomino.narrate import round_summary

        return list(round_summary(game, name))

    def told_mark(self, game: Any) -> int:
        return len(game.log)

    def told_since(self, game: Any, mark: int, seat: int, name: Names) -> list[str]:
        from mathgames.triomino.narrate import describe_turn

        said, log = [], game.log
        for i in range(mark, len(log)):  # each turn's last action so far
            item, after = log[i], log[i + 1] if i + 1 < len(log) else None
            if item[1] < 0 or (after is not None and after[:2] == item[:2]):
                continue
            if item[1] != seat:  # (only what was not told yet: a draw once)
                said.append(describe_turn(game, name, item[0], end=i + 1, start=mark))
        return said

    def seats_html(self, game: Any, started: bool, labels: Sequence[str]) -> str:
        if not started:
            return seat_list(labels)
        rows = []
        for i, label in enumerate(labels):
            points = (f'<td class="mg-points">{format_number(game.scores[i])}</td>'
                      if game.rules.keep_score else "")
            rows.append(f'<tr data-seat="{i}" style="color:{TEXT_PALETTE[i % len(TEXT_PALETTE)]}">'
                        f'<th scope="row">{i + 1}.\u00a0{esc(label)}</th>{points}'
                        f'<td class="mg-tiles">{format_number(len(game.hand(i)))}</td></tr>')
        head = f'<th scope="col">{esc(_("Points"))}</th>' if game.rules.keep_score else ""
        pool = _t.ngettext("{n} tile in the pool", "{n} tiles in the pool", len(game.pool))
        return (f'<table class="mg-table-scores"><tr><td></td>{head}'
                f'<th scope="col">{esc(_("Tiles"))}</th></tr>{"".join(rows)}</table>'
                f'<p class="mg-table-round">{esc(_t("Round {n}").format(n=game.round))} · '
                f'{esc(pool.format(n=len(game.pool)))}</p>')


#: The table games by name (the order of the page's list), each with its adapter.
GAMES: dict[str, TableGame] = {
    "halma": HalmaTable("halma", (2, 3, 4)),
    "star": HalmaTable("star", (2, 3, 4, 6)),
    "triomino": TriominoTable(),
}


def table_game(name: object) -> TableGame:
    """The adapter of the table game ``name`` (a key of :data:`GAMES`).

    >>> table_game("triomino").seat_counts
    (2, 3, 4, 5, 6)
    >>> table_game("chess")
    Traceback (most recent call last):
    ...
    mathgames.core.errors.InvalidMoveError: no table game 'chess'
    """
    if not isinstance(name, str) or name not in GAMES:
        raise InvalidMoveError(f"no table game {quoted(name)}")
    return GAMES[name]
