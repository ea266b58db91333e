"""The table games' adapters (mathgames/classroom/games.py), each through the one interface,
and the contracts the class's and the table's states share (copy, fold's errors)."""

from __future__ import annotations

from typing import Any

import pytest

from mathgames.classroom.class_state import ClassState
from mathgames.classroom.games import GAMES, Pick, TableGame, table_game
from mathgames.classroom.store import Event
from mathgames.classroom.table_state import TABLE_GAMES, TableState
from mathgames.core.errors import InvalidMoveError, MathgamesError

NAMES = list(GAMES)


def snapshot(adapter: TableGame, game: Any) -> tuple[Any, ...]:
    """What a player can see of a game: every seat's board and rack, the turn, the moves
    told, the points."""
    seats = range(max(adapter.seat_counts[0], 2))
    return (adapter.to_move(game), adapter.told_mark(game), adapter.scores(game),
            adapter.is_over(game), adapter.round_over(game),
            *(adapter.board_svg(game, s, Pick(), True) for s in seats),
            *(adapter.rack_svg(game, s, Pick(), True) for s in seats))


def new(name: str, seats: int = 2, seed: int = 5) -> tuple[TableGame, Any]:
    adapter = table_game(name)
    return adapter, adapter.new_game(seats, seed, adapter.open_settings({}))


def test_every_table_game_has_an_adapter_with_its_seat_counts() -> None:
    assert NAMES == ["halma", "star", "triomino"]
    assert {name: GAMES[name].seat_counts for name in NAMES} == TABLE_GAMES
    assert TABLE_GAMES["star"] == (2, 3, 4, 6) and TABLE_GAMES["triomino"] == (2, 3, 4, 5, 6)
    with pytest.raises(InvalidMoveError, match="no table game"):
        table_game("chess")


@pytest.mark.parametrize("name", NAMES)
def test_a_new_game_waits_for_its_first_move(name: str) -> None:
    adapter, game = new(name)
    assert adapter.to_move(game) in (0, 1)
    assert not adapter.is_over(game) and not adapter.round_over(game)
    assert adapter.winners(game) == [] and adapter.told_mark(game) == 0
    assert adapter.told_since(game, 0, -1, str) == []
    assert adapter.board_svg(game, 0, Pick(), False).startswith("<svg")


@pytest.mark.parametrize("name", NAMES)
def test_a_legal_move_given_as_text_is_played_and_told(name: str) -> None:
    adapter, game = new(name)
    mover = adapter.to_move(game)
    text = adapter.bot_move(game, "easy", seed=3)
    adapter.play(game, text)
    assert adapter.told_mark(game) > 0
    told = adapter.told_since(game, 0, 1 - mover, lambda seat: f"seat{seat}")
    assert told and told[0].startswith(f"seat{mover}")
    assert adapter.told_since(game, 0, mover, str) == []  # a player is not told their own


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", ["", "a1-a1", "place 9-9-9 0 0 0", "place 0-0-0 x 0 0",
                                  "next", "draw draw", "z99-z98"])
def test_a_wrong_move_is_refused_and_changes_nothing(name: str, text: str) -> None:
    adapter, game = new(name)
    before = snapshot(adapter, game)
    with pytest.raises(MathgamesError):
        adapter.play(game, text)
    assert snapshot(adapter, game) == before


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("level", ["easy", "medium", "greedy", "random"])
def test_bots_of_every_level_play_legal_moves(name: str, level: str) -> None:
    adapter, game = new(name, seed=11)
    for ply in range(6):
        text = adapter.bot_move(game, level, seed=ply)
        mark = adapter.told_mark(game)
        adapter.play(game, text)
        assert adapter.told_mark(game) > mark


@pytest.mark.parametrize("name", NAMES)
def test_a_copy_of_a_game_is_independent(name: str) -> None:
    adapter, game = new(name)
    before = snapshot(adapter, game)
    other = adapter.copy_game(game)
    adapter.play(other, adapter.bot_move(other, "easy", seed=1))
    assert snapshot(adapter, game) == before != snapshot(adapter, other)


# -- clicks and keys -------------------------------------------------------------------------

def test_halma_a_piece_then_its_place_by_clicks_and_keys() -> None:
    from mathgames.halma.bots import GreedyBot

    adapter, game = new("star")
    pick = adapter.start_pick(game)
    assert pick.cursor == game.topology.names[game.topology.center]
    move = GreedyBot(seed=1).choose(game)
    reply = adapter.click(game, 0, pick, move.start)
    assert reply.pick.selected == move.start and reply.move is None
    assert adapter.click(game, 1, pick, move.start).pick.selected is None  # not seat 1's
    reply = adapter.key(game, 0, reply.pick, "ArrowUp")
    assert reply.pick.cursor != pick.cursor and reply.said and reply.said.startswith(
        reply.pick.cursor)
    assert adapter.key(game, 0, reply.pick, "Enter").click == reply.pick.cursor
    assert adapter.key(game, 0, reply.pick, "Escape").pick.selected is None
    assert adapter.key(game, 0, pick, "+").zoom == 1 and adapter.key(game, 0, pick, "-").zoom == -1
    chosen = Pick(selected=move.start)
    assert adapter.click(game, 0, chosen, move.end).move == str(move)
    adapter.play(game, str(move))
    assert adapter.to_move(game) == 1


def test_triomino_a_tile_by_keys_goes_where_the_frame_stands() -> None:
    from mathgames.triomino.geometry import cell_id
    from mathgames.triomino.keyboard import free_places, step_cursor

    adapter, game = new("triomino", seed=7)
    seat = adapter.to_move(game)
    assert adapter.key(game, seat, Pick(), "+").zoom == 0  # no zoom on a Triomino table
    placement = game.legal_placements()[0]
    index = game.hand(seat).index(placement.tile)
    reply = adapter.key(game, seat, Pick(), str(index + 1)) if index < 9 else None
    pick = reply.pick if reply else Pick()
    while pick.tile != placement.tile:
        reply = adapter.key(game, seat, pick, "t")
        pick = reply.pick
    assert reply is not None and reply.said == f"Tile {placement.tile}"
    while pick.rotation != placement.rotation:
        pick = adapter.key(game, seat, pick, "r").pick
    places = free_places(game, seat)
    reply = adapter.key(game, seat, pick, "n")
    assert reply.pick.cursor == step_cursor(game, places, None, None)  # the widget's frame
    assert reply.said and reply.said.startswith(f"Free place 1 of {len(places)}")
    pick = reply.pick
    for _ in range(len(places)):
        if pick.cursor == placement.cell:
            break
        pick = adapter.key(game, seat, pick, "n").pick
    assert pick.cursor == placement.cell
    reply = adapter.key(game, seat, pick, "Enter")
    assert reply.click == cell_id(placement.cell)
    move = adapter.click(game, seat, pick, reply.click).move
    assert move is not None and move.startswith(f"place {placement.tile} ")
    adapter.play(game, move)
    assert len(game.table) == 1
    assert adapter.key(game, seat, pick, "d").move == "draw"
    assert adapter.key(game, seat, pick, "p").move == "pass"


def test_triomino_arrows_move_the_frame_as_the_widget_does() -> None:
    from mathgames.triomino.keyboard import ARROWS, free_places, step_cursor

    adapter, game = new("triomino", seed=7)
    for _ in range(3):  # a few tiles on the table: several free places
        adapter.play(game, adapter.bot_move(game, "easy", seed=1))
    seat = adapter.to_move(game)
    places = free_places(game, seat)
    assert len(places) > 1
    pick = Pick(cursor=places[0])
    for key in ARROWS:
        assert adapter.key(game, seat, pick, key).pick.cursor == step_cursor(
            game, places, places[0], key)
    assert adapter.key(game, 1 - seat, pick, "ArrowUp").pick == pick  # not this seat's turn


def test_triomino_clicks_need_a_tile_that_fits() -> None:
    adapter, game = new("triomino", seed=7)
    seat = adapter.to_move(game)
    assert adapter.click(game, seat, Pick(), "c0_0").error == "Choose a tile first"
    stuck = next((t for t in game.hand(seat) if t not in game.placeable_tiles()), None)
    if stuck is not None:  # a tile that may not open the round
        assert adapter.click(game, seat, Pick(tile=stuck), "c0_0").error == (
            "That tile does not fit there")
    tile = game.placeable_tiles()[0]
    pick = adapter.rack_click(Pick(rotation=2), f"t{tile}")
    assert pick.tile == tile and pick.rotation == 0
    assert adapter.click(game, seat, pick, "c0_0").move.startswith(f"place {tile} 0 0")


# -- the states' shared contracts ------------------------------------------------------------

def seated_table(name: str) -> TableState:
    table = TableState("T4KEY", {"game": name, "seats": 2, "seed": 3})
    table.apply({"type": "join", "seat": 0, "pid": "a", "name": "Ann", "token_hash": "h"})
    table.apply({"type": "bot", "seat": 1})
    table.apply({"type": "start"})
    return table


@pytest.mark.parametrize("name", NAMES)
def test_a_table_copy_shares_nothing_that_changes(name: str) -> None:
    table = seated_table(name)
    view = snapshot(table.adapter, table.game)
    other = table.copy()
    other.apply({"type": "move", "seat": other.to_move, "ply": 0, "move": other.bot_move()})
    other.apply({"type": "leave", "seat": 0})
    other.settings["bots"] = "hard"
    assert table.moves == [] and table.seats[0] == {"pid": "a", "name": "Ann",
                                                    "token_hash": "h"}
    assert snapshot(table.adapter, table.game) == view and table.bot_level == "medium"
    assert other.ply == 1 and other.is_bot(0)


def test_a_class_copy_shares_nothing_that_changes() -> None:
    c = ClassState("K3M9T", {"seed": 2})
    c.apply({"type": "join", "pid": "p1", "name": "Ann", "token_hash": "h"})
    other = c.copy()
    other.apply({"type": "call", "card": 7})
    other.apply({"type": "place", "pid": "p1", "index": 0, "cell": 3})
    other.settings["seed"] = 9
    assert c.calls == [] and c.students["p1"].cells == [] and c.students["p1"].grid[3] is None
    assert c.settings == {"seed": 2}


@pytest.mark.parametrize("state", ["class", *NAMES])
def test_fold_skips_refused_events_and_raises_anything_else(
        state: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if state == "class":
        folded: ClassState | TableState = ClassState("K3M9T")
        bad = [{"type": "call", "card": 99}, {"type": "nonsense"}, "not a dict"]
    else:
        folded = seated_table(state)
        bad = [{"type": "move", "seat": 0, "ply": 0, "move": "z9-z9 place"},
               {"type": "move", "seat": 0, "ply": 0, "move": "place 9-9-9 x"},
               {"type": "nonsense"}]
    folded.fold([Event(i + 1, data) for i, data in enumerate(bad)])
    assert folded.seq == len(bad)
    kind = type(folded)

    def broken(self: Any, event: Any) -> None:
        raise ZeroDivisionError("a bug, not a refusal")

    monkeypatch.setattr(kind, "apply", broken)
    with pytest.raises(ZeroDivisionError):
        folded.fold([Event(len(bad) + 1, {"type": "start"})])
