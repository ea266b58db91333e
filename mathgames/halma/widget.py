"""The Halma and Chinese-checkers app: set up a game or the crossing puzzle, then play.

``HalmaApp(board="halma")`` is the Halma page, ``HalmaApp(board="star")`` the
Chinese-checkers page. Click a piece to see every place it can go; hover over
(or move the keyboard cursor onto) a destination to see its jump path; click
it to move. Keys: arrows move the cursor, Enter or space clicks, Escape
deselects, Backspace or ``u`` undoes.

>>> app = HalmaApp(board="star")
>>> app.start_button.click()
>>> app.board.click_cell("c3")
>>> sorted(app.destinations)
['g5', 'i5']
>>> app.board.click_cell("g5")
>>> app.game.ply >= 2            # our move and the bot's answer
True
>>> app.undo_button.click(); app.game.ply
0
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import CorruptSaveError, MathgamesError, quoted
from mathgames.core.game_widget import GameApp, UndoPastBots, relabel_options
from mathgames.core.i18n import translator
from mathgames.core.levels import DEFAULT_LEVEL
from mathgames.core.resume_widget import ResumeBanner
from mathgames.core.svg import esc
from mathgames.core.ui_widget import (
    HowToPlay,
    ZoomButtons,
    by_pointer,
    level_help,
    section,
)
from mathgames.core.widget_looks import DescriptionStyle, shared_look
from mathgames.halma.bots import LEVELS, levels_on
from mathgames.halma.game import DEFAULT_FILL_RULE, PASS, TURNS_PER_PIECE, Game, Move
from mathgames.halma.solutions import SOLUTIONS
from mathgames.halma.topology import get_topology
from mathgames.halma.view import ARROWS, arrow_step, cell_said, player_label, render

__all__ = ["HalmaApp"]

_ = translator("halma")

SEAT_KINDS = ("human", *LEVELS)
#: Seat kinds of earlier versions (arguments and saves), as levels.
LEGACY_SEATS = {"greedy": "easy", "search": "hard"}
#: The zoom steps of the board (a finger on a phone needs about 2).
ZOOMS = (1.0, 1.6, 2.4)
SAVE_VERSION = 1


def _seat_label(kind: str) -> str:
    return {"human": _("Human"), "easy": _("Bot: easy"), "medium": _("Bot: medium"),
            "hard": _("Bot: hard")}[kind]


def _seat(kind: str) -> str:
    return LEGACY_SEATS.get(kind, kind)


class HalmaApp(UndoPastBots, GameApp):
    """Set-up panel, then the board, the controls, the move list and the messages.

    ``board``: ``"halma"`` or ``"star"``. ``players`` and ``seats`` (one of
    ``"human"``, ``"easy"``, ``"medium"``, ``"hard"`` per player: a bot level of
    :data:`~mathgames.halma.bots.LEVELS`; the earlier ``"greedy"`` and
    ``"search"`` mean easy and hard) and ``move_limit`` (0: none) preset the
    set-up panel; ``mode`` is ``"game"`` or ``"puzzle"`` (the solitaire crossing);
    ``fill_rule`` is the games' fill rule (:data:`~mathgames.halma.game.FILL_RULES`).

    Parts for tests and pages: ``board`` (the :class:`BoardWidget`), ``game``
    (the :class:`~mathgames.halma.game.Game`, None before Start), ``setup``,
    ``mode_select``, ``players_select``, ``seat_selects``, ``limit_input``,
    ``pieces_select``, ``start_button``, ``undo_button``, ``new_button``,
    ``bot_button`` (shown when every player is a bot), ``solution_step_button``,
    ``solution_all_button`` (puzzle mode), ``status``, ``message``, ``move_list``,
    ``resume``. The browser keeps the game under the storage key ``halma`` (Halma)
    or ``halma-star`` (Chinese checkers).
    """

    save_kind = "halma"
    save_version = SAVE_VERSION
    save_refused = "the saved game is not a Halma game"

    def __init__(self, board: str = "halma", players: int = 2,
                 seats: list[str] | tuple[str, ...] | None = None, move_limit: int = 1000,
                 mode: str = "game", fill_rule: str = DEFAULT_FILL_RULE) -> None:
        Game(board, fill_rule=fill_rule)  # SetupError for an unknown board or fill rule
        self.fill_rule = fill_rule
        self.topology = get_topology(board)
        self.board_key = self.topology.key
        self.game: Game | None = None
        self.mode = mode if mode in ("game", "puzzle") else "game"
        self.seats: list[str] = []
        self.bots: list[Any] = []
        self.selected: str | None = None
        self.destinations: dict[str, Move] = {}
        self.cursor = self.topology.names[self.topology.center]
        player_counts = [n for n in self.topology.setups if n > 1]
        wide = shared_look(DescriptionStyle, description_width="initial")
        # the controls' own descriptions label them: these labels stay hidden
        hidden = shared_look(w.Layout, display="none")
        # -- set-up panel ------------------------------------------------------------------
        self.howto = HowToPlay(self._howto_html)
        self.title = w.HTML()
        self.mode_select = w.ToggleButtons(options=[("", "game"), ("", "puzzle")],
                                           value=self.mode)
        self.mode_select.add_class("mg-mode")
        self.players_select = w.Dropdown(options=[(str(n), n) for n in player_counts],
                                         value=players if players in player_counts else 2,
                                         layout=shared_look(w.Layout, width="auto"), style=wide)
        self.players_select.add_class("mg-players")
        default_seats = [_seat(k) for k in seats or ["human"] + [DEFAULT_LEVEL] * 5]
        self.seat_selects = []
        for p in range(6):
            kind = default_seats[p] if p < len(default_seats) else DEFAULT_LEVEL
            select = w.Dropdown(options=[("", k) for k in SEAT_KINDS],
                                value=kind if kind in SEAT_KINDS else DEFAULT_LEVEL,
                                layout=shared_look(w.Layout, width="30em"), style=wide)
            select.add_class(f"mg-seat-{p + 1}")
            self.seat_selects.append(select)
        self.seat_labels = [w.HTML(layout=hidden) for _p in range(6)]
        self.seat_rows = [w.HBox([label, select], layout=w.Layout()) for label, select in
                          zip(self.seat_labels, self.seat_selects, strict=True)]
        self.limit_input = w.BoundedIntText(value=move_limit, min=0, max=100000,
                                            layout=w.Layout(width="8em"), style=wide)
        self.limit_input.add_class("mg-move-limit")
        self.pieces_select = w.Dropdown(
            options=[(str(n), n) for n in self.topology.camp_sizes()],
            value=self.topology.camp_sizes()[0], layout=shared_look(w.Layout, width="auto"),
            style=wide)
        self.pieces_select.add_class("mg-pieces")
        self.players_label, self.limit_label, self.pieces_label = (
            w.HTML(layout=hidden), w.HTML(layout=hidden), w.HTML(layout=hidden))
        self.level_help = w.HTML()
        self.level_help.add_class("mg-level-help")
        self.game_options = w.VBox([w.HBox([self.players_label, self.players_select]),
                                    *self.seat_rows, self.level_help,
                                    w.HBox([self.limit_label, self.limit_input])],
                                   layout=w.Layout())
        self.puzzle_options = w.VBox([w.HBox([self.pieces_label, self.pieces_select])],
                                     layout=w.Layout())
        self.puzzle_help = w.HTML(layout=w.Layout())
        self.start_button = w.Button(button_style="success", icon="play")
        self.start_button.add_class("mg-start")
        self.setup = w.VBox([self.title, self.howto.button, self.mode_select, self.game_options,
                             self.puzzle_options, self.puzzle_help, self.start_button])
        self.setup.add_class("mg-setup")
        # -- the game ----------------------------------------------------------------------
        self.board = BoardWidget()
        self.board.storage_key = "halma" if self.board_key == "halma" else "halma-star"
        self.board.add_class("mg-board")
        self.status = w.HTML()
        self.status.add_class("mg-status")
        self.message = w.HTML()
        self.message.add_class("mg-message")
        self.undo_button = w.Button(icon="undo")
        self.undo_button.add_class("mg-undo")
        self.new_button = w.Button(icon="refresh")
        self.new_button.add_class("mg-new")
        self.bot_button = w.Button(icon="step-forward", layout=w.Layout())
        self.bot_button.add_class("mg-bot-move")
        self.solution_step_button = w.Button(icon="lightbulb-o", layout=w.Layout())
        self.solution_step_button.add_class("mg-solution-step")
        self.solution_all_button = w.Button(icon="fast-forward", layout=w.Layout())
        self.solution_all_button.add_class("mg-solution-all")
        self.zooms = ZoomButtons(self.board, ZOOMS)
        self.zoom_in_button, self.zoom_out_button = self.zooms.zoom_in, self.zooms.zoom_out
        self.confirm = self._new_game_confirm()
        self.controls = w.HBox([self.undo_button, self.bot_button, self.solution_step_button,
                                self.solution_all_button, self.new_button, self.zooms,
                                self.howto.button])
        self.controls.add_class("mg-controls")
        self.moves_title = w.HTML()
        self.move_list = w.HTML(layout=w.Layout(max_height="24em", overflow="auto",
                                                width="20em"))
        self.move_list.add_class("mg-move-list")
        self.side = w.VBox([self.moves_title, self.move_list])
        self.side.add_class("mg-side")
        self.help = w.HTML()
        self.help.add_class("mg-help")
        self.board_row = w.HBox([self.board, self.side])
        self.board_row.add_class("mg-board-row")
        self.game_box = w.VBox([self.status, self.message, self.confirm, self.controls,
                                self.help, self.board_row])
        self.game_box.add_class("mg-game")
        self.resume = ResumeBanner(self.board, self.load)
        self._mount([self.resume, self.howto, self.setup, self.game_box], self.setup,
                    self.game_box, "mg-halma")
        # -- events ------------------------------------------------------------------------
        self.mode_select.observe(lambda _c: self._show_setup_parts(), "value")
        self.players_select.observe(lambda _c: self._show_setup_parts(), "value")
        self.start_button.on_click(lambda _b: self.start())
        self.undo_button.on_click(lambda _b: self.undo())
        self.new_button.on_click(lambda _b: self.ask_new_game())
        self.bot_button.on_click(lambda _b: self.bot_move())
        self.solution_step_button.on_click(lambda _b: self.solution_step())
        self.solution_all_button.on_click(lambda _b: self.solution_all())
        self.board.on_cell_click(self._on_cell)
        self.board.on_key(self._on_key)
        self._relabel()
        self.show_setup()

    # -- labels ------------------------------------------------------------------------------
    def _set_labels(self) -> None:
        name = _("Halma") if self.board_key == "halma" else _("Chinese checkers")
        self.title.value = f"<h2>{esc(name)}</h2>"
        relabel_options(self.mode_select, [(_("Game"), "game"), (_("Crossing puzzle"), "puzzle")])
        # The controls carry their own labels (a screen reader names each by its label).
        self.players_select.description = _("Players")
        for p, select in enumerate(self.seat_selects):
            select.description = player_label(p)
            relabel_options(select, [(_seat_label(k), k) for k in SEAT_KINDS])
        self.limit_input.description = _("Move limit (0 = none)")
        self.pieces_select.description = _("Pieces")
        self.level_help.value = level_help(levels_on(self.board_key), _seat_label)
        self.puzzle_help.value = "<p>" + esc(_(
            "Move all your pieces to the opposite camp, alone on the board, in as few "
            "moves as you can.")) + "</p>"
        self.start_button.description = _("Start")
        self.undo_button.description = _("Undo")
        self.new_button.description = _("New game")
        self.bot_button.description = _("Bot move")
        self.solution_step_button.description = _("Solver's next move")
        self.solution_all_button.description = _("Whole solution")
        self.moves_title.value = f"<b>{esc(_('Moves'))}</b>"
        mouse = _("Click a piece, then one of the ringed places. Point at a ring to see the "
                  "jump path. Keys: arrows move the frame, Enter or space clicks, Escape lets "
                  "go, U undoes.")
        touch = _("Tap a piece, then one of the ringed places. The magnifier buttons make "
                  "the squares bigger; slide the board to see the rest.")
        self.help.value = by_pointer(mouse, touch)
        self.zooms.relabel()
        self.board.label = name

    def _show_setup_parts(self) -> None:
        puzzle = self.mode_select.value == "puzzle"
        self.game_options.layout.display = "none" if puzzle else None
        self.puzzle_options.layout.display = (
            None if puzzle and len(self.topology.camp_sizes()) > 1 else "none")
        self.puzzle_help.layout.display = None if puzzle else "none"
        for p, row in enumerate(self.seat_rows):
            row.layout.display = None if p < self.players_select.value else "none"

    def _game_under_way(self) -> bool:
        return self.game is not None and not self.game.is_over() and bool(self.game.history)

    def zoom(self, step: int) -> None:
        """Make the board bigger (+1, it then scrolls) or smaller (-1)."""
        self.zooms.step(step)

    def _setup_shown(self) -> None:
        self._show_setup_parts()

    # -- starting ----------------------------------------------------------------------------
    def start(self) -> None:
        """Start a game (or the puzzle) with the set-up panel's options."""
        self.mode = self.mode_select.value
        if self.mode == "puzzle":
            pieces = self.pieces_select.value
            game = Game(self.board_key, 1, pieces=pieces)
            seats = ["human"]
        else:
            n = self.players_select.value
            limit = self.limit_input.value or None
            game = Game(self.board_key, n, move_limit=limit, fill_rule=self.fill_rule)
            seats = [self.seat_selects[p].value for p in range(n)]
        self._begin(game, seats)
        self.message.value = ""
        self._run_bots()
        self._refresh()

    def _begin(self, game: Game, seats: list[str]) -> None:
        self.game = game
        self.seats = [_seat(kind) for kind in seats]
        self.bots = [LEVELS[kind].make(seed=p) if kind != "human" else None
                     for p, kind in enumerate(self.seats)]
        self.selected = None
        self.destinations = {}
        self._show_game()
        puzzle = self.mode == "puzzle"
        self.solution_step_button.layout.display = None if puzzle else "none"
        self.solution_all_button.layout.display = None if puzzle else "none"

    @property
    def has_human(self) -> bool:
        return "human" in self.seats

    def _is_bot_turn(self) -> bool:
        game = self.game
        return game is not None and not game.is_over() and self.seats[game.to_move] != "human"

    def _run_bots(self) -> None:
        """Let the bots move until a human is to move (only when someone is human);
        a human who cannot move passes."""
        game = self.game
        while game is not None and not game.is_over():
            if self.seats[game.to_move] == "human":
                if game.legal_moves() != [PASS]:
                    return
                self._say(_("{player} cannot move and passes.").format(
                    player=player_label(game.to_move)), error=False)
                game.play(PASS)
            elif self.has_human:
                game.play(self.bots[game.to_move].choose(game))
            else:
                return

    def bot_move(self) -> None:
        """One bot move (the button shown when every player is a bot)."""
        if self._is_bot_turn():
            assert self.game is not None
            self.game.play(self.bots[self.game.to_move].choose(self.game))
            self.message.value = ""
        self._refresh()

    # -- playing -----------------------------------------------------------------------------
    def _say(self, text: str, error: bool = True) -> None:
        colour = "#b00020" if error else "#1b1b1b"
        self.message.value = f'<span style="color:{colour};font-size:1.15em">{esc(text)}</span>'
        self.board.say(text)

    def _announce_moves(self, since: int) -> None:
        """Tell screen readers the moves made since ply ``since``, then the status."""
        game = self.game
        assert game is not None
        movers = [entry[0] for entry in game.history]
        said = [f"{player_label(p)}: {m}" for p, m in zip(movers, game.moves, strict=True)]
        self.board.say(". ".join([*said[since:], self._status_text()]))

    def _on_cell(self, name: str) -> None:
        self.cursor = name
        game = self.game
        if game is None:
            return
        if game.is_over():
            self._say(_("The game is over: start a new one."))
            self._refresh()
            return
        if self.seats[game.to_move] != "human":
            self._say(_("It is a bot's turn: press Bot move."))
            self._refresh()
            return
        owner = game.owner(name)
        if self.selected is not None and name in self.destinations:
            move = self.destinations[name]
            before = game.ply
            try:
                game.play(move)
            except MathgamesError as error:  # pragma: no cover - moves come from the game
                self._say(str(error))
                return
            self.selected, self.destinations = None, {}
            self.message.value = ""
            self._run_bots()
            self._refresh()
            self._announce_moves(before)
            return
        elif owner == game.to_move:
            if name == self.selected:
                self.selected, self.destinations = None, {}
                self.message.value = ""
            else:
                self.selected = name
                self.destinations = game.moves_from(name)
                if self.destinations:
                    self.message.value = ""
                    self.board.say(_("{cell} chosen: it can go to {places}.").format(
                        cell=name, places=", ".join(sorted(self.destinations))))
                else:
                    self._say(_("The piece on {cell} cannot move.").format(cell=name))
        elif self.selected is not None:
            self._say(_("{cell} is not a place the piece on {start} can reach.").format(
                cell=name, start=self.selected))
        elif owner is None:
            self._say(_("{cell} is empty: first click one of your pieces.").format(cell=name))
        else:
            self._say(_("{cell} holds a piece of {player}: click one of your own.").format(
                cell=name, player=player_label(owner)))
        self._refresh()

    def _on_key(self, key: str) -> None:
        if key in ARROWS:
            self.cursor = arrow_step(self.topology, self.cursor, key)
            self._refresh()
            self.board.say(cell_said(self.game, self.cursor))
        elif key in ("+", "-"):
            self.zoom(+1 if key == "+" else -1)
        elif key in ("Enter", " "):
            self._on_cell(self.cursor)
        elif key == "Escape":
            self.selected, self.destinations = None, {}
            self.message.value = ""
            self._refresh()
        elif key in ("Backspace", "u", "U"):
            self.undo()

    # -- undo (GameApp.undo: the last move, and the bots' moves after the last human move) --
    def _can_undo(self) -> bool:
        return self.game is not None and bool(self.game.history)

    def _undo_step(self) -> None:
        assert self.game is not None
        self.game.undo()

    def _bot_to_move(self) -> bool:
        assert self.game is not None
        return self.has_human and self.seats[self.game.to_move] != "human"

    def _nothing_to_undo(self) -> str:
        return _("There is no move to undo.")

    def _say_error(self, text: str) -> None:
        self._say(text)

    def _undone(self) -> None:
        self.selected, self.destinations = None, {}
        self.message.value = ""
        self._refresh()

    # -- the puzzle's solution ---------------------------------------------------------------
    def _solution(self) -> tuple[str, ...]:
        assert self.game is not None
        return SOLUTIONS.get(f"{self.board_key}-{self.game.pieces}", ())

    def solution_step(self) -> None:
        """Play the solver's next move (from the start if we left its line)."""
        game = self.game
        solution = self._solution() if game is not None else ()
        if game is None or not solution:
            return
        made = [str(m) for m in game.moves]
        if made != list(solution[: len(made)]) or len(made) >= len(solution):
            game.reset()
            made = []
            self._say(_("The solver's crossing starts from the beginning."), error=False)
        else:
            self.message.value = ""
        game.play(solution[len(made)])
        self.selected, self.destinations = None, {}
        self._refresh()

    def solution_all(self) -> None:
        """Replay the solver's whole crossing from the start."""
        game = self.game
        solution = self._solution() if game is not None else ()
        if game is None or not solution:
            return
        game.reset()
        for move in solution:
            game.play(move)
        self.selected, self.destinations = None, {}
        self.message.value = ""
        self._refresh()

    # -- showing -----------------------------------------------------------------------------
    def _status_text(self) -> str:
        game = self.game
        assert game is not None
        if self.mode == "puzzle":
            best = len(self._solution())
            if game.is_over():
                text = _.ngettext("Crossed in {n} move!", "Crossed in {n} moves!", game.ply)
                text = text.format(n=game.ply)
                if best:
                    text += " " + _("The solver's best is {best}.").format(best=best)
                return text
            return _.ngettext("{n} move so far", "{n} moves so far", game.ply).format(n=game.ply)
        if game.is_over():
            result = game.result()
            if result.reason == "move_limit":
                return _("Draw: the move limit was reached.")
            if not result.winners:
                return _("Draw: nobody can move.")
            names = ", ".join(player_label(p) for p in result.winners)
            if result.reason == "shared":
                return _("{players} finished in the same round and share the win!").format(
                    players=names)
            return _("{player} wins!").format(player=names)
        return _("Move {n}: {player} to move.").format(n=game.ply + 1,
                                                        player=player_label(game.to_move))

    def _placings_html(self) -> str:
        game = self.game
        assert game is not None
        if self.mode == "puzzle" or not game.is_over() or game.players < 2:
            return ""
        result = game.result()
        rows = "".join(
            "<li>" + esc(_("Place {place}: {player}").format(place=place, player=player_label(p)))
            + "</li>" for place, p in sorted((result.placings[p], p) for p in range(game.players)))
        return f"<ol style='list-style:none;padding-left:0'>{rows}</ol>"

    def _move_list_html(self) -> str:
        game = self.game
        assert game is not None
        moves = [str(m) for m in game.moves]
        n = game.players
        lines = []
        for start in range(0, len(moves), n):
            chunk = " &nbsp; ".join(esc(m) for m in moves[start:start + n])
            lines.append(f"<div>{start // n + 1}. {chunk}</div>")
        return (f"<div style='font-family:DejaVu Sans Mono,monospace;font-size:1.05em'>"
                f"{''.join(lines)}</div>")

    def _refresh(self) -> None:
        game = self.game
        if game is None:
            return
        self._keep_copy()  # first (see BoardWidget: a reload must find the move kept)
        self.board.svg = render(game, selected=self.selected, destinations=self.destinations,
                                cursor=self.cursor, title=self.board.label)
        over = game.is_over()
        colour = "#006400" if over else "#1b1b1b"
        self.status.value = (f"<div style='font-size:1.4em;font-weight:bold;color:{colour}'>"
                             f"{esc(self._status_text())}</div>{self._placings_html()}")
        self.move_list.value = self._move_list_html()
        self.bot_button.layout.display = (None if self.mode == "game" and not self.has_human
                                          and not over else "none")
        self.undo_button.disabled = not game.history

    # -- saving ------------------------------------------------------------------------------
    def _save_fields(self) -> dict[str, Any] | None:
        """The set-up and the moves (:meth:`GameApp.save` wraps them)."""
        game = self.game
        if game is None:
            return None
        return {
            "board": self.board_key,
            "mode": self.mode, "players": game.players, "pieces": game.pieces,
            "move_limit": game.move_limit, "fill_rule": game.fill_rule, "seats": self.seats,
            "moves": [str(m) for m in game.moves],
        }

    def _load_fields(self, data: dict[str, Any]) -> None:
        """Replay a save's moves (:meth:`GameApp.load` checked its envelope).

        A save without ``fill_rule`` (written before there was a choice) is replayed under
        the ``"literal"`` rule it was played under, so that it ends as it did."""
        if data.get("board") != self.board_key:
            raise CorruptSaveError(
                f"the saved game is on another board ({quoted(data.get('board'))})")
        mode, seats, moves = data.get("mode"), data.get("seats"), data.get("moves")
        if mode not in ("game", "puzzle"):
            raise CorruptSaveError(f"unknown mode {quoted(mode)}")
        if not isinstance(seats, list) or not all(
                isinstance(s, str) and _seat(s) in SEAT_KINDS for s in seats):
            raise CorruptSaveError("'seats' must list human or a bot level")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise CorruptSaveError("'moves' must be a list of move texts")
        try:
            game = Game(self.board_key, data.get("players"), data.get("move_limit"),
                        data.get("pieces"), data.get("fill_rule", "literal"))
        except (TypeError, ValueError) as error:
            raise CorruptSaveError(f"bad set-up: {error}") from None
        if len(seats) != game.players:
            raise CorruptSaveError(f"{len(seats)} seats for {game.players} players")
        for number, move in enumerate(moves, 1):
            try:
                game.play(move)
            except MathgamesError as error:
                raise CorruptSaveError(f"move {number} ({quoted(move)}): {error}") from None
        self.mode = mode
        self.mode_select.value = mode
        self._begin(game, seats)
        self.message.value = ""
        self._refresh()

    # -- how to play -------------------------------------------------------------------------
    def _howto_html(self) -> str:
        """The "How to play" panel: goal, a turn, jump chains (with a picture drawn by the
        board's own view), camps, the goal lock and the fill rule."""
        halma = self.board_key == "halma"
        example = Game(self.board_key, 2)
        names = self.topology.names
        piece = max((names[c] for c in range(self.topology.size) if example.occ[c] == 1),
                    key=lambda cell: (len(example.moves_from(cell)), cell))
        picture = render(example, selected=piece, show_target=False,
                         title=_("The moves of the piece on {cell}").format(cell=piece))
        picture = picture.replace("data-cell=", "data-example=").replace(
            "data-hover-for=", "data-example-path=")
        steps = (_("a step to a neighbouring empty square, in any of the 8 directions "
                   "(straight or diagonal, forwards or backwards)") if halma
                 else _("a step to a neighbouring empty hole, in any of the 6 directions "
                        "along the lines"))
        parts = [
            section(_("Goal"), "<p>" + esc(_(
                "Move all your pieces into the camp in the opposite corner (your target camp, "
                "framed in your colour) before the others do.")) + "</p>"),
            section(_("A turn"), "<p>" + esc(_(
                "Move one of your pieces: either {step}, or one or more jumps.").format(
                    step=steps)) + "</p>"),
            section(_("Jumps and jump chains"), "<p>" + esc(_(
                "A jump goes over one neighbouring piece (yours or anyone's) onto the empty "
                "place straight behind it. Jumps may be chained in one turn, and the chain may "
                "stop after any jump. Jumped pieces stay on the board, and a step and jumps are "
                "never mixed in one move. In the picture the piece on {cell} can go to every "
                "ringed place.").format(cell=piece)) + "</p>"
                f"<div class='mg-howto-picture'>{picture}</div>"),
            section(_("Camps and the goal lock"), "<p>" + esc(_(
                "The shaded corners are the camps. A piece may pass through any camp, but once "
                "it has reached its target camp it may only move inside that camp.")) + "</p>"),
            section(_("The end and the fill rule"), self._fill_rule_html()),
        ]
        return "".join(parts)

    def _fill_rule_html(self) -> str:
        """The end of a game under the fill rule in play (the game's, else the app's)."""
        rule = self.game.fill_rule if self.game is not None else self.fill_rule
        pieces = self.game.pieces if self.game is not None else Game(self.board_key, 2).pieces
        if rule == "swap":
            text = _("You win when all your pieces stand in your target camp. If a piece of "
                     "another player stands in your target camp, you may step onto it from a "
                     "neighbouring place outside the camp: the two pieces change places (the "
                     "swap rule of the Masters Games rules of Chinese checkers).")
        elif rule == "literal":
            text = _("You win when all your pieces stand in your target camp. If pieces of "
                     "other players stay in your target camp, you win as soon as every other "
                     "place of that camp holds one of your pieces (David Parlett's rule "
                     "against blocking).")
        else:
            text = _("You win when all your pieces stand in your target camp. If pieces of "
                     "other players stay in your target camp, you also win when every other "
                     "place of that camp holds one of your pieces, but only if each of their "
                     "pieces there has stood in the camp for {turns} of its player's turns, or "
                     "its player has finished: a piece that has simply not left yet does not "
                     "block you. (Halma rules ask players to empty their camp by move 30 with "
                     "10 pieces: about 3 turns a piece.)").format(
                         turns=TURNS_PER_PIECE * pieces)
        return ("<p>" + esc(text) + "</p><p>" + esc(_(
            "Players who finish in the same round share the win.")) + "</p>")
