"""The fill rule (issue 57): bounded by default, the rule sheet's literal reading and the
swap rule as options; seeded bot games end as the documented rule says."""

from __future__ import annotations

import json

import pytest

from mathgames.core.errors import CorruptSaveError, IllegalMoveError, SetupError
from mathgames.core.levels import TickingClock
from mathgames.halma.bots import LEVELS, RandomBot
from mathgames.halma.game import DEFAULT_FILL_RULE, FILL_RULES, TURNS_PER_PIECE, Game

NORTH = ["a14", "b14", "c14", "d14", "a15", "b15", "c15", "a16", "b16", "a17"]
SOUTH = ["a1", "a2", "b2", "a3", "b3", "c3", "a4", "b4", "c4", "d4"]


def test_the_choices_and_the_bound():
    assert DEFAULT_FILL_RULE == "bounded" and FILL_RULES == ("bounded", "literal", "swap")
    assert Game("star", 6).fill_bound == TURNS_PER_PIECE * 10 == 30
    assert Game("halma", 2).fill_bound == 57 and Game("halma", 4).fill_bound == 39
    for bad in ("Bounded", "", None, 1, ["literal"]):
        with pytest.raises(SetupError, match="fill rule"):
            Game("star", 2, fill_rule=bad)


# -- the position of the issue -----------------------------------------------------------------
def _random_game(rule: str, plies: int) -> Game:
    """The 6-player random game of the issue (RandomBot seed 683), ``plies`` plies on."""
    game = Game("star", 6, fill_rule=rule)
    bot = RandomBot(seed=683)
    for _ in range(plies):
        game.play(bot.choose(game))
    return game


def test_one_piece_in_and_the_blocker_never_left_is_a_win_only_under_the_literal_rule():
    literal = _random_game("literal", 91)  # player 0's move at ply 90 filled the camp
    assert literal.finished == {0: 90} and literal.pieces_home(0) == 1
    camp = literal.targets[0]
    blockers = [c for c in camp if literal.occ[c] == 4]  # player 3's start camp
    # nine of player 3's pieces are still at home (some moved inside it) after 15 turns
    assert len(blockers) == 9 and literal.turns_taken(3) == 15
    assert max(literal.stayed(c) for c in blockers) == 15 < literal.fill_bound
    while not literal.is_over():  # the round ends
        literal.play(literal.legal_moves()[0])
    assert literal.result().winners == (0,) and literal.ply == 96

    default = _random_game(DEFAULT_FILL_RULE, 91)
    assert default.occ == literal_position().occ  # the same position...
    assert not default.finished and not default.camp_filled(0)  # ...but no win
    bot = RandomBot(seed=683)  # and the game goes on past the literal rule's end
    game = Game("star", 6)
    for _ in range(150):
        game.play(bot.choose(game))
    assert not game.is_over() and game.ply == 150


def literal_position() -> Game:
    return _random_game("literal", 91)


# -- a hand-built spoiler ----------------------------------------------------------------------
def _spoiler(moves_made: int, rule: str = "bounded") -> Game:
    """Player 1 left a17 in player 0's target camp; player 0 fills the rest with h13-d14."""
    mine = [c for c in NORTH if c not in ("d14", "a17")]
    return Game.from_position_text("\n".join([
        "board: star", "players: 2", "pieces: 10", "move limit: none", f"fill rule: {rule}",
        "to move: 0", f"moves made: {moves_made}", "finished: none",
        f"player 0: {' '.join([*mine, 'h13', 'h9'])}",
        f"player 1: {' '.join(['a17', *SOUTH[:9]])}"]))


def test_a_spoiler_who_stayed_for_the_bound_loses_to_the_fill_rule():
    game = _spoiler(60)  # player 1 has had 30 turns; a17 never moved
    assert game.stayed("a17") == 30 == game.fill_bound
    game.play("h13-d14")
    assert game.finished == {0: 60} and game.pieces_home(0) == 9
    game.play(game.legal_moves()[0])
    assert game.result().winners == (0,) and game.result().reason == "win"


def test_one_turn_short_of_the_bound_is_no_win_yet_and_the_literal_rule_does_not_wait():
    game = _spoiler(58)
    assert game.stayed("a17") == 29
    game.play("h13-d14")
    assert not game.finished and not game.camp_filled(0)
    literal = _spoiler(0, "literal")
    literal.play("h13-d14")
    assert literal.finished == {0: 0}


def test_a_piece_that_just_arrived_does_not_block_however_long_its_owner_played():
    # player 1 (50 turns played) steps e13-a14 into player 0's target; player 0 fills the
    # last place with i13-d14: no win until a14 has stood there for 30 of player 1's turns
    inside = ["b14", "c14", "a15", "b15", "c15", "a16", "b16", "a17"]
    game = Game.from_position_text("\n".join([
        "board: star", "players: 2", "pieces: 10", "move limit: none", "fill rule: bounded",
        "to move: 1", "moves made: 101", "finished: none",
        f"player 0: {' '.join([*inside, 'i13', 'h9'])}",
        f"player 1: {' '.join(['e13', *SOUTH[:9]])}"]))
    game.play("e13-a14")
    assert game.stayed("a14") == 0 and game.turns_taken(1) == 51
    game.play("i13-d14")
    assert not game.finished
    there = next(m for m in game.legal_moves() if m.start in SOUTH and len(m.path) == 2)
    back = f"{there.end}-{there.start}"
    shuttle = {0: ["h9-h10", "h10-h9"], 1: [str(there), back]}
    while not game.finished:
        p = game.to_move
        waited = game.stayed("a14")
        game.play(shuttle[p][0])
        shuttle[p].reverse()
        if game.finished:
            assert p == 0 and waited == game.stayed("a14") == game.fill_bound
    assert game.pieces_home(0) == 9


# -- the swap rule -----------------------------------------------------------------------------
def test_the_swap_rule_exchanges_a_blocker_and_never_ends_a_game_by_filling():
    mine = [c for c in NORTH if c not in ("d14", "a17")]
    placement = {0: [*mine, "h13", "h9"], 1: ["d14", *SOUTH[:9]]}
    plain = Game.custom("star", 2, placement)
    with pytest.raises(IllegalMoveError, match="d14 is taken"):
        plain.play("h13-d14")
    game = Game.custom("star", 2, placement, fill_rule="swap")
    topo = game.topology
    assert "h13-d14" in [str(m) for m in game.legal_moves()]
    assert (topo.index("h13"), topo.index("d14")) in game.pair_moves()
    before = game.position_text()
    game.play("h13-d14")
    assert game.owner("d14") == 0 and game.owner("h13") == 1
    assert sorted(game.pieces_of(1)) == sorted(["h13", *SOUTH[:9]])
    assert not game.finished  # a17 is still free
    game.undo()
    assert game.position_text() == before
    game.push_unchecked(topo.index("h13"), topo.index("d14"))  # the bots' way
    assert game.owner("h13") == 1 and game.last_move() is not None
    # from inside the camp there is no swap, and a full camp with a blocker is no win
    inside = Game.custom("star", 2, {0: [*NORTH[:9], "h9"], 1: ["a17", *SOUTH[:9]]},
                         fill_rule="swap")
    assert not [m for m in inside.legal_moves() if m.end == "a17"]
    inside.play("h9-h10")
    assert not inside.finished and not inside.camp_filled(0)


def test_a_bot_plays_the_swap_rule():
    mine = [c for c in NORTH if c not in ("d14", "a17")]
    game = Game.custom("star", 2, {0: [*mine, "h13", "a17"], 1: ["d14", *SOUTH[:9]]},
                       fill_rule="swap")
    bot = LEVELS["hard"].make(1, TickingClock(0.001))
    pair = bot.choose_pair(game)
    assert pair == (game.topology.index("h13"), game.topology.index("d14"))  # it wins so
    game.push_unchecked(*pair)
    assert game.finished == {0: 0}


# -- saves -------------------------------------------------------------------------------------
def test_position_texts_carry_the_rule_and_old_ones_read_as_literal():
    game = Game("star", 3, fill_rule="swap")
    assert "fill rule: swap" in game.position_text()
    assert Game.from_position_text(game.position_text()).fill_rule == "swap"
    old = "\n".join(line for line in Game("star", 3).position_text().splitlines()
                    if not line.startswith("fill rule"))
    assert Game.from_position_text(old).fill_rule == "literal"
    bad = game.position_text().replace("fill rule: swap", "fill rule: sometimes")
    with pytest.raises(CorruptSaveError, match="line 5: unknown fill rule 'sometimes'"):
        Game.from_position_text(bad)


def test_app_saves_keep_the_rule_old_saves_replay_under_the_literal_rule():
    from mathgames.halma.widget import HalmaApp

    app = HalmaApp(board="star", players=6, seats=["human"] * 6)
    app.start_button.click()
    assert app.game.fill_rule == DEFAULT_FILL_RULE
    literal = _random_game("literal", 96)  # the game, over under the literal rule
    data = json.loads(app.save())
    assert data["fill_rule"] == "bounded"
    data["moves"] = [str(m) for m in literal.moves]
    app.load(json.dumps(data))
    assert not app.game.is_over() and app.game.ply == 96  # the default plays on
    del data["fill_rule"]  # a save from before the choice ends as it did
    app.load(json.dumps(data))
    assert app.game.fill_rule == "literal" and app.game.result().winners == (0,)
    before = app.save()
    data["fill_rule"] = "fast"
    with pytest.raises(CorruptSaveError, match="unknown fill rule 'fast'"):
        app.load(json.dumps(data))
    assert app.save() == before
    with pytest.raises(SetupError, match="fill rule"):
        HalmaApp(board="star", fill_rule="strict")


def test_the_rules_panel_describes_the_rule_in_play():
    from mathgames.halma.widget import HalmaApp

    assert "for 30 of its player&#x27;s turns" in HalmaApp(board="star")._howto_html()
    assert "Parlett" in HalmaApp(board="star", fill_rule="literal")._howto_html()
    assert "change places" in HalmaApp(board="halma", fill_rule="swap")._howto_html()
    assert "for 57 of its player&#x27;s turns" in HalmaApp(board="halma")._howto_html()


def test_class_tables_replay_old_tables_under_the_literal_rule():
    from mathgames.classroom.table_state import new_table_game

    assert new_table_game({"game": "star", "seats": 6}).fill_rule == "literal"
    assert new_table_game({"game": "star", "seats": 6, "fill_rule": "bounded"}).fill_rule == (
        "bounded")
    with pytest.raises(SetupError, match="fill rule"):
        new_table_game({"game": "halma", "seats": 2, "fill_rule": 3})


# -- seeded bot games to the end ---------------------------------------------------------------
def _ending(game: Game, arrived: dict[int, int], p: int) -> str | None:
    """How the rule sheet with the documented bound ends ``p``'s turn, worked out here from
    the definition: "all home", "fill" or None (not finished)."""
    camp = game.targets[p]
    if all(c in camp for c in game.cells[p]):
        return "all home"
    if not all(game.occ[c] for c in camp) or not any(game.occ[c] == p + 1 for c in camp):
        return None
    if game.fill_rule == "literal":
        return "fill"
    n = game.players
    for c in camp:
        q = game.occ[c] - 1
        if q == p or q in game.finished:
            continue
        # q's turns since the piece arrived: the plies t >= arrived with t % n == q
        turns = sum(1 for t in range(arrived.get(c, 0), game.ply) if t % n == q)
        if turns < game.fill_bound:
            return None
    return "fill"


@pytest.mark.parametrize("rule", ["bounded", "literal"])
@pytest.mark.parametrize(("level", "players", "seeds"), [
    ("easy", 6, range(3)), ("easy", 3, range(2)), ("medium", 6, range(1)),
    ("medium", 3, range(1))])
def test_seeded_bot_games_end_as_the_documented_rule_says(rule, level, players, seeds):
    endings = []
    for seed in seeds:
        game = Game("star", players, move_limit=3000, fill_rule=rule)
        bots = [LEVELS[level].make(seed * 10 + p, TickingClock(0.002)) for p in range(players)]
        arrived: dict[int, int] = {}
        while not game.is_over():
            p = game.to_move
            pair = bots[p].choose_pair(game)
            if pair is None:
                game.play("pass")
            else:
                game.push_unchecked(*pair)
                arrived[pair[1]] = game.ply
            expected = None if p in game.finished and game.finished[p] < game.ply - 1 else (
                _ending(game, arrived, p))
            if p not in game.finished or game.finished[p] == game.ply - 1:
                assert (p in game.finished) == (expected is not None), (seed, game.ply)
            if expected is not None and game.finished.get(p) == game.ply - 1:
                endings.append((expected, game.pieces_home(p)))
        result = game.result()
        assert result.reason in ("win", "shared") and game.ply < 3000
        assert sorted(result.winners) == sorted(game.finished)
    kinds = {kind for kind, _home in endings}
    assert kinds <= {"all home", "fill"} and endings
    if rule == "bounded":
        # a fill win needs every foreign piece to have stood for the bound: 30 turns a player
        assert all(home >= 10 or kind == "fill" for kind, home in endings)
