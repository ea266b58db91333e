"""What the three game apps share through ``mathgames.core.game_widget.GameApp``, checked on
each of them: undo steps back over the bots' moves to the human's turn, the save's envelope
refuses what is not this game's save (and changes nothing), the new-game question, and
labels that follow the language without undoing the set-up panel's choices."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from mathgames.core.errors import CorruptSaveError
from mathgames.core.game_widget import GameApp
from mathgames.core.i18n import set_language
from mathgames.halma.widget import HalmaApp
from mathgames.matematiko.widget import MatematikoApp
from mathgames.triomino.widget import TriominoApp
from tests.triomino.playing import click_placement


@dataclass
class Case:
    """One game app, started against one bot, and how a human moves in it."""

    make: Callable[[], GameApp]
    human_move: Callable[[Any], None]
    state: Callable[[Any], Any]  # what undo must give back
    nothing_to_undo: str


def _halma_move(app: HalmaApp) -> None:
    move = app.game.legal_moves()[0]
    app.board.click_cell(move.start)
    app.board.click_cell(move.end)


def _matematiko_state(app: MatematikoApp) -> Any:
    match = app.match
    return match.called, [list(match.grid(name)) for name in match.names]


CASES = {
    "halma": Case(lambda: HalmaApp(board="star", seats=["human", "easy"]), _halma_move,
                  lambda app: [str(m) for m in app.game.moves], "There is no move to undo."),
    "matematiko": Case(lambda: MatematikoApp(code="ABC234", bots=("easy",)),
                       lambda app: app.board.click_cell("c3"), _matematiko_state,
                       "Only your placement of the current number can be undone."),
    "triomino": Case(lambda: TriominoApp(seed=3),
                     lambda app: click_placement(app, app.game.legal_placements()[0]),
                     lambda app: app.game.to_json(), "There is nothing to undo."),
}
GAMES = pytest.mark.parametrize("case", list(CASES.values()), ids=list(CASES))


def started(case: Case) -> Any:
    app = case.make()
    app.start_button.click()
    return app


@GAMES
def test_undo_steps_back_over_the_bots_reply_to_the_humans_turn(case: Case) -> None:
    app = started(case)
    before = case.state(app)
    case.human_move(app)
    assert case.state(app) != before
    app.undo_button.click()
    assert case.state(app) == before
    assert json.loads(app.board.storage_value) == json.loads(app.save())  # kept at once


@GAMES
def test_nothing_to_undo_is_refused_in_words(case: Case) -> None:
    app = started(case)
    kept = app.save()
    app.undo()
    assert case.nothing_to_undo in app.message.value and "#b00020" in app.message.value
    assert app.save() == kept


@GAMES
def test_the_save_starts_with_its_envelope_and_comes_back_whole(case: Case) -> None:
    app = started(case)
    case.human_move(app)
    saved = app.save()
    data = json.loads(saved)
    assert next(iter(data)) == app.save_key and data[app.save_key] == app.save_kind
    assert ("version" in data) == (app.save_version is not None)
    other = case.make()
    assert other.save() == ""  # no game yet: nothing to keep
    other.load(saved)
    assert other.save() == saved and case.state(other) == case.state(app)
    assert other.setup.layout.display == "none"


def _not_json(app: GameApp) -> str:
    return "{" + app.save()


def _a_list(app: GameApp) -> str:
    return f"[{app.save()}]"


def _another_kind(app: GameApp) -> str:
    return json.dumps({**json.loads(app.save()), app.save_key: app.save_kind + "-x"})


def _no_kind(app: GameApp) -> str:
    return json.dumps({k: v for k, v in json.loads(app.save()).items() if k != app.save_key})


def _another_games_save(app: GameApp) -> str:
    donor = next(case for case in CASES.values() if type(case.make()) is not type(app))
    return started(donor).save()


@GAMES
@pytest.mark.parametrize("damage", [_not_json, _a_list, _another_kind, _no_kind,
                                    _another_games_save], ids=lambda f: f.__name__.strip("_"))
def test_a_save_in_a_wrong_envelope_is_refused_and_changes_nothing(
        case: Case, damage: Callable[[GameApp], str]) -> None:
    app = started(case)
    case.human_move(app)
    kept, shown = app.save(), case.state(app)
    text = damage(app)
    with pytest.raises(CorruptSaveError):
        app.load(text)
    assert app.save() == kept and case.state(app) == shown


def test_an_unknown_save_version_is_refused() -> None:
    app = started(CASES["halma"])
    data = json.loads(app.save())
    data["version"] = 99
    with pytest.raises(CorruptSaveError, match="unknown save version 99"):
        app.load(json.dumps(data))


@GAMES
def test_a_new_game_asks_first_only_while_a_game_is_under_way(case: Case) -> None:
    app = case.make()
    app.ask_new_game()  # no game: straight to the set-up panel
    assert app.confirm.layout.display == "none" and app.setup.layout.display is None
    app.start_button.click()
    case.human_move(app)
    (getattr(app, "new_button", None) or app.new_game_button).click()
    assert app.confirm.layout.display is None and app.setup.layout.display == "none"
    assert app.board.announce == "Start a new game? This game will be lost."
    app.confirm.no_button.click()
    assert app.confirm.layout.display == "none" and app.setup.layout.display == "none"
    app.ask_new_game()
    app.confirm.yes_button.click()
    assert app.setup.layout.display is None and app._play_box.layout.display == "none"


@GAMES
def test_labels_follow_the_language_and_the_choices_stay(case: Case) -> None:
    app = case.make()
    choices = [c for c in app.setup.children if hasattr(c, "options") and c.options]
    values = [c.value for c in choices]
    previous = set_language("cs")
    try:
        assert not app.relabelling
        app.start_button.click()
        case.human_move(app)
        app.ask_new_game()  # the question comes from the core catalog
        assert "Začít novou hru? Tato hra se ztratí." in app.confirm.text.value
    finally:
        set_language(previous)
    assert [c.value for c in choices] == values and not app.relabelling


def test_a_game_app_that_leaves_out_a_hook_fails_when_it_is_made() -> None:
    """The hooks are abstract: a missing one is found at once, not at its first call."""
    from mathgames.core.game_widget import GameApp

    class Unfinished(GameApp):
        def _game_under_way(self) -> bool:
            return False

    with pytest.raises(TypeError, match="_set_labels"):
        Unfinished()
