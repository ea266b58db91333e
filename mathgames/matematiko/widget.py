"""The Matematiko app for a notebook or Voila: set up a game, play it, compare.

>>> app = MatematikoApp(code="ABC234")
>>> app.start_button.click()
>>> app.match.current == app.match.deal[0]
True
>>> app.board.click_cell("c3")
>>> app.match.grid(app.viewing)[12] == app.match.deal[0], app.match.called
(True, 2)
"""

from __future__ import annotations

import base64
import csv
import io
import math
from typing import Any

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import CorruptSaveError, MathgamesError
from mathgames.core.game_widget import GameApp, relabel_options
from mathgames.core.i18n import LANGUAGES, translator
from mathgames.core.resume_widget import ResumeBanner
from mathgames.core.svg import esc
from mathgames.core.ui_widget import (
    HowToPlay,
    by_pointer,
    level_help,
    section,
)
from mathgames.core.widget_looks import shared_look
from mathgames.matematiko.bots import BOTS, LEVELS, Bot, make_bot, play_deal
from mathgames.matematiko.deck import GameCodeError, new_code, normalize_code
from mathgames.matematiko.match import Match, Player, cell_index, cell_name
from mathgames.matematiko.odds import placement_hints
from mathgames.matematiko.rules import COMBINATIONS, LINES, score_grid, score_line
from mathgames.matematiko.view import (
    GRID_ARROWS,
    combination_label,
    line_label,
    render_grid,
    step_cell,
)

__all__ = ["MatematikoApp"]

_ = translator("matematiko")

STORAGE_KEY = "matematiko"
#: One line of five numbers for each combination of the scoring table (How to play).
EXAMPLE_LINES: dict[str, tuple[int, ...]] = {
    "nothing": (1, 4, 7, 9, 12), "pair": (5, 5, 2, 8, 11), "two_pairs": (3, 3, 9, 9, 6),
    "three_of_a_kind": (7, 7, 7, 2, 10), "straight": (4, 5, 6, 7, 8),
    "full_house": (6, 6, 6, 12, 12), "ones_and_thirteens": (1, 13, 1, 13, 1),
    "one_and_ten_to_thirteen": (1, 10, 11, 12, 13), "four_of_a_kind": (9, 9, 9, 9, 2),
    "four_ones": (1, 1, 1, 1, 5),
}
MODES = ("solitaire", "class")


#: Bot kinds of earlier versions, as levels (for the ``bots`` argument).
LEGACY_BOTS = {"random": "easy", "greedy": "medium", "strong": "hard"}


def _make_bot(kind: str) -> Bot:
    """A bot for the app: reproducible (seeded, and never cut short by a clock).

    ``kind`` is a level, or a bot kind of earlier saves (``random``, ``greedy``, ``strong``).
    """
    if kind in LEVELS:
        return LEVELS[kind].make(seed=0, clock=_frozen_clock)
    options: dict[str, Any] = {"random": {"seed": 0}, "strong": {"time_budget": math.inf}}
    return make_bot(kind, **options.get(kind, {}))


def _frozen_clock() -> float:
    """A clock that never moves: a bot's time budget is never reached, so its play
    depends on the numbers alone (each level is bounded by its candidate count)."""
    return 0.0


#: The English names the app gives its bots (each also a literal in :func:`_bot_label`).
BOT_LABELS = ("random bot", "greedy bot", "strong bot", "easy bot", "medium bot", "hard bot",
              "expert bot")


def _bot_label(kind: str) -> str:
    labels = {"random": _("random bot"), "greedy": _("greedy bot"), "strong": _("strong bot"),
              "easy": _("easy bot"), "medium": _("medium bot"), "hard": _("hard bot"),
              "expert": _("expert bot")}
    return labels[kind]


class MatematikoApp(GameApp):
    """Set-up panel, then the game: the grid, the caller's button, hints, results.

    ``code``, ``mode`` (``"solitaire"`` or ``"class"``), ``names`` and ``bots``
    preset the set-up panel; nothing starts until Start is pressed.
    """

    save_key = "app"
    save_kind = "matematiko"
    save_refused = "not a saved Matematiko game"
    save_ascii = False

    def __init__(self, code: str | None = None, mode: str = "solitaire",
                 names: list[str] | None = None, bots: tuple[str, ...] = ()) -> None:
        self.match: Match | None = None
        self.mode = mode if mode in MODES else "solitaire"
        self.viewing: str | None = None
        self.cursor = 12
        self.hints_on = False
        self._bot_scores: dict[tuple[int, ...], dict[str, int]] = {}
        # -- set-up panel --------------------------------------------------
        self.howto = HowToPlay(self._howto_html)
        self.title = w.HTML()
        self.mode_select = w.ToggleButtons(options=[("", m) for m in MODES], value=self.mode)
        self.mode_select.add_class("mg-mode")
        self.code_input = w.Text(value=code or new_code(), layout=w.Layout(width="12em"),
                                 style={"description_width": "initial"})
        self.code_input.add_class("mg-code-input")
        self.new_code_button = w.Button(icon="refresh", layout=shared_look(w.Layout, width="auto"))
        self.new_code_button.add_class("mg-new-code")
        self.names_input = w.Textarea(value="\n".join(names or []), rows=4,
                                      layout=w.Layout(width="22em"),
                                      style={"description_width": "initial"})
        self.names_input.add_class("mg-names")
        self.names_box = w.VBox([w.HTML(layout=w.Layout(display="none")), self.names_input])
        chosen = {LEGACY_BOTS.get(kind, kind) for kind in bots}
        self.bot_checks = {kind: w.Checkbox(value=kind in chosen, indent=False)
                           for kind in LEVELS}
        for kind, box in self.bot_checks.items():
            box.add_class(f"mg-bot-{kind}")
        self.bots_label = w.HTML()
        self.level_help = w.HTML()
        self.level_help.add_class("mg-level-help")
        self.start_button = w.Button(button_style="success", icon="play")
        self.start_button.add_class("mg-start")
        self.setup_message = w.HTML()
        self.setup_message.add_class("mg-setup-message")
        self.code_label = w.HTML(layout=w.Layout(display="none"))
        self.setup = w.VBox(children=[
            self.title, self.howto.button, self.mode_select,
            w.HBox([self.code_label, self.code_input, self.new_code_button]),
            self.names_box, self.bots_label, w.HBox(list(self.bot_checks.values())),
            self.level_help,
            self.start_button, self.setup_message,
        ])
        self.setup.add_class("mg-setup")
        # -- the game --------------------------------------------------------
        self.board = BoardWidget(storage_key=STORAGE_KEY, layout=w.Layout(max_width="640px"))
        self.board.add_class("mg-matematiko-grid")
        self.board.on_cell_click(self._clicked)
        self.board.on_key(self._key)
        self.banner = ResumeBanner(self.board, self.load)
        self.player_select = w.Dropdown(options=[], layout=w.Layout(width="16em"))
        self.player_select.add_class("mg-player")
        self.player_select.observe(self._player_changed, "value")
        self.call_button = w.Button(button_style="primary", icon="bullhorn", layout=w.Layout())
        self.call_button.add_class("mg-call")
        self.undo_button = w.Button(icon="undo")
        self.undo_button.add_class("mg-undo")
        self.hint_toggle = w.ToggleButton(value=False, icon="lightbulb-o")
        self.hint_toggle.add_class("mg-hint")
        self.hint_toggle.observe(self._hints_changed, "value")
        self.new_button = w.Button(icon="plus")
        self.new_button.add_class("mg-new")
        self.status = w.HTML()
        self.status.add_class("mg-status")
        self.total = w.HTML()
        self.total.add_class("mg-total")
        self.message = w.HTML()
        self.message.add_class("mg-message")
        self.results = w.HTML()
        self.results.add_class("mg-results")
        self.csv_link = w.HTML()
        self.csv_link.add_class("mg-csv")
        self.legend = w.HTML()
        self.legend.add_class("mg-hint-legend")
        self.confirm = self._new_game_confirm()
        self.controls = w.HBox([self.player_select, self.call_button, self.undo_button,
                                self.hint_toggle, self.new_button, self.howto.button])
        self.controls.add_class("mg-controls")
        self.game = w.VBox([self.controls, self.confirm, self.status, self.message, self.board,
                            self.legend, self.total, self.results, self.csv_link],
                           layout=w.Layout(display="none"))
        self.game.add_class("mg-game")
        self.start_button.on_click(lambda _b: self.start())
        self.new_code_button.on_click(lambda _b: setattr(self.code_input, "value", new_code()))
        self.mode_select.observe(self._mode_changed, "value")
        self.call_button.on_click(lambda _b: self.call_next())
        self.undo_button.on_click(lambda _b: self.undo())
        self.new_button.on_click(lambda _b: self.ask_new_game())
        self._mount([self.banner, self.howto, self.setup, self.game], self.setup, self.game,
                    "mg-matematiko")
        self._relabel()

    # -- labels --------------------------------------------------------------
    def _mode_changed(self, _change: dict[str, Any]) -> None:
        if not self.relabelling:
            self._relabel()

    def _set_labels(self) -> None:
        self.title.value = f"<h3>{esc(_('Matematiko'))}</h3>"
        relabel_options(self.mode_select,
                        [(_("Solitaire"), "solitaire"), (_("Class game"), "class")])
        # The inputs carry their own labels (a screen reader names each by its label).
        self.code_input.description = _("Game code")
        self.new_code_button.tooltip = _("A new game code")
        together = self.mode_select.value == "class"
        self.names_input.description = (_("Players (one name per line)") if together
                                        else _("Your name"))
        self.names_input.rows = 4 if together else 1  # a list of names, or one
        self.names_input.placeholder = _("Player 1")
        self.bots_label.value = esc(_("Bots that play along:"))
        for kind, box in self.bot_checks.items():
            box.description = _bot_label(kind)
        self.level_help.value = level_help(LEVELS, _bot_label)
        self.start_button.description = _("Start")
        self.call_button.description = _("Call next number")
        self.undo_button.description = _("Undo")
        self.hint_toggle.description = _("Hints")
        self.hint_toggle.tooltip = _("Show, in each empty cell, the expected final points of "
                                     "its row, column and diagonal if the number goes there")
        self.new_button.description = _("New game")
        self.board.label = _("Matematiko grid")

    # -- set-up ----------------------------------------------------------------
    def _game_under_way(self) -> bool:
        return self.match is not None and not self.match.is_over and bool(self.match.called)

    def _setup_shown(self) -> None:
        """A fresh game code in the set-up panel."""
        self.code_input.value = new_code()
        self.setup_message.value = ""

    def _names(self) -> list[str]:
        names = [" ".join(n.split()) for n in self.names_input.value.splitlines() if n.strip()]
        if self.mode_select.value == "solitaire":
            names = names[:1]
        return names or [_("Player 1")]

    def start(self) -> None:
        """Start a game with the set-up panel's options."""
        try:
            code = normalize_code(self.code_input.value)
        except GameCodeError:
            self.setup_message.value = self._error(
                _("The game code must have 6 letters or digits (no 0, 1, I, L or O)."))
            return
        players = [Player(name) for name in self._names()]
        taken = {p.name for p in players}
        for kind, box in self.bot_checks.items():
            if box.value:
                name = _bot_label(kind)
                while name in taken:
                    name += "*"
                taken.add(name)
                players.append(Player(name, kind))
        try:
            match = Match(players, code=code)
        except MathgamesError:
            self.setup_message.value = self._error(
                _("Each player needs a different name (at most 40 players)."))
            return
        self.mode = self.mode_select.value
        self._begin(match)
        if self.mode == "solitaire":
            self.call_next()

    def _begin(self, match: Match) -> None:
        self.match = match
        humans = self.humans
        self.viewing = humans[0] if humans else match.names[0]
        self.cursor = 12
        self.player_select.options = [(self.shown_name(n), n) for n in match.names]
        self.player_select.value = self.viewing
        self.player_select.layout.display = None if len(match.names) > 1 else "none"
        self.call_button.layout.display = None if self.mode == "class" else "none"
        self._show_game()
        self.message.value = ""
        self._refresh()

    def shown_name(self, name: str) -> str:
        """A player's name in the current language: the names the app gave ("Player 1",
        "greedy bot") follow a language switch and a resume; names typed in stay.

        >>> from mathgames.core.i18n import set_language
        >>> app = MatematikoApp(code="ABC234", bots=("medium",)); app.start()
        >>> old = set_language("cs"); app.shown_name("medium bot"), app.shown_name("Ann")
        ('střední bot', 'Ann')
        >>> _ = set_language(old)
        """
        stars = len(name) - len(name.rstrip("*"))
        bare = name[:len(name) - stars]
        player = next((p for p in self.match.players if p.name == name), None) \
            if self.match else None
        for code in LANGUAGES:
            if player is not None and player.bot is not None and bare in (
                    _.gettext_in(code, label) for label in BOT_LABELS):
                return _bot_label(player.bot) + "*" * stars
            if name == _.gettext_in(code, "Player 1"):
                return _("Player 1")
        return name

    @property
    def humans(self) -> list[str]:
        """The names of the players who are people (not bots)."""
        return [p.name for p in self.match.players if p.bot is None] if self.match else []

    # -- playing ---------------------------------------------------------------
    def call_next(self) -> None:
        """The caller's button: turn over the next number (bots place theirs at once)."""
        match = self.match
        if match is None:
            return
        if match.called >= 25:
            self.message.value = self._error(_("All 25 numbers have been called."))
            return
        waiting = [n for n in match.waiting() if n in self.humans]
        if waiting:
            self.message.value = self._error(
                _("Wait: {names} must place the {card} first.").format(
                    names=", ".join(map(self.shown_name, waiting)), card=match.current))
            return
        match.call_next()
        self._bots_play()
        self.message.value = ""
        self._refresh()
        self.board.say(self._status_text())

    def _bots_play(self) -> None:
        """Every bot that has not placed the current number places it now."""
        match = self.match
        if match is None or match.called == 0:
            return
        for player in match.players:
            if player.bot is not None and not match.has_placed(player.name):
                bot = _make_bot(player.bot)
                cell = bot.choose(match.grid(player.name), match.current, match.called_cards)
                match.place(player.name, cell)

    def place(self, cell: int | str) -> None:
        """Put the current number into a cell of the player being shown."""
        match = self.match
        if match is None or self.viewing is None:
            return
        index = cell_index(cell)
        name = self.viewing
        player = match.player(name)
        if player.bot is not None:
            self.message.value = self._error(
                _("{name} is a bot and places its numbers itself.").format(name=name))
            return
        if match.called == 0:
            self.message.value = self._error(_("No number has been called yet."))
            return
        if match.has_placed(name):
            self.message.value = self._error(
                _("{name} has already placed the {card}; wait for the next number.").format(
                    name=name, card=match.current) if match.called < 25
                else _("The game is over."))
            return
        if match.grid(name)[index] is not None:
            self.message.value = self._error(_("Cell {cell} is already taken.").format(
                cell=cell_name(index)))
            return
        card = match.current
        match.place(name, index)
        self.cursor = index
        self.message.value = ""
        waiting = [n for n in match.waiting() if n in self.humans]
        if waiting:
            self.viewing = waiting[0]
            self.player_select.value = waiting[0]
        elif self.mode == "solitaire" and match.called < 25:
            self.call_next()
        self._refresh()
        self.board.say(f"{cell_name(index)}: {card}. {self._status_text()}")

    def undo(self) -> None:
        """Take back the shown player's placement of the current number (everyone places
        each number at once, so this replaces the turn-by-turn :meth:`GameApp.undo`)."""
        match = self.match
        if match is None or self.viewing is None:
            return
        if match.is_over:
            self.message.value = self._error(_("The game is over: nothing can be undone."))
            self.board.say(_("The game is over: nothing can be undone."))
            return
        if self.mode == "solitaire" and not match.is_over and match.called > 1 \
                and not match.has_placed(self.viewing):
            # solitaire: the player is their own caller, so take back the automatic call
            for player in match.players:
                if player.bot is not None and match.can_undo(player.name):
                    match.undo(player.name)
            match.uncall()
        if match.player(self.viewing).bot is not None or not match.can_undo(self.viewing):
            self.message.value = self._error(
                _("Only your placement of the current number can be undone."))
            return
        self.cursor = match.undo(self.viewing)
        self.message.value = ""
        self._refresh()

    def _clicked(self, cell: str) -> None:
        try:
            self.place(cell)
        except MathgamesError as error:  # pragma: no cover - guarded above
            self.message.value = self._error(str(error))

    def _key(self, key: str) -> None:
        if key in GRID_ARROWS:
            self.cursor = step_cell(self.cursor, key)
            self._refresh()
        elif key in ("Enter", " "):
            self.place(self.cursor)
        elif key.lower() == "h":
            self.hint_toggle.value = not self.hint_toggle.value
        elif key.lower() == "n" and self.mode == "class":
            self.call_next()
        elif key in ("Backspace", "Delete") or key.lower() == "u":
            self.undo()

    def _player_changed(self, change: dict[str, Any]) -> None:
        if self.match is not None and change["new"] in self.match.names:
            self.viewing = change["new"]
            self._refresh()

    def _hints_changed(self, change: dict[str, Any]) -> None:
        self.hints_on = bool(change["new"])
        if self.match is not None:
            self._refresh()

    # -- drawing -----------------------------------------------------------------
    def _error(self, text: str) -> str:
        """The HTML of a refusal (also said to screen readers)."""
        if hasattr(self, "board"):
            self.board.say(text)
        return f'<span style="color:#b00020;font-weight:bold">{esc(text)}</span>'

    def _refresh(self) -> None:
        match = self.match
        if match is None or self.viewing is None:
            return
        self._keep_copy()  # first (see BoardWidget: a reload must find the move kept)
        name = self.viewing
        grid = match.grid(name)
        placing = match.called > 0 and not match.has_placed(name)
        hints = None
        if self.hints_on and placing and match.current is not None:
            hints = placement_hints(grid, match.current, match.called_cards)
        self.board.svg = render_grid(
            grid, current=match.current if match.called else None, cursor=self.cursor,
            hints=hints, code=match.code,
            player=self.shown_name(name) if len(match.names) > 1 else None,
            placing=placing, calls=match.called)
        points = match.points_so_far(name)
        self.total.value = (f'<span style="font-size:1.6em"><b>{esc(_("Total"))}: '
                            f'<span class="mg-total-value">{points}</span></b></span>')
        text = self._status_text()
        status = esc(text)
        if not match.is_over and match.called and not match.has_placed(name):
            touch = _("{name}: place the {card}: tap an empty cell.").format(
                name=self.shown_name(name), card=match.current)
            status = by_pointer(text, touch)
        self.status.value = f'<span style="font-size:1.3em">{status}</span>'
        self.undo_button.disabled = match.is_over or not (match.can_undo(name) or (
            self.mode == "solitaire" and match.called > 1))
        self.legend.value = "" if hints is None else (
            "<p>" + esc(_("Hints: in each empty cell, the points its row (→), column (↓) and "
                          "diagonals (↘ ↙) are expected to score at the end if the number "
                          "goes there; the green frame marks the best cell.")) + "</p>")
        self.call_button.disabled = match.called >= 25
        if match.is_over:
            self._show_results()
        else:
            self.results.value = ""
            self.csv_link.value = ""

    def _status_text(self) -> str:
        match = self.match
        assert match is not None and self.viewing is not None
        if match.is_over:
            best = match.standings()[0]
            winners = [s.name for s in match.standings() if s.rank == 1]
            if len(match.names) == 1:
                return _.ngettext("Game over: {n} point.", "Game over: {n} points.",
                                  best.total).format(n=best.total)
            return _.ngettext("Game over: {names} won with {n} point.",
                              "Game over: {names} won with {n} points.",
                              best.total).format(names=", ".join(map(self.shown_name, winners)),
                                                 n=best.total)
        if match.called == 0:
            return _("Press “Call next number” to start.")
        waiting = [n for n in match.waiting() if n in self.humans]
        if not match.has_placed(self.viewing):
            return _("{name}: place the {card} (click an empty cell, or arrows and Enter).").format(
                name=self.shown_name(self.viewing), card=match.current)
        if waiting:
            return _("Waiting for: {names}").format(names=", ".join(map(self.shown_name,
                                                                        waiting)))
        return _("Everyone has placed the {card}: call the next number.").format(
            card=match.current)

    # -- the end: results and CSV ------------------------------------------------
    def bot_scores(self) -> dict[str, int]:
        """How each bot would have scored on the same 25 numbers."""
        assert self.match is not None
        deal = self.match.deal
        if deal not in self._bot_scores:
            result = {}
            for kind in LEVELS:
                grid = play_deal(_make_bot(kind), deal)
                result[kind] = score_grid([grid[r * 5:r * 5 + 5] for r in range(5)]).total
            self._bot_scores = {deal: result}
        return dict(self._bot_scores[deal])

    def results_rows(self) -> list[list[str | int]]:
        """The results table: a header, then one row per player (rank, name, lines, total)."""
        match = self.match
        assert match is not None
        header: list[str | int] = [_("Rank"), _("Player"), _("Kind")]
        header += [line_label(i) for i in range(len(LINES))] + [_("Total")]
        rows = [header]
        for standing in match.standings():
            grid = match.grid(standing.name)
            lines: list[str | int] = ["" for _i in LINES]
            if None not in grid:
                result = score_grid([grid[r * 5:r * 5 + 5] for r in range(5)])
                lines = [line.points for line in result.lines]
            kind = _("person") if standing.bot is None else _bot_label(standing.bot)
            rows.append([standing.rank, self.shown_name(standing.name), kind, *lines,
                         standing.total])
        return rows

    def to_csv(self) -> str:
        """The results table as CSV text (game code in the first line)."""
        assert self.match is not None
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow([_("Game code"), self.match.code or ""])
        writer.writerows(self.results_rows())
        return out.getvalue()

    def _show_results(self) -> None:
        rows = self.results_rows()
        head = "".join(f"<th>{esc(h)}</th>" for h in (rows[0][:2] + rows[0][-1:]))
        body = "".join(
            "<tr>" + "".join(f"<td>{esc(v)}</td>" for v in (row[:2] + row[-1:])) + "</tr>"
            for row in rows[1:])
        bots = self.bot_scores()
        bot_items = "".join(f"<li>{esc(_bot_label(k))}: <b>{v}</b></li>" for k, v in bots.items())
        self.results.value = (
            f'<h4>{esc(_("Results"))}</h4><table class="mg-results-table" '
            f'style="font-size:1.2em;border-spacing:1em 0.2em"><tr>{head}</tr>{body}</table>'
            f'<p>{esc(_("On the same numbers the bots would have scored:"))}</p>'
            f'<ul class="mg-bot-scores">{bot_items}</ul>')
        data = base64.b64encode(self.to_csv().encode("utf-8")).decode("ascii")
        filename = f"matematiko-{self.match.code or 'game'}.csv"
        self.csv_link.value = (
            f'<a download="{esc(filename)}" href="data:text/csv;base64,{data}">'
            f'⬇ {esc(_("Download the results (CSV)"))}</a>')

    # -- saving --------------------------------------------------------------------
    def _save_fields(self) -> dict[str, Any] | None:
        """The mode and the match (:meth:`GameApp.save` wraps them)."""
        if self.match is None:
            return None
        return {"mode": self.mode, "match": self.match.to_dict()}

    def _load_fields(self, data: dict[str, Any]) -> None:
        """Resume a saved match (:meth:`GameApp.load` checked its envelope)."""
        if data.get("mode") not in MODES:
            raise CorruptSaveError(self.save_refused)
        match = Match.from_dict(data.get("match"))
        if any(p.bot is not None and p.bot not in BOTS and p.bot not in LEVELS
               for p in match.players):
            raise CorruptSaveError("a player is played by an unknown bot")
        self.mode = data["mode"]
        self.mode_select.value = self.mode
        self._begin(match)
        self._bots_play()
        waiting = [n for n in match.waiting() if n in self.humans]
        if waiting:
            self.viewing = waiting[0]
            self.player_select.value = waiting[0]
        if self.mode == "solitaire" and not waiting and match.called < 25:
            self.call_next()
        self._refresh()

    # -- used by tests and notebooks ----------------------------------------------
    def cell_of(self, index: int) -> str:
        """The board's cell id of grid index 0..24."""
        return cell_name(index)

    # -- how to play ---------------------------------------------------------------------
    def _howto_html(self) -> str:
        """The "How to play" panel: goal, a turn, a picture drawn by the grid's own view,
        and the scoring table with an example line for each combination."""
        rows = []
        for combo in COMBINATIONS:
            line = EXAMPLE_LINES[combo.name]
            scored = score_line(list(line))
            assert scored.combination == combo.name  # the example shows what it claims
            rows.append(f"<tr><td>{esc(combination_label(combo.name))}</td>"
                        f"<td>{' '.join(map(str, line))}</td><td>{combo.row_points}</td>"
                        f"<td>{combo.diagonal_points}</td></tr>")
        head = "".join(f"<th>{esc(h)}</th>" for h in (
            _("Combination"), _("Example line"), _("Row or column"), _("Long diagonal")))
        table = f"<table class='mg-howto-points'><tr>{head}</tr>{''.join(rows)}</table>"
        example = [n for name in ("full_house", "straight", "pair", "two_pairs", "nothing")
                   for n in EXAMPLE_LINES[name]]
        picture = render_grid(example, code=None, placing=False).replace(
            "data-cell=", "data-example=")
        return "".join([
            section(_("Goal"), "<p>" + esc(_(
                "Put 25 called numbers (1 to 13) into your 5x5 grid so that the rows, columns "
                "and the two long diagonals score as many points as possible.")) + "</p>"),
            section(_("A turn"), "<p>" + esc(_(
                "A number is called; everyone writes it into any empty cell of their own grid "
                "(tap the cell, or move the frame with the arrow keys and press Enter). A "
                "number, once placed, stays there.")) + "</p>"),
            section(_("What is legal"), "<p>" + esc(_(
                "Any empty cell. When the grid is full, each row, column and long diagonal "
                "scores its best combination; the order of the numbers does not matter and 1 "
                "is low. The picture shows a full grid and the points of its lines.")) + "</p>"
                f"<div class='mg-howto-picture'>{picture}</div>"),
            section(_("Points"), "<p>" + esc(_(
                "A long diagonal scores 10 more than a row, but only when it scores at "
                "all.")) + "</p>" + table),
        ])
