"""The rules engine: boards, legal moves, checked moves, the end of the game, text forms."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import pytest

from mathgames.core.errors import CorruptSaveError, IllegalMoveError, InvalidMoveError
from mathgames.halma.bots import GreedyBot, SearchBot
from mathgames.halma.game import PASS, Game, Move
from mathgames.halma.topology import HALMA, STAR

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("halma_reference",
                                               ROOT / "bench" / "halma_reference.py")
reference = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reference)

SETUPS = [("halma", 2), ("halma", 3), ("halma", 4), ("star", 2), ("star", 3), ("star", 4),
          ("star", 6)]


def engine_moves(game: Game) -> dict[tuple[str, str], int]:
    """The engine's legal moves as {(from, to): jumps} (0 for a step)."""
    found = {}
    for move in game.legal_moves():
        a, b = game.topology.index(move.path[0]), game.topology.index(move.path[1])
        steps = len(move.path) - 1
        found[(move.start, move.end)] = 0 if b in game.topology.neighbours[a] else steps
        assert not (steps > 1 and found[(move.start, move.end)] == 0)
    return found


# -- boards -----------------------------------------------------------------------------------

def test_board_sizes_and_row_lengths():
    assert HALMA.size == 16 * 16
    assert STAR.size == 61 + 6 * 10
    rows = {}
    for name in STAR.names:
        rows[int(name[1:])] = rows.get(int(name[1:]), 0) + 1
    assert [rows[r] for r in range(1, 18)] == [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13,
                                               4, 3, 2, 1]


@pytest.mark.parametrize("topo", [HALMA, STAR], ids=["halma", "star"])
def test_neighbours_are_exactly_the_cells_at_distance_one(topo):
    for c in range(topo.size):
        x, y = topo.positions[c]
        near = {d for d in range(topo.size) if d != c and math.isclose(
            math.hypot(topo.positions[d][0] - x, topo.positions[d][1] - y), 1.0, abs_tol=1e-6)}
        if topo is HALMA:  # diagonal neighbours are sqrt 2 away on the square board
            near |= {d for d in range(topo.size) if math.isclose(
                math.hypot(topo.positions[d][0] - x, topo.positions[d][1] - y), math.sqrt(2),
                abs_tol=1e-6)}
        assert set(topo.neighbours[c]) == near, topo.names[c]


def test_degrees():
    degrees = sorted(len(n) for n in HALMA.neighbours)
    assert degrees.count(3) == 4 and degrees.count(5) == 4 * 14 and degrees.count(8) == 14 * 14
    assert max(len(n) for n in STAR.neighbours) == 6
    assert len(STAR.neighbours[STAR.index("a1")]) == 2  # a tip


def test_jumps_go_straight_over_a_neighbour():
    for topo in (HALMA, STAR):
        for c in range(topo.size):
            for over, land in topo.jumps[c]:
                (x0, y0), (x1, y1), (x2, y2) = (topo.positions[i] for i in (c, over, land))
                assert over in topo.neighbours[c] and land in topo.neighbours[over]
                assert math.isclose(x1 - x0, x2 - x1, abs_tol=1e-6)
                assert math.isclose(y1 - y0, y2 - y1, abs_tol=1e-6)


def test_names_round_trip_and_halma_names():
    for topo in (HALMA, STAR):
        assert len(set(topo.names)) == topo.size
        assert all(topo.index(topo.name(c)) == c for c in range(topo.size))
    assert HALMA.position("a1") == (0.0, 0.0) and HALMA.position("p16") == (15.0, 15.0)
    assert HALMA.position("b1") == (1.0, 0.0)
    assert STAR.position("e9") == (0.0, 0.0)
    with pytest.raises(InvalidMoveError, match="z9"):
        STAR.index("z9")


def test_camps():
    for topo, size in ((HALMA, 19), (HALMA, 13), (STAR, 10)):
        camps = [topo.camp(c, size) for c in topo.corners]
        assert all(len(c) == size for c in camps)
        assert len(set().union(*camps)) == size * len(camps)  # disjoint
    # the 19-cell camp: rows 5, 5, 4, 3, 2 from the corner
    sw = HALMA.camp("SW", 19)
    assert [sum(1 for c in sw if HALMA.coords[c][1] == r) for r in range(6)] == [5, 5, 4, 3, 2, 0]
    assert [sum(1 for c in HALMA.camp("NE", 13) if HALMA.coords[c][1] == 15 - r)
            for r in range(5)] == [4, 4, 3, 2, 0]
    # opposite camps are point reflections of each other through the centre
    for topo, size in ((HALMA, 19), (STAR, 10)):
        for corner in topo.corners:
            here = {topo.positions[c] for c in topo.camp(corner, size)}
            there = {topo.positions[c] for c in topo.camp(topo.opposite(corner), size)}
            cx, cy = (7.5, 7.5) if topo is HALMA else (0.0, 0.0)
            assert {(round(2 * cx - x, 6), round(2 * cy - y, 6)) for x, y in here} == {
                (round(x, 6), round(y, 6)) for x, y in there}


# -- legal moves ------------------------------------------------------------------------------

def test_star_opening_has_fourteen_moves():
    # 4 front pieces x 2 steps forward, and 3 second-row pieces x 2 jumps over them
    game = Game("star", 2)
    moves = engine_moves(game)
    assert len(moves) == 14
    assert sorted(moves.values()) == [0] * 8 + [1] * 6


@pytest.mark.parametrize(("board", "players"), SETUPS)
def test_start_positions_match_the_reference(board, players):
    game = Game(board, players)
    for _ in range(players):
        assert engine_moves(game) == reference.reference_moves_of_game(game)
        game.play(game.legal_moves()[0])


def test_long_chain_takes_a_shortest_path():
    game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "d4", "f6", "h8", "i10", "b1"]})
    moves = game.moves_from("a1")
    assert "b1" not in moves and "b2" not in moves  # taken
    assert str(moves["i11"]) == "a1-c3-e5-g7-i9-i11"
    assert str(moves["c1"]) == "a1-c1"
    assert engine_moves(game) == reference.reference_moves_of_game(game)
    game.play("a1-c3-e5")
    assert game.owner("e5") == 0 and game.owner("a1") is None


def test_chain_with_a_cycle_lists_each_destination_once_and_never_the_start():
    # pieces on b2, b4, d2, d4 around c3: a piece on a1 can go round in a loop
    game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2", "b4", "d4", "d2", "a2"]})
    moves = [str(m) for m in game.legal_moves()]
    ends = [m.split("-")[-1] for m in moves]
    assert len(ends) == len(set(ends))
    assert "a1" not in ends
    with pytest.raises(IllegalMoveError, match="twice"):
        game.play("a1-c3-a5-c3")
    with pytest.raises(IllegalMoveError, match="twice"):
        game.play("a1-c3-e1-e3-a1")  # not even back to the start
    assert engine_moves(game) == reference.reference_moves_of_game(game)


def test_goal_lock():
    # player 0 (target NE) has a piece in its target; jumps out of it are not allowed
    game = Game.custom("halma", 2, {0: ["l16", "a1"], 1: ["k15", "m15", "a3"]})
    ends = {m.end for m in game.legal_moves() if m.start == "l16"}
    assert "j14" not in ends  # over k15, outside the camp
    assert "n14" in ends  # over m15, inside the camp
    assert all(game.target_masks[0][game.topology.index(e)] for e in ends)
    with pytest.raises(IllegalMoveError, match="target camp"):
        game.play("l16-j14")
    # a piece outside may pass through the target and leave it again within a chain
    game2 = Game.custom("halma", 2, {0: ["j16"], 1: ["k16", "l15", "a3"]})
    assert str(game2.moves_from("j16")["l14"]) == "j16-l16-l14"
    assert engine_moves(game2) == reference.reference_moves_of_game(game2)


def test_blocked_piece_in_target_and_pass():
    # the piece on p16 is locked in its camp and every camp cell around it is taken
    game = Game.custom("halma", 2, {0: ["p16", "o16", "o15", "p15", "n16", "n14", "p14"],
                                    1: ["a1"]})
    assert game.moves_from("p16") == {}
    assert engine_moves(game) == reference.reference_moves_of_game(game)
    stuck = Game.custom("halma", 2, {0: ["p16"], 1: ["o16", "o15", "p15", "n16", "n14", "p14"]})
    assert stuck.legal_moves() == [PASS]
    stuck.play("pass")
    assert stuck.to_move == 1
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        Game("star", 2).play("pass")


def test_illegal_moves_say_why_and_change_nothing():
    game = Game("halma", 2)
    before = game.position_text()
    cases = {
        "a1-b2": "taken",
        "f1-g1": "empty",
        "p16-o16": "player 1",
        "e1-g3": "no piece to jump",
        "e1-e4": "neither a step nor a jump",
        "d2-d4-d6": "d4-d6",
    }
    for text, why in cases.items():
        with pytest.raises(IllegalMoveError, match=why):
            game.play(text)
        assert game.position_text() == before
    for text in ("a1", "a1-zz9", "a1-q1", 42):
        with pytest.raises(InvalidMoveError):
            game.play(text)
        assert game.position_text() == before


# -- end of game ------------------------------------------------------------------------------

NORTH = ["a14", "b14", "c14", "d14", "a15", "b15", "c15", "a16", "b16", "a17"]
SOUTH = ["a1", "a2", "b2", "a3", "b3", "c3", "a4", "b4", "c4", "d4"]


def almost_home():
    # each player needs one step: player 0 h13-d14, player 1 h5-d4
    return Game.custom("star", 2, {0: [*NORTH[:3], "h13", *NORTH[4:]],
                                   1: [*SOUTH[:9], "h5"]})


def test_win_waits_for_the_round_and_same_round_finishers_share():
    game = almost_home()
    game.play("h13-d14")
    assert 0 in game.finished and not game.is_over()  # player 1 still plays this round
    game.play("h5-d4")
    result = game.result()
    assert result.over and result.reason == "shared" and result.winners == (0, 1)
    assert result.placings == (1, 1)
    with pytest.raises(IllegalMoveError, match="over"):
        game.play("d14-h13")
    game.undo()
    game.play("h5-g5")
    assert game.result().winners == (0,) and game.result().placings == (1, 2)


def test_last_player_of_the_round_wins_at_once():
    game = almost_home()
    game.play("h13-h12")  # player 0 moves away
    game.play("h5-d4")
    assert game.is_over() and game.result().winners == (1,)


def test_fill_rule():
    # three of player 1's pieces stay in player 0's target (NE); player 0 fills the rest
    ne = sorted(HALMA.camp("NE", 19), key=lambda c: HALMA.names[c])
    names = [HALMA.names[c] for c in ne]
    blockers = ["p16", "o16", "p15"]
    others = [n for n in names if n not in blockers]
    free, step = "l16", "k16"  # the free cell at the camp's edge; a cell next to it
    others.remove(free)
    placement = {0: [*others, step, "a8", "a9", "a10"], 1: [*blockers, "h1", "h3"]}
    game = Game.custom("halma", 2, placement, fill_rule="literal")
    assert not game.finished
    game.play(f"{step}-{free}")
    assert game.finished == {0: 0}
    game.play("h1-h2")
    assert game.result().winners == (0,) and game.result().reason == "win"
    # by default the blockers, which have not had a turn yet, do not end the game
    game = Game.custom("halma", 2, placement)
    game.play(f"{step}-{free}")
    assert not game.finished and game.stayed("p16") == 0 < game.fill_bound


def test_a_full_camp_without_own_pieces_is_no_win():
    game = Game("halma", 2)  # player 1's pieces fill player 0's target at the start
    game.play("e2-f3")
    assert not game.finished


def test_move_limit_draw_and_placings():
    game = Game("star", 3, move_limit=5)
    bot = GreedyBot(seed=3)
    while not game.is_over():
        game.play(bot.choose(game))
    result = game.result()
    assert game.ply == 5 and result.reason == "move_limit" and result.winners == ()
    assert sorted(result.placings)[0] == 1 and len(result.placings) == 3


def test_undo_restores_everything():
    game = almost_home()
    texts = [game.position_text()]
    for move in ("h13-d14", "h5-d4"):
        game.play(move)
        texts.append(game.position_text())
    for expected in reversed(texts[:-1]):
        game.undo()
        assert game.position_text() == expected
        assert not game.is_over()
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        game.undo()


# -- text forms -------------------------------------------------------------------------------

def test_move_text_round_trip():
    for text in ("a1-b2", "a1-c3-e5", "p16-n14", "pass"):
        assert str(Move.parse(text)) == text
        assert Move.parse(text) == eval(repr(Move.parse(text)))
    assert Move.parse(" A1 - C3 ") == Move(("a1", "c3"))
    for bad in ("", "a1", "a1-", "1a-b2", "a1-b2-", "abc-def"):
        with pytest.raises(InvalidMoveError):
            Move.parse(bad)


def test_position_text_round_trip_and_corruption():
    game = Game("halma", 3, move_limit=300)
    bot = GreedyBot(seed=1)
    for _ in range(20):
        game.play(bot.choose(game))
    text = game.position_text()
    copy = Game.from_position_text(text)
    assert copy.position_text() == text
    assert sorted(map(str, copy.legal_moves())) == sorted(map(str, game.legal_moves()))
    bad_cases = [
        text.replace("board: halma", "board: chess"),
        text.replace("to move: ", "to move: 9"),
        text.replace("player 1: ", "player 1: a1 "),  # a1 is also someone else's? or extra
        text.replace("player 2: ", "player 2: zz99 "),
        text + "\nplayer 7: a1",
        "\n".join(line for line in text.splitlines() if not line.startswith("player 0")),
        "nonsense",
        text.replace("moves made: 20", "moves made: many"),
    ]
    for bad in bad_cases:
        with pytest.raises(CorruptSaveError):
            Game.from_position_text(bad)


def test_a_full_scripted_game_replays_from_its_text():
    game = Game("star", 2, move_limit=500)
    bots = [SearchBot(time_budget=0.01, seed=1), GreedyBot(seed=2)]
    while not game.is_over():
        game.push_unchecked(*bots[game.to_move].choose_pair(game))
    script = [str(m) for m in game.moves]
    again = Game("star", 2, move_limit=500)
    for text in script:
        again.play(text)
    assert again.position_text() == game.position_text()
    assert again.result() == game.result() and again.result().reason in ("win", "shared")
    winner = again.result().winners[0]
    at = again.finished[winner]  # the winner's target was full (with its pieces) after that move
    check = Game("star", 2)
    for text in script[: at + 1]:
        check.play(text)
    target = check.targets[winner]
    assert all(check.occ[c] for c in target)
    assert any(check.occ[c] == winner + 1 for c in target)
