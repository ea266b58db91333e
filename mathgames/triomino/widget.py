"""The Triomino app for a notebook or Voila: set up a game, then play it.

>>> app = TriominoApp(preset="pressman", players=2, bots=1, bot="medium", seed=3)
>>> app.start_button.click()
>>> game = app.game
>>> placement = game.legal_placements()[0]
>>> app.rack.click_cell(rack_id(placement.tile))
>>> while app.rotation != placement.rotation:
...     app.rotate_button.click()
>>> app.board.click_cell(cell_id(placement.cell))
>>> len(game.table) >= 1 and "tile " in app.sheet.value
True
"""

from __future__ import annotations

import random
import re
from typing import Any

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import CorruptSaveError, MathgamesError
from mathgames.core.game_widget import GameApp, UndoPastBots, relabel_options
from mathgames.core.i18n import LANGUAGES, translator
from mathgames.core.levels import DEFAULT_LEVEL
from mathgames.core.resume_widget import ResumeBanner
from mathgames.core.svg import TEXT_PALETTE, esc
from mathgames.core.ui_widget import (
    HowToPlay,
    by_pointer,
    level_help,
)
from mathgames.core.widget_looks import DescriptionStyle, shared_look
from mathgames.triomino.bots import LEVELS, Bot
from mathgames.triomino.game import Game
from mathgames.triomino.geometry import Cell, cell_id, parse_cell
from mathgames.triomino.keyboard import ARROWS, place_said, step_cursor
from mathgames.triomino.narrate import describe_start, describe_turn, sheet_html, summary_html
from mathgames.triomino.rules import PRESETS, RuleSet
from mathgames.triomino.rules_widget import RulesEditor, howto_html, preset_label
from mathgames.triomino.table import Placement
from mathgames.triomino.tiles import Tile
from mathgames.triomino.view import rack_id, rack_svg, table_svg

__all__ = ["TriominoApp", "rack_id"]

_ = translator("triomino")

STORAGE_KEY = "triomino"
SAVE_FORMAT = "mathgames-triomino-app"
#: At most this many undo states go into a save (a save is sent to the browser each move).
UNDO_SAVED_MAX = 64
ZOOMS = (1.0, 1.5, 2.25, 3.4)

#: Bot kinds of earlier versions (arguments and saves), as levels.
LEGACY_BOTS = {"random": "easy", "greedy": "medium", "planner": "hard"}


def _level(kind: str) -> str:
    return LEGACY_BOTS.get(kind, kind)


def _bot_label(kind: str) -> str:
    labels = {"easy": _("easy bot"), "medium": _("medium bot"), "hard": _("hard bot")}
    return labels[kind]


class TriominoApp(UndoPastBots, GameApp):
    """Set-up panel (rules, players, bots, seed), then the table, the rack and the score sheet.

    Parts for tests and pages: ``board`` (the table), ``rack``, ``start_button``,
    ``rotate_button``, ``hint_button``, ``draw_button``, ``pass_button``,
    ``undo_button``, ``ready_button``, ``next_round_button``, ``new_game_button``,
    ``zoom_in_button``, ``zoom_out_button``, ``status``, ``message``, ``sheet``,
    ``summary``; the game itself is ``game``. The arguments preset the set-up panel
    (``seed=None``: a fresh random deal; the seed is shown, so a game can be replayed).
    The custom rules are the :class:`~mathgames.triomino.rules_widget.RulesEditor`
    ``custom_box`` (its ``base_select``, ``number_inputs``, ``hexagon_inputs``, ... are
    the app's too).
    """

    save_key = "format"
    save_kind = SAVE_FORMAT
    save_refused = "not a saved Triomino game"
    save_compact = True

    def __init__(self, preset: str = "pressman", players: int = 2, bots: int = 1,
                 bot: str = DEFAULT_LEVEL, seed: int | None = None) -> None:
        if seed is None:  # a fresh deal each time; set a seed to replay one
            seed = random.randrange(1, 100_000)
        self.game: Game | None = None
        self.bots: dict[int, Bot] = {}
        self.bot_kinds: dict[int, str] = {}
        self.selected: Tile | None = None
        self.rotation = 0
        self.zoom_level = 0
        self.revealed: int | None = None
        self.recent: list[str] = []
        self.cursor: Cell | None = None
        # -- set-up panel ---------------------------------------------------------
        self.howto = HowToPlay(self._howto_html)
        self.title = w.HTML()
        # the set-up's rows look alike and never change: one layout and style for them
        row_layout, row_style = (shared_look(w.Layout, width="30em"),
                                 shared_look(DescriptionStyle, description_width="9em"))
        self.preset_select = w.Dropdown(options=[], layout=row_layout, style=row_style)
        self.preset_select.add_class("mg-preset")
        self.players_select = w.Dropdown(options=list(range(1, 7)), value=players,
                                         layout=row_layout, style=row_style)
        self.players_select.add_class("mg-players")
        self.bots_select = w.Dropdown(options=list(range(0, 6)), value=bots,
                                      layout=row_layout, style=row_style)
        self.bots_select.add_class("mg-bots")
        self.bot_select = w.Dropdown(options=[], layout=row_layout, style=row_style)
        self.bot_select.add_class("mg-bot-kind")
        self.level_help = w.HTML()
        self.level_help.add_class("mg-level-help")
        self.seed_input = w.IntText(value=seed, layout=row_layout, style=row_style)
        self.seed_input.add_class("mg-seed")
        self.custom_box = RulesEditor()
        self.base_select = self.custom_box.base_select
        self.number_inputs = self.custom_box.number_inputs
        self.hexagon_inputs = self.custom_box.hexagon_inputs
        self.switch_inputs = self.custom_box.switch_inputs
        self.draw_when_select = self.custom_box.draw_when_select
        self.place_drawn_select = self.custom_box.place_drawn_select
        self.start_button = w.Button(button_style="success", icon="play")
        self.start_button.add_class("mg-start")
        self.setup_message = w.HTML()
        self.setup_message.add_class("mg-setup-message")
        self.setup = w.VBox([self.title, self.howto.button, self.preset_select, self.custom_box,
                             self.players_select, self.bots_select, self.bot_select,
                             self.level_help,
                             self.seed_input, self.start_button, self.setup_message])
        self.setup.add_class("mg-setup")
        # -- the game ----------------------------------------------------------------
        self.board = BoardWidget(storage_key=STORAGE_KEY, layout=w.Layout(max_width="900px"))
        self.board.on_cell_click(self._board_clicked)
        self.board.on_key(self._key)
        self.board.add_class("mg-triomino-table")
        self.rack = BoardWidget(layout=w.Layout(max_width="900px"))
        self.rack.on_cell_click(self._rack_clicked)
        self.rack.on_key(self._key)
        self.rack.add_class("mg-triomino-rack")
        self.banner = ResumeBanner(self.board, self.load)
        auto, narrow = shared_look(w.Layout, width="auto"), shared_look(w.Layout, width="3em")
        self.rotate_button = w.Button(icon="repeat", layout=auto)
        self.hint_button = w.ToggleButton(value=False, icon="lightbulb-o", layout=auto)
        self.draw_button = w.Button(icon="download", layout=auto)
        self.pass_button = w.Button(icon="forward", layout=auto)
        self.undo_button = w.Button(icon="undo", layout=auto)
        self.zoom_in_button = w.Button(icon="search-plus", layout=narrow)
        self.zoom_out_button = w.Button(icon="search-minus", layout=narrow)
        self.next_round_button = w.Button(button_style="primary", icon="step-forward",
                                          layout=w.Layout(width="auto"))
        self.new_game_button = w.Button(icon="plus", layout=auto)
        self.ready_button = w.Button(button_style="warning", icon="eye", layout=auto)
        for widget, css in ((self.rotate_button, "mg-rotate"), (self.hint_button, "mg-hint"),
                            (self.draw_button, "mg-draw"), (self.pass_button, "mg-pass"),
                            (self.undo_button, "mg-undo"), (self.zoom_in_button, "mg-zoom-in"),
                            (self.zoom_out_button, "mg-zoom-out"),
                            (self.next_round_button, "mg-next-round"),
                            (self.new_game_button, "mg-new"), (self.ready_button, "mg-ready")):
            widget.add_class(css)
        self.status = w.HTML()
        self.status.add_class("mg-status")
        self.message = w.HTML()
        self.message.add_class("mg-message")
        self.ready_label = w.HTML()
        self.ready_box = w.HBox([self.ready_label, self.ready_button], layout=w.Layout())
        self.ready_box.add_class("mg-ready-box")
        self.sheet = w.HTML()
        self.sheet.add_class("mg-score-sheet")
        self.summary = w.HTML()
        self.summary.add_class("mg-summary")
        self.confirm = self._new_game_confirm()
        self.controls = w.HBox([self.rotate_button, self.hint_button, self.draw_button,
                                self.pass_button, self.undo_button, self.zoom_out_button,
                                self.zoom_in_button, self.new_game_button, self.howto.button],
                               layout=w.Layout(flex_flow="row wrap"))
        self.controls.add_class("mg-controls")
        self.help = w.HTML()
        self.help.add_class("mg-help")
        self.play_area = w.VBox([self.status, self.message, self.confirm, self.board,
                                 self.ready_box, self.rack, self.controls, self.help,
                                 self.summary,
                                 self.next_round_button, self.sheet],
                                layout=w.Layout(display="none"))
        self.play_area.add_class("mg-game")
        # -- events --------------------------------------------------------------------
        self.start_button.on_click(lambda _b: self.start())
        self.rotate_button.on_click(lambda _b: self.rotate())
        self.hint_button.observe(lambda _c: self._refresh(), "value")
        self.draw_button.on_click(lambda _b: self.draw())
        self.pass_button.on_click(lambda _b: self.pass_turn())
        self.undo_button.on_click(lambda _b: self.undo())
        self.zoom_in_button.on_click(lambda _b: self.zoom(+1))
        self.zoom_out_button.on_click(lambda _b: self.zoom(-1))
        self.next_round_button.on_click(lambda _b: self.next_round())
        self.new_game_button.on_click(lambda _b: self.ask_new_game())
        self.ready_button.on_click(lambda _b: self.ready())
        self.preset_select.observe(self._preset_changed, "value")
        self.preset_select.observe(lambda _c: self.howto.refresh(), "value")
        self.players_select.observe(self._players_changed, "value")
        self._mount([self.banner, self.howto, self.setup, self.play_area], self.setup,
                    self.play_area, "mg-triomino")
        self._relabel()
        self.preset_select.value = preset if preset in PRESETS else "pressman"
        self.bot_select.value = _level(bot) if _level(bot) in LEVELS else DEFAULT_LEVEL
        self.custom_box.fill(self.preset_select.value)
        self._players_changed(None)
        self._preset_changed(None)

    # -- labels -----------------------------------------------------------------------
    def _set_labels(self) -> None:
        heading = esc(_("Triomino"))
        intro = esc(_("Place triangular tiles so that every corner meets the same digit."))
        self.title.value = f"<h2 style='margin:0.2em 0'>{heading}</h2><p>{intro}</p>"
        relabel_options(self.preset_select,
                        [(preset_label(n), n) for n in (*PRESETS, "custom")])
        self.preset_select.description = _("Rules")
        self.custom_box.relabel()
        relabel_options(self.bot_select, [(_bot_label(k), k) for k in LEVELS], DEFAULT_LEVEL)
        self.bot_select.description = _("Bot")
        self.level_help.value = level_help(LEVELS, _bot_label)
        self.players_select.description = _("Players")
        self.bots_select.description = _("of them bots")
        self.seed_input.description = _("Seed")
        self.start_button.description = _("Start")
        self.rotate_button.description = _("Rotate (r)")
        self.hint_button.description = _("Show me where it fits")
        self.draw_button.description = _("Draw")
        self.pass_button.description = _("Pass")
        self.undo_button.description = _("Undo")
        self.zoom_in_button.tooltip = _("Zoom in (+)")
        self.zoom_out_button.tooltip = _("Zoom out (-)")
        self.next_round_button.description = _("Next round")
        self.new_game_button.description = _("New game")
        self.ready_button.description = _("Ready")
        self.board.label = _("Triomino table")
        self.rack.label = _("Your tiles")
        mouse = _("Click a tile in your rack, then a dashed place. Keys: 1-9 pick a tile, r "
                  "rotates, arrows or n move the frame, Enter places, d draws, p passes, "
                  "u undoes.")
        touch = _("Tap a tile in your rack, then a dashed place on the table; Rotate turns "
                  "the tile, the magnifier buttons zoom.")
        self.help.value = by_pointer(mouse, touch)

    # -- set-up -------------------------------------------------------------------------
    def _preset_changed(self, _change: Any) -> None:
        if self.relabelling:
            return
        preset = self.preset_select.value
        self.custom_box.layout.display = None if preset == "custom" else "none"
        if preset == "solitaire":
            self.players_select.value = 1
            self.bots_select.value = 0
        elif preset in PRESETS and self.players_select.value == 1:
            self.players_select.value = 2
        if preset in PRESETS:
            self.base_select.value = preset

    def _players_changed(self, _change: Any) -> None:
        players = self.players_select.value
        keep = self.bots_select.value or 0
        self.bots_select.options = list(range(0, players))
        self.bots_select.value = min(keep, players - 1)

    def rules(self) -> RuleSet:
        """The rule set chosen in the set-up panel (ValueError when custom values clash)."""
        preset = self.preset_select.value
        if preset in PRESETS:
            return PRESETS[preset]
        return self.custom_box.rules()

    def _game_under_way(self) -> bool:
        return self.game is not None and self.game.phase != "game_over"

    def _setup_shown(self) -> None:
        self.setup_message.value = ""

    def start(self) -> None:
        """Start a game with the set-up panel's options."""
        try:
            rules = self.rules()
        except ValueError as error:
            self.setup_message.value = self._error(_("These rules do not work: {why}").format(
                why=error))
            return
        players = self.players_select.value
        if not rules.min_players <= players <= rules.max_players:
            self.setup_message.value = self._error(
                _("These rules are for {low}-{high} players.").format(
                    low=rules.min_players, high=rules.max_players))
            return
        count = min(self.bots_select.value or 0, players - 1) if players > 1 else 0
        kind = self.bot_select.value
        humans = players - count
        names = [_("Player {n}").format(n=k + 1) for k in range(humans)]
        names += [_("Bot {n}").format(n=k + 1) for k in range(count)]
        if humans == 1 and players > 1:
            names[0] = _("You")
        game = Game(rules, names, int(self.seed_input.value))
        self._begin(game, {p: kind for p in range(humans, players)})

    def _begin(self, game: Game, bot_kinds: dict[int, str]) -> None:
        self.game = game
        self.bot_kinds = {p: _level(k) for p, k in bot_kinds.items()}
        self.bots = {p: LEVELS[k].make(seed=game.seed + p) for p, k in self.bot_kinds.items()}
        self.selected = None
        self.rotation = 0
        self.zoom_level = 0
        self.revealed = None
        self.recent = [self._describe_start()] if game.is_start_move else []
        self._show_game()
        self.howto.refresh()  # the rules of this game
        self._run_bots()
        self.message.value = "<br>".join(esc(line) for line in self.recent if line)
        self._refresh()

    # -- who is who ---------------------------------------------------------------------
    def name(self, player: int) -> str:
        """A player's name in the current language: the names the app gave ("You",
        "Bot 1", "Player 2") follow a language switch and a resume; others stay.

        >>> from mathgames.core.i18n import set_language
        >>> app = TriominoApp(players=2, bots=1, seed=1); app.start()
        >>> old = set_language("pl"); app.name(0), app.name(1)
        ('Ty', 'Bot 1')
        >>> _ = set_language(old)
        """
        given = self.game.names[player]
        for code in LANGUAGES:
            if given == _.gettext_in(code, "You"):
                return _("You")
            for text in ("Player {n}", "Bot {n}"):
                form = re.escape(_.gettext_in(code, text)).replace(r"\{n\}", r"(\d+)")
                found = re.fullmatch(form, given)
                if found:
                    number = int(found.group(1))
                    return (_("Player {n}").format(n=number) if text == "Player {n}"
                            else _("Bot {n}").format(n=number))
        return given

    def names(self) -> list[str]:
        """Every player's :meth:`name`."""
        return [self.name(p) for p in range(self.game.players)] if self.game else []

    @property
    def humans(self) -> list[int]:
        """The players who are people."""
        return [p for p in range(self.game.players) if p not in self.bots] if self.game else []

    @property
    def hidden(self) -> bool:
        """Whether the current hand is hidden until its player presses Ready (hot-seat)."""
        game = self.game
        return (game is not None and game.phase == "play" and len(self.humans) > 1
                and game.current not in self.bots and self.revealed != game.current)

    def _my_turn(self) -> bool:
        game = self.game
        return (game is not None and game.phase == "play" and game.current not in self.bots
                and not self.hidden)

    # -- actions ------------------------------------------------------------------------
    def ready(self) -> None:
        """The current player is looking: show their hand."""
        if self.game is not None:
            self.revealed = self.game.current
            self._refresh()

    def select(self, tile: Tile | str | None) -> None:
        """Select a tile of the current hand (or none)."""
        if isinstance(tile, str):
            tile = Tile.parse(tile)
        if tile is not None and self.game is not None and tile not in self.game.hands[
                self.game.current]:
            self._say_error(_("{tile} is not in your hand").format(tile=tile))
            return
        if tile != self.selected:
            self.rotation = 0
        self.selected = tile
        self._refresh()

    def rotate(self) -> None:
        """Turn the selected tile a third of a turn clockwise."""
        self.rotation = (self.rotation + 2) % 3
        self._refresh()

    def zoom(self, step: int) -> None:
        """Zoom the table in (+1) or out (-1); fully out shows every tile."""
        self.zoom_level = max(0, min(len(ZOOMS) - 1, self.zoom_level + step))
        self._refresh()

    def place(self, cell: tuple[int, int]) -> None:
        """Place the selected tile, turned as shown, on ``cell``."""
        game = self.game
        if not self._my_turn():
            return
        if self.selected is None:
            self._say_error(_("Select a tile from your rack first."))
            return
        tile = self.selected
        try:
            game.place(tile, cell, self.rotation)
        except MathgamesError as error:
            text = str(error)
            others = [p.rotation for p in game.legal_placements(tile) if p.cell == cell]
            if others:
                text += " " + _("Turned another way, it fits here: press Rotate.")
            self._say_error(text)
            return
        self.recent = [self._describe_turn()]
        self.selected = None
        self.rotation = 0
        self._after_move()

    def draw(self) -> None:
        """Draw a tile from the pool."""
        game = self.game
        if not self._my_turn():
            return
        try:
            tile = game.draw()
        except MathgamesError as error:
            self._say_error(str(error))
            return
        self.selected = tile
        self.rotation = 0
        fits = bool(game.legal_placements(tile))
        text = _("You drew {tile}.").format(tile=tile) + " " + (
            _("It fits: place it now.") if fits else _("It does not fit."))
        self.message.value = f"<span class='mg-info'>{esc(text)}</span>"
        self._refresh()
        self.board.say(text)

    def pass_turn(self) -> None:
        """End the turn without placing."""
        game = self.game
        if not self._my_turn():
            return
        try:
            game.pass_turn()
        except MathgamesError as error:
            self._say_error(str(error))
            return
        self.recent = [self._describe_turn()]
        self.selected = None
        self._after_move()

    def next_round(self) -> None:
        """Deal the next round."""
        if self.game is None or self.game.phase != "round_over":
            return
        self.game.next_round()
        self.recent = [self._describe_start()]
        self.revealed = None
        self._run_bots()
        self.message.value = "<br>".join(esc(line) for line in self.recent if line)
        self._refresh()

    # -- undo (GameApp.undo: your last move, and the bots' moves after it) ---------------
    def _can_undo(self) -> bool:
        return self.game is not None and self.game.can_undo

    def _undo_step(self) -> None:
        self.game.undo()

    def _bot_to_move(self) -> bool:
        return self.game.phase == "play" and self.game.current in self.bots

    def _nothing_to_undo(self) -> str:
        return _("There is nothing to undo.")

    def _undone(self) -> None:
        game = self.game
        self.selected = None
        self.rotation = 0
        self.recent = []
        self.revealed = game.current if len(self.humans) > 1 else None
        self.message.value = esc(_("Move taken back."))
        self._refresh()

    def _after_move(self) -> None:
        game = self.game
        self._run_bots()
        if len(self.humans) > 1 and game.current != self.revealed:
            self.revealed = None
        self.message.value = "<br>".join(esc(line) for line in self.recent if line)
        self._refresh()
        self._announce_recent()

    def _announce_recent(self) -> None:
        """Tell screen readers what just happened, and the result when a round ends."""
        lines = [line for line in self.recent if line]
        game = self.game
        if game.phase != "play" and game.round_ends:
            lines.append(re.sub(r"<[^>]+>", " ", summary_html(game, self.name)).strip())
        elif self._my_turn():
            lines.append(_("{name} to play").format(name=self.name(game.current)))
        self.board.say(" ".join(" ".join(lines).split()))

    def _run_bots(self) -> None:
        game = self.game
        guard = 0
        while game.phase == "play" and game.current in self.bots and guard < 2000:
            player = game.current
            turn = game.turn
            while game.phase == "play" and game.current == player and game.turn == turn:
                game.apply(self.bots[player].choose(game))
            self.recent.append(self._describe_turn(turn))
            guard += 1

    def _describe_start(self) -> str:
        """Who starts the round, and why."""
        return describe_start(self.game, self.name)

    def _describe_turn(self, turn: int | None = None) -> str:
        """What happened in one turn (the latest by default), in words."""
        return describe_turn(self.game, self.name, turn)

    # -- events ----------------------------------------------------------------------------
    def _board_clicked(self, cell: str) -> None:
        try:
            target = parse_cell(cell)
        except MathgamesError:
            return
        if self.hidden:
            self._say_error(_("Press Ready first."))
            return
        self.cursor = target
        self.place(target)

    def _rack_clicked(self, cell: str) -> None:
        if not self._my_turn() or not cell.startswith("t"):
            return
        try:
            tile = Tile.parse(cell[1:])
        except MathgamesError:
            return
        self.select(None if tile == self.selected else tile)

    def _key(self, key: str) -> None:
        game = self.game
        if game is None:
            return
        if key in ("r", "R"):
            self.rotate()
        elif key in ("h", "H"):
            self.hint_button.value = not self.hint_button.value
        elif key == "+":
            self.zoom(+1)
        elif key == "-":
            self.zoom(-1)
        elif key in ("d", "D"):
            self.draw()
        elif key in ("p", "P"):
            self.pass_turn()
        elif key in ("u", "U", "Backspace"):
            self.undo()
        elif key == "Escape":
            self.select(None)
        elif key == "Enter" and self.hidden:
            self.ready()
        elif key in ARROWS:
            self.move_cursor(key)
        elif key in ("n", "N"):
            self.next_place()
        elif key in ("Enter", " "):
            if self.cursor is None:
                self.move_cursor(None)
            if self.cursor is not None:
                self.place(self.cursor)
        elif key.isdigit() and key != "0" and self._my_turn():
            hand = game.hand()
            index = int(key) - 1
            if index < len(hand):
                self.select(hand[index])

    def _targets(self) -> list[Cell]:
        """The places the cursor may stand on: the free cells next to the tiles."""
        game = self.game
        if game is None or not self._my_turn():
            return []
        return sorted(game.table.frontier())  # the middle when the table is empty

    def move_cursor(self, key: str | None) -> None:
        """Move the table's keyboard cursor to the nearest free place in the direction of
        an arrow key (``None``: onto the first place), and say where it stands."""
        targets = self._targets()
        if not targets:
            return
        self.cursor = step_cursor(self.game, targets, self.cursor, key)
        self._say_place(targets)

    def _say_place(self, targets: list[Cell]) -> None:
        """Redraw and tell a screen reader where the cursor stands and whether the
        selected tile fits there."""
        self._refresh()
        self.board.say(place_said(self.game, targets, self.cursor, self.selected,
                                  self.rotation))

    def next_place(self) -> None:
        """Move the cursor to the next free place in order (``n``): every place in turn,
        for a keyboard or a screen reader."""
        targets = self._targets()
        if not targets:
            return
        self.cursor = (step_cursor(self.game, targets, self.cursor, "n")
                       if self.cursor in targets else targets[0])
        self._say_place(targets)

    # -- drawing ----------------------------------------------------------------------------
    @staticmethod
    def _error(text: str) -> str:
        return (f"<span class='mg-error' style='color:#b00020;font-weight:bold;"
                f"font-size:1.15em'>{esc(text)}</span>")

    def _say_error(self, text: str) -> None:
        self.message.value = self._error(text)
        self.board.say(text)

    def _refresh(self) -> None:
        game = self.game
        if game is None:
            return
        self._keep_copy()  # first (see BoardWidget: a reload must find the move kept)
        mine = self._my_turn()
        placements = game.legal_placements() if mine else []  # computed once per refresh
        clickable: set = set()
        hints: dict = {}
        ghost: dict = {}
        if mine:
            clickable = game.table.frontier()  # the middle when the table is empty
            if self.selected is not None:
                digits = self.selected.rotated(self.rotation)
                ghost = {cell: digits for cell in clickable}
                if self.hint_button.value:
                    for p in placements:
                        if p.tile == self.selected:
                            turned = p.tile.rotated(p.rotation) == digits
                            hints[p.cell] = hints.get(p.cell, False) or turned
            elif self.hint_button.value:  # no tile selected: where does anything fit?
                hints = {p.cell: True for p in placements}
        owners = {}
        for item in game.log:
            if item[2] == "place":
                owners[(item[4], item[5])] = item[1]
        last = game.table.order[-1].cell if game.table.order else None
        self.board.svg = table_svg(game.table, clickable=clickable, hints=hints, ghost=ghost,
                                   owners=owners, last=last, zoom=ZOOMS[self.zoom_level],
                                   title=_("Triomino table"),
                                   cursor=self.cursor if self.cursor in clickable else None,
                                   place_label=_("Free place {n} of {total}"))
        # the rack
        player = game.current if game.phase == "play" else (self.humans or [0])[0]
        if game.phase == "play" and game.current in self.bots and self.humans:
            player = self.humans[0]
        hand = game.hand(player)
        playable = None
        if mine:
            playable = ({p.tile for p in placements} if self.hint_button.value
                        else set(game.placeable_tiles()))
        self.rack.svg = rack_svg(hand, selected=self.selected if mine else None,
                                 rotation=self.rotation, hidden=self.hidden,
                                 playable=playable, title=_("Your tiles"),
                                 tile_label=_("Tile {tile}"))
        self.ready_box.layout.display = None if self.hidden else "none"
        self.ready_label.value = esc(_("{name}: press Ready when the others are not looking.")
                                     .format(name=self.name(game.current))) if self.hidden else ""
        self.rack.layout.display = "none" if self.hidden else None
        self.draw_button.disabled = not (mine and game.can_draw())
        self.pass_button.disabled = not (mine and game.can_pass())
        self.rotate_button.disabled = not mine
        self.undo_button.disabled = not game.can_undo
        self.next_round_button.layout.display = None if game.phase == "round_over" else "none"
        self.zoom_in_button.disabled = self.zoom_level >= len(ZOOMS) - 1
        self.zoom_out_button.disabled = self.zoom_level == 0
        self.status.value = self._status_text(placements)
        self.sheet.value = sheet_html(game, self.name)
        self.summary.value = summary_html(game, self.name)

    def _status_text(self, placements: list[Placement]) -> str:
        """The status line; ``placements``: the legal placements of a human to move."""
        game = self.game
        colour = TEXT_PALETTE[game.current % len(TEXT_PALETTE)]
        parts = [_("Round {n}").format(n=game.round),
                 _.ngettext("{n} tile in the pool", "{n} tiles in the pool", len(game.pool))
                 .format(n=len(game.pool))]
        if game.phase == "play":
            turn = _("{name} to play").format(name=self.name(game.current))
            parts.insert(1, f"<b style='color:{colour}'>{esc(turn)}</b>")
            if self._my_turn():
                if game.is_start_move:
                    parts.append(esc(_("start with {tiles}").format(
                        tiles=_(" or ").join(game.start_tiles))))
                elif game.drawn:
                    parts.append(esc(_("place the drawn tile {tile}, or draw or pass").format(
                        tile=game.last_drawn)))
                elif not placements:
                    parts.append(esc(_("none of your tiles fits: draw") if game.can_draw()
                                     else _("none of your tiles fits: pass")))
                elif self.selected is None:
                    parts.append(esc(_("pick a tile from your rack")))
                else:
                    parts.append(esc(_("now tap a dashed place on the table (or arrows and "
                                       "Enter); Rotate turns the tile")))
        text = " · ".join(p if p.startswith("<b") else esc(p) for p in parts)
        if game.rules.keep_score:
            scores = ", ".join(f"{esc(n)} {s}" for n, s in zip(self.names(), game.scores,
                                                                strict=True))
            text += f"<br>{esc(_('Scores'))}: {scores}"
        return f"<div style='font-size:1.15em'>{text}</div>"

    # -- save and load -------------------------------------------------------------------
    def _save_fields(self) -> dict[str, Any] | None:
        """The rules core's save plus who the bots are (:meth:`GameApp.save` wraps them)."""
        if self.game is None:
            return None
        return {"bots": {str(p): k for p, k in self.bot_kinds.items()},
                "game": self.game.to_dict(), "undo": self._undo_states()}

    def _undo_states(self) -> list[dict[str, Any]]:
        """The undo states a save keeps: back to where :meth:`undo` stops (before the last
        human action), at most ``UNDO_SAVED_MAX``."""
        history = self.game.undo_snapshots(UNDO_SAVED_MAX)
        for back, snapshot in enumerate(reversed(history), 1):
            if snapshot["phase"] != "play" or snapshot["current"] not in self.bots:
                return history[-back:]
        return history

    def _load_fields(self, data: dict[str, Any]) -> None:
        """Resume a saved game (:meth:`GameApp.load` checked its envelope)."""
        game = Game.from_dict(data.get("game"))
        game.restore_undo(data.get("undo", []))
        bots = data.get("bots")
        if not isinstance(bots, dict):
            raise CorruptSaveError("'bots' must map players to bot kinds")
        kinds: dict[int, str] = {}
        for key, kind in bots.items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and len(key) < 3
                    and int(key) < game.players and isinstance(kind, str)
                    and _level(kind) in LEVELS):
                raise CorruptSaveError("'bots' must map players to bot levels "
                                       f"({', '.join(LEVELS)})")
            kinds[int(key)] = kind
        self._begin(game, kinds)

    def cell_of(self, cell: tuple[int, int]) -> str:
        """The board id of a cell (for tests): ``cell_id``."""
        return cell_id(cell)

    # -- how to play -------------------------------------------------------------------------
    def shown_rules(self) -> RuleSet:
        """The rules the "How to play" panel explains: the game's, else the set-up panel's."""
        if self.game is not None:
            return self.game.rules
        try:
            return self.rules()
        except ValueError:
            return PRESETS["pressman"]

    def _howto_html(self) -> str:
        """The "How to play" panel for :meth:`shown_rules`."""
        return howto_html(self.shown_rules())
