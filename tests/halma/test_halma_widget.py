"""The app driven from Python: clicks, keys, buttons, saving, languages."""

from __future__ import annotations

import json

import pytest

from mathgames.core.errors import CorruptSaveError
from mathgames.core.i18n import set_language
from mathgames.halma.solutions import best_crossing
from mathgames.halma.widget import HalmaApp


def started(**options) -> HalmaApp:
    app = HalmaApp(**options)
    app.start_button.click()
    return app


def test_setup_panel_offers_the_right_player_counts():
    halma, star = HalmaApp("halma"), HalmaApp("star")
    assert [v for _l, v in halma.players_select.options] == [2, 3, 4]
    assert [v for _l, v in star.players_select.options] == [2, 3, 4, 6]
    star.players_select.value = 4
    shown = [row.layout.display != "none" for row in star.seat_rows]
    assert shown == [True] * 4 + [False] * 2
    assert halma.game_box.layout.display == "none"


def test_click_a_piece_then_a_destination():
    app = started(board="halma", seats=["human", "greedy"])
    assert app.setup.layout.display == "none"
    app.board.click_cell("d2")
    assert app.selected == "d2" and "f4" not in app.destinations
    assert set(app.destinations) == {m.end for m in app.game.legal_moves() if m.start == "d2"}
    svg = app.board.svg
    assert svg.count('data-hover-for="') == len(app.destinations)
    assert svg.count('class="mg-dest"') == len(app.destinations)
    target = next(iter(app.destinations))
    app.board.click_cell(target)
    assert app.game.owner(target) == 0
    assert app.game.ply == 2 and app.game.to_move == 0  # the bot answered
    assert "Move 3" in app.status.value
    app.undo_button.click()
    assert app.game.ply == 0 and app.game.owner("d2") == 0


def test_refused_clicks_say_what_and_where():
    app = started(board="star", seats=["human", "greedy"])
    app.board.click_cell("e9")
    assert "e9" in app.message.value and "empty" in app.message.value
    app.board.click_cell("a17")
    assert "a17" in app.message.value and "Player 2" in app.message.value
    app.board.click_cell("a1")
    assert "a1" in app.message.value and "cannot move" in app.message.value
    app.board.click_cell("c3")
    app.board.click_cell("e9")
    assert "e9" in app.message.value and "c3" in app.message.value
    assert app.game.ply == 0


def test_a_jump_chain_by_clicks_and_its_path_overlay():
    app = started(board="star", seats=["human", "human"])
    app.board.click_cell("d4")
    app.board.click_cell("i5")  # a step forward
    app.board.click_cell("d14")
    app.board.click_cell("h13")
    # b3 can now jump twice (over c4, then over i5): take a chain of two or more jumps
    app.board.click_cell("b3")
    chains = {d: m for d, m in app.destinations.items() if len(m.path) >= 3}
    assert chains, app.destinations
    dest, move = next(iter(chains.items()))
    overlay = app.board.svg.split(f'data-hover-for="{dest}"')[1].split("</g>")[0]
    assert overlay.count("<circle") == len(move.path) - 1  # one marker per landing
    app.board.click_cell(dest)
    assert app.game.moves[-1] == move and app.game.owner(dest) == 0


def test_keyboard_play():
    app = started(board="halma", seats=["human", "human"])
    app.cursor = "d2"
    app.board.press_key("Enter")
    assert app.selected == "d2"
    app.board.press_key("ArrowRight")
    app.board.press_key("ArrowUp")
    assert app.cursor == "e3"
    assert 'class="mg-focus-path"' in app.board.svg  # the path under the cursor is drawn
    app.board.press_key(" ")
    assert app.game.owner("e3") == 0 and app.game.to_move == 1
    app.board.press_key("Escape")
    app.board.press_key("Backspace")
    assert app.game.ply == 0
    app.board.press_key("ArrowLeft")
    app.board.press_key("ArrowDown")
    assert app.cursor == "d2"


def test_hot_seat_three_players():
    app = started(board="star", players=3, seats=["human"] * 3)
    assert app.game.players == 3
    for p in range(3):
        assert app.game.to_move == p
        move = app.game.legal_moves()[0]
        app.board.click_cell(move.start)
        app.board.click_cell(move.end)
    assert app.game.ply == 3


def test_all_bots_and_the_end_message():
    app = HalmaApp(board="star", seats=["greedy", "greedy"])
    app.start_button.click()
    assert app.game.ply == 0 and app.bot_button.layout.display is None
    for _ in range(600):
        if app.game.is_over():
            break
        app.bot_button.click()
    assert app.game.is_over()
    assert "wins" in app.status.value or "share" in app.status.value
    assert "Place 1" in app.status.value and app.bot_button.layout.display == "none"
    app.board.click_cell("e9")
    assert "over" in app.message.value


def test_puzzle_mode_counts_moves_and_replays_the_solution():
    app = HalmaApp(board="star", mode="puzzle")
    app.start_button.click()
    assert app.game.players == 1
    solution = best_crossing("star")
    for k in range(3):
        app.solution_step_button.click()
        assert [str(m) for m in app.game.moves] == list(solution[: k + 1])
    assert "3 moves" in app.status.value
    app.solution_all_button.click()
    assert app.game.is_over() and "27" in app.status.value
    app.solution_step_button.click()  # starts again from the beginning
    assert app.game.ply == 1


def test_halma_puzzle_offers_both_camps():
    app = HalmaApp(board="halma", mode="puzzle")
    app.pieces_select.value = 13
    app.start_button.click()
    assert app.game.pieces == 13 and len(app.game.cells[0]) == 13
    app.solution_all_button.click()
    assert app.game.is_over()


def test_save_load_and_resume():
    app = started(board="halma", seats=["human", "greedy"])
    app.board.click_cell("d2")
    app.board.click_cell(next(iter(app.destinations)))
    saved = app.board.storage_value
    assert json.loads(saved)["moves"] == [str(m) for m in app.game.moves]
    other = HalmaApp(board="halma")
    other.board.offer_stored(saved)
    assert other.resume.layout.display is None
    other.resume.resume_button.click()
    assert [str(m) for m in other.game.moves] == [str(m) for m in app.game.moves]
    assert other.game_box.layout.display is None
    before = other.save()
    for bad in ("{", "[]", json.dumps({"game": "chess"}),
                saved.replace('"halma", "version": 1', '"halma", "version": 9'),
                saved.replace('"board": "halma"', '"board": "star"'),
                saved.replace('"moves": ["', '"moves": ["a1-a9", "'),
                saved.replace('"seats": ["human"', '"seats": ["alien"')):
        with pytest.raises(CorruptSaveError):
            other.load(bad)
        assert other.save() == before


def test_language_change_relabels():
    app = started(board="star", seats=["human", "greedy"])
    previous = set_language("pl")
    try:
        assert app.undo_button.description == "Cofnij"
        assert "Gracz 1" in app.status.value
    finally:
        set_language(previous)
    assert app.undo_button.description == "Undo"


def test_a_human_who_cannot_move_passes():
    from mathgames.halma.game import Game

    app = started(board="halma", seats=["human", "greedy"])
    stuck = Game.custom("halma", 2, {0: ["p16"], 1: ["o16", "o15", "p15", "n16", "n14", "p14"]})
    app._begin(stuck, ["human", "greedy"])
    app._run_bots()
    assert "passes" in app.message.value and "Player 1" in app.message.value
    assert app.game.moves[0].is_pass
