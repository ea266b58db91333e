"""The app driven from Python, as a browser would drive it."""

from __future__ import annotations

import base64
import csv
import io
import json
import re

import pytest

from mathgames.core.errors import CorruptSaveError
from mathgames.core.i18n import set_language
from mathgames.matematiko.bots import LEVELS, play_deal
from mathgames.matematiko.deck import deal_for_code
from mathgames.matematiko.match import cell_name
from mathgames.matematiko.rules import score_grid
from mathgames.matematiko.widget import MatematikoApp

CODE = "W1DGET".replace("1", "2")


def _shown_total(app: MatematikoApp) -> int:
    return int(re.search(r'mg-total-value">(\d+)<', app.total.value).group(1))


def _rows(cells):
    return [list(cells[r * 5:r * 5 + 5]) for r in range(5)]


def test_a_solitaire_game_played_by_clicks_shows_the_cores_total():
    app = MatematikoApp(code=CODE, bots=("strong",))
    app.start_button.click()
    deal = deal_for_code(CODE)
    assert app.match.code == CODE and app.match.current == deal[0]
    assert f'>{deal[0]}</text>' in app.board.svg
    order = [(k * 7) % 25 for k in range(25)]  # a fixed but scrambled order of cells
    for k, index in enumerate(order):
        assert app.match.current == deal[k]
        app.board.click_cell(cell_name(index))
    assert app.match.is_over
    grid = [None] * 25
    for k, index in enumerate(order):
        grid[index] = deal[k]
    expected = score_grid(_rows(grid)).total
    assert _shown_total(app) == expected
    assert f'data-total="{expected}"' in app.board.svg
    # after the game: every bot's score on the same numbers, and the CSV
    hard = LEVELS["hard"].make(clock=lambda: 0.0)  # a frozen clock: never cut short
    strong = score_grid(_rows(play_deal(hard, deal))).total
    assert app.bot_scores()["hard"] == strong
    assert set(app.bot_scores()) == set(LEVELS)
    assert "mg-bot-scores" in app.results.value
    table = list(csv.reader(io.StringIO(app.to_csv())))
    assert table[0][1] == CODE
    totals = {row[1]: int(row[-1]) for row in table[2:]}
    assert totals["Player 1"] == expected and totals["hard bot"] == strong
    link = re.search(r'href="data:text/csv;base64,([^"]+)"', app.csv_link.value).group(1)
    assert base64.b64decode(link).decode("utf-8") == app.to_csv()


def test_refused_clicks_say_why_and_change_nothing():
    app = MatematikoApp(code=CODE)
    app.start_button.click()
    app.board.click_cell("a1")
    before = app.save()
    app.board.click_cell("a1")
    assert "a1" in app.message.value and "taken" in app.message.value
    assert app.save() == before


def test_a_class_game_with_a_caller_two_players_and_a_bot():
    app = MatematikoApp(code=CODE, mode="class", names=["Ann", "Ben"], bots=("greedy",))
    app.start_button.click()
    assert app.match.names == ["Ann", "Ben", "medium bot"] and app.match.called == 0
    app.board.click_cell("a1")
    assert "No number" in app.message.value
    app.call_button.click()
    assert app.match.grid("medium bot").count(None) == 24  # the bot placed at once
    assert app.viewing == "Ann"
    app.call_button.click()
    assert "Ann, Ben" in app.message.value and app.match.called == 1
    app.board.click_cell("b2")
    assert app.viewing == "Ben"            # the next player who has to place
    app.board.click_cell("c3")
    app.player_select.value = "Ann"
    app.undo_button.click()
    assert app.match.grid("Ann")[6] is None
    app.board.press_key("ArrowRight")
    app.board.press_key("Enter")          # the cursor was on b2 (6); right -> c2 (7)
    assert app.match.grid("Ann")[7] == app.match.current
    app.call_button.click()
    assert app.match.called == 2
    app.undo_button.click()               # Ann has not placed the new number: nothing to undo
    assert "current number" in app.message.value


def test_solitaire_undo_takes_back_the_automatic_call():
    app = MatematikoApp(code=CODE, bots=("random",))
    app.start_button.click()
    app.board.click_cell("e5")
    assert app.match.called == 2
    app.undo_button.click()
    assert app.match.called == 1 and app.match.grid("Player 1")[24] is None
    app.board.click_cell("a5")
    assert app.match.called == 2 and app.match.grid("Player 1")[20] == deal_for_code(CODE)[0]


def test_hints_show_expected_values_in_empty_cells():
    app = MatematikoApp(code=CODE)
    app.start_button.click()
    assert 'class="mg-hint"' not in app.board.svg
    app.board.press_key("h")
    assert app.hint_toggle.value and app.board.svg.count('class="mg-hint"') >= 25 * 2
    assert "mg-best-hint" in app.board.svg


def test_a_bad_code_is_refused_in_the_setup_panel():
    app = MatematikoApp(code="NOPE")
    app.start_button.click()
    assert app.match is None and "6" in app.setup_message.value


def test_save_load_and_the_resume_banner():
    app = MatematikoApp(code=CODE, mode="class", names=["Ann"], bots=("strong",))
    app.start_button.click()
    app.call_button.click()
    app.board.click_cell("c3")
    app.call_button.click()
    saved = app.board.storage_value
    other = MatematikoApp()
    other.board.offer_stored(saved)
    other.banner.resume_button.click()
    assert other.match.to_json() == app.match.to_json() and other.mode == "class"
    before = other.save()
    for bad in ["{", '{"app": "matematiko", "mode": "class", "match": {}}', saved[:-20]]:
        with pytest.raises(CorruptSaveError):
            other.load(bad)
        assert other.save() == before


def test_labels_follow_the_language():
    app = MatematikoApp()
    previous = set_language("pl")
    try:
        assert app.start_button.description not in ("", "Start")
        assert app.call_button.description != "Call next number"
    finally:
        set_language(previous)
    assert app.start_button.description == "Start"


def test_loading_lets_bots_catch_up_and_refuses_unknown_bots():
    from mathgames.matematiko.match import Match, Player

    match = Match(["Ann", Player("strong bot", "strong")], code=CODE)
    match.call_next()
    match.place("Ann", "a1")  # the bot has not placed the first number yet
    app = MatematikoApp()
    app.load(json.dumps({"app": "matematiko", "mode": "class", "match": match.to_dict()}))
    assert app.match.has_placed("strong bot") and app.match.called == 1
    odd = Match(["Ann", Player("Hal", "hal9000")], code=CODE)
    before = app.save()
    with pytest.raises(CorruptSaveError, match="unknown bot"):
        app.load(json.dumps({"app": "matematiko", "mode": "class", "match": odd.to_dict()}))
    assert app.save() == before


def test_the_names_field_has_one_line_alone_and_four_for_a_class():
    app = MatematikoApp(mode="solitaire")
    assert (app.names_input.rows, app.names_input.description) == (1, "Your name")
    app.mode_select.value = "class"
    assert (app.names_input.rows, app.names_input.description) == (
        4, "Players (one name per line)")
    app.mode_select.value = "solitaire"
    assert app.names_input.rows == 1
