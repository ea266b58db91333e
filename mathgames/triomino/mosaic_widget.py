"""The mosaic app: build figures from face-down Triomino tiles, or fill a silhouette.

A thin widget around :class:`mathgames.triomino.mosaic.Mosaic` (the rules) and
:func:`mathgames.triomino.mosaic_view.mosaic_svg` (the picture), on the shared
:class:`mathgames.core.board_widget.BoardWidget`.

>>> app = MosaicApp()
>>> app.choose_puzzle("honeycomb")
>>> for cell in app.target_ids():
...     app.board.click_cell(cell)
>>> app.solved, "6" in app.status.value
(True, True)
>>> app.undo_button.click(); app.solved
False
"""

from __future__ import annotations

import base64
import json
from typing import Any

import ipywidgets as w

from mathgames.core.board_widget import BoardWidget
from mathgames.core.errors import CorruptSaveError, MathgamesError, quoted
from mathgames.core.i18n import on_language_change, translator
from mathgames.core.resume_widget import ResumeBanner
from mathgames.core.svg import PALETTE_NAMES, esc
from mathgames.triomino.geometry import Cell, cell_id, parse_cell
from mathgames.triomino.mosaic import COLOURS, MAX_TILES, Mosaic, corner_vector, from_rows
from mathgames.triomino.mosaic_gallery import GALLERY, Puzzle
from mathgames.triomino.mosaic_view import figure_png, figure_svg, mosaic_svg

__all__ = ["MosaicApp"]

_ = translator("mosaic")

STORAGE_KEY = "mosaic"
#: The board: columns x rows of triangles.
BOARD = (28, 12)
#: Keys that move the selection, like a hexagon on the keyboard: q e / a d / z c.
MOVE_KEYS = {"a": (-2, 0), "d": (2, 0), "q": (-1, -1), "e": (1, -1), "z": (-1, 1), "c": (1, 1)}
ARROWS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}
MAX_UPLOAD = 100_000


def _colour_label(index: int) -> str:
    names = {
        "blue": _("blue"), "orange": _("orange"), "green": _("green"), "pink": _("pink"),
        "red": _("red"), "sky blue": _("sky blue"),
    }
    return _("plain back") if index == 0 else names[PALETTE_NAMES[index - 1]]


def _level_label(level: str) -> str:
    return {"easy": _("easy"), "medium": _("medium"), "hard": _("hard"),
            "own": _("your own")}[level]


def _on_board(cells: Any) -> bool:
    return all(0 <= x < BOARD[0] and 0 <= y < BOARD[1] for x, y in cells)


def _data_link(data: bytes, mime: str, filename: str, text: str, css: str) -> str:
    encoded = base64.b64encode(data).decode("ascii")
    return (f'<a class="{css}" download="{esc(filename)}" href="data:{mime};base64,{encoded}">'
            f"⬇ {esc(text)}</a>")


class MosaicApp(w.VBox):
    """Free mosaic and silhouette puzzles.

    Parts for tests and pages: ``board``, ``mode_select`` (free or a puzzle),
    ``tool_select`` (place or select), ``colour_select``, ``undo_button``,
    ``clear_button``, ``rotate_button``, ``mirror_button``, ``delete_button``,
    ``select_all_button``, ``move_buttons`` (by key of :data:`MOVE_KEYS`),
    ``make_puzzle_button``, ``upload``, ``downloads`` (links to JSON, SVG and PNG
    files), ``status``, ``message``; the figure itself is ``mosaic``. ``puzzle`` opens a
    gallery puzzle at once; ``storage_key`` names the browser's kept copy (a lesson uses its
    own, so that it does not offer the mosaic page's figure).
    """

    def __init__(self, puzzle: str | None = None, storage_key: str = STORAGE_KEY) -> None:
        self.mosaic = Mosaic()
        self.puzzles: list[Puzzle] = list(GALLERY)
        self.puzzle: Puzzle | None = None
        self.offset: tuple[int, int] = (0, 0)
        self.cursor: Cell = (BOARD[0] // 2, BOARD[1] // 2)
        self.solved = False
        self._relabeling = False
        self._last_upload: str | None = None
        self.title = w.HTML()
        self.mode_select = w.Dropdown(layout=w.Layout(width="24em"))
        self.mode_select.add_class("mg-mosaic-mode")
        self.tool_select = w.ToggleButtons(options=[("", "place"), ("", "select")], value="place")
        self.tool_select.add_class("mg-mosaic-tool")
        self.colour_select = w.Dropdown(layout=w.Layout(width="20em"), value=None)
        self.colour_select.add_class("mg-mosaic-colour")
        self.board = BoardWidget(storage_key=storage_key)
        self.board.layout.max_width = "980px"
        self.board.add_class("mg-mosaic-board")
        self.resume = ResumeBanner(self.board, self.load)
        self.undo_button = w.Button(icon="undo")
        self.clear_button = w.Button(icon="trash")
        self.rotate_button = w.Button(icon="repeat")
        self.mirror_button = w.Button(icon="arrows-h")
        self.delete_button = w.Button(icon="remove")
        self.select_all_button = w.Button(icon="object-group")
        self.make_puzzle_button = w.Button(icon="puzzle-piece")
        arrows = {"q": "↖", "e": "↗", "a": "←", "d": "→", "z": "↙", "c": "↘"}
        self.move_buttons = {key: w.Button(description=arrows[key],
                                           layout=w.Layout(width="3.2em"))
                             for key in MOVE_KEYS}
        for key, button in self.move_buttons.items():
            button.add_class(f"mg-move-{key}")
            button.on_click(lambda _b, key=key: self.move_selection(key))
        for css, button in (("undo", self.undo_button), ("clear", self.clear_button),
                            ("rotate", self.rotate_button), ("mirror", self.mirror_button),
                            ("delete", self.delete_button), ("select-all", self.select_all_button),
                            ("make-puzzle", self.make_puzzle_button)):
            button.add_class(f"mg-mosaic-{css}")
            button.layout.width = "auto"
        self.upload = w.FileUpload(accept=".json,application/json", multiple=False)
        self.upload.add_class("mg-mosaic-upload")
        self.downloads = w.HTML()
        self.downloads.add_class("mg-mosaic-downloads")
        self.status = w.HTML()
        self.status.add_class("mg-status")
        self.message = w.HTML()
        self.message.add_class("mg-message")
        self.help = w.HTML()
        self.help.add_class("mg-mosaic-help")
        edit_row = w.HBox([self.tool_select, self.colour_select, self.undo_button,
                           self.clear_button])
        selection_row = w.HBox([self.select_all_button, self.rotate_button, self.mirror_button,
                                *self.move_buttons.values(), self.delete_button])
        file_row = w.HBox([self.make_puzzle_button, self.upload, self.downloads])
        for row in (edit_row, selection_row, file_row):
            row.layout.flex_flow = "row wrap"
            row.layout.align_items = "center"
        super().__init__([self.title, self.mode_select, self.resume, self.status, self.board,
                          self.message, edit_row, selection_row, file_row, self.help])
        self.add_class("mg-mosaic")
        self.add_class("mg-app")  # the game pages' sizes: labels and buttons fit, 16 px text
        self.board.on_cell_click(self._on_cell)
        self.board.on_key(self._on_key)
        self.undo_button.on_click(lambda _b: self.undo())
        self.clear_button.on_click(lambda _b: self._act(self.mosaic.clear))
        self.rotate_button.on_click(lambda _b: self._act_on_selection(
            self.mosaic.rotate_selection))
        self.mirror_button.on_click(lambda _b: self._act_on_selection(
            self.mosaic.mirror_selection))
        self.delete_button.on_click(lambda _b: self._act(self.mosaic.remove_selection))
        self.select_all_button.on_click(lambda _b: self.select_all())
        self.make_puzzle_button.on_click(lambda _b: self.make_puzzle())
        self.mode_select.observe(self._mode_changed, names="value")
        self.upload.observe(self._uploaded, names="value")
        on_language_change(self._language_changed)
        self._relabel()
        if puzzle is not None:
            self.choose_puzzle(puzzle)
        self._refresh()

    # -- labels -----------------------------------------------------------------------------
    def _relabel(self) -> None:
        self._relabeling = True
        try:
            self.title.value = f"<h3>{esc(_('Mosaic from face-down tiles'))}</h3>"
            current = self.mode_select.value
            options = [(_("Free mosaic"), "free")] + [
                (f"{p.title} ({_level_label(p.level)}, {p.size})", f"{p.key}#{n}")
                for n, p in enumerate(self.puzzles)]
            self.mode_select.options = options
            self.mode_select.value = current if current in {v for _l, v in options} else "free"
            self.mode_select.description = _("Puzzle")
            self.tool_select.options = [(_("Place / remove"), "place"), (_("Select"), "select")]
            colour = self.colour_select.value or 0
            self.colour_select.options = [(_colour_label(k), k) for k in range(COLOURS)]
            self.colour_select.value = colour
            self.colour_select.description = _("Colour")
            self.undo_button.description = _("Undo")
            self.clear_button.description = _("Clear")
            self.rotate_button.description = _("Rotate")
            self.mirror_button.description = _("Mirror")
            self.delete_button.description = _("Remove selection")
            self.select_all_button.description = _("Select all")
            self.make_puzzle_button.description = _("Make a puzzle of this figure")
            self.upload.description = _("Load (JSON)")
            for key, button in self.move_buttons.items():
                button.tooltip = _("Move the selection (key {key})").format(key=key)
            self.help.value = "<p>" + esc(_(
                "Click an empty triangle to place a tile, click a tile to take it off. "
                "With Select, click tiles to choose them, then rotate, mirror or move them. "
                "Keys: arrows move the cursor, Enter places or selects, R rotates, M mirrors, "
                "Q E A D Z C move the selection, U undoes.")) + "</p>"
            self.board.label = _("Mosaic board: a triangular lattice")
        finally:
            self._relabeling = False

    def _language_changed(self, _code: str) -> None:
        self._relabel()
        self._refresh()

    # -- modes and puzzles ------------------------------------------------------------------
    def _mode_changed(self, change: dict[str, Any]) -> None:
        if self._relabeling:
            return
        value = change["new"]
        if value == "free":
            self.puzzle = None
        else:
            self.puzzle = self.puzzles[int(value.split("#", 1)[1])]
            self._place_outline()
        self.mosaic = Mosaic()
        self.solved = False
        self.message.value = ""
        self._refresh()

    def _place_outline(self) -> None:
        assert self.puzzle is not None
        cells = self.puzzle.outline
        width = max(x for x, _ in cells) + 1
        height = max(y for _, y in cells) + 1
        dx, dy = max(0, (BOARD[0] - width) // 2), max(0, (BOARD[1] - height) // 2)
        if (dx + dy) % 2:
            dx += 1 if dx + width < BOARD[0] else -1
        self.offset = (dx, dy)

    def choose_puzzle(self, key: str) -> None:
        """Show the gallery puzzle called ``key`` (an empty board around its outline)."""
        for n, item in enumerate(self.puzzles):
            if item.key == key:
                self.mode_select.value = f"{item.key}#{n}"
                return
        raise ValueError(f"no puzzle called {quoted(key)}")

    def target(self) -> frozenset[Cell]:
        """The cells the current puzzle asks to fill, where they are on the board."""
        if self.puzzle is None:
            return frozenset()
        dx, dy = self.offset
        return frozenset((x + dx, y + dy) for x, y in self.puzzle.outline)

    def target_ids(self) -> list[str]:
        """The board's cell ids of the current puzzle, in the stored solution's order."""
        if self.puzzle is None:
            return []
        dx, dy = self.offset
        return [cell_id((x + dx, y + dy)) for x, y in map(parse_cell, self.puzzle.solution)]

    def make_puzzle(self) -> None:
        """Turn the figure on the board into a new puzzle and open it."""
        try:
            made = Puzzle.from_figure(self.mosaic.figure, key=f"own{len(self.puzzles)}")
        except MathgamesError as error:
            self._say(self._explain(error))
            return
        self.puzzles.append(made)
        self._relabel()
        self.mode_select.value = f"{made.key}#{len(self.puzzles) - 1}"
        self._say(_.ngettext("Your figure is now a puzzle of {n} triangle.",
                             "Your figure is now a puzzle of {n} triangles.", made.size
                             ).format(n=made.size), error=False)

    # -- playing ----------------------------------------------------------------------------
    def _say(self, text: str, error: bool = True) -> None:
        colour = "#b00020" if error else "#1b5e20"
        self.message.value = f'<span style="color:{colour};font-size:16px">{esc(text)}</span>'

    def _explain(self, error: MathgamesError) -> str:
        text = str(error)
        if "nothing is selected" in text:
            return _("Nothing is selected: choose Select, then click tiles.")
        if "tiles are used" in text:
            return _("All 56 tiles are used.")
        if "would land on" in text:
            return _("The selection would land on another tile.")
        if "nothing to undo" in text:
            return _("There is nothing to undo.")
        if "one piece" in text:
            return _("A puzzle must be one piece: every triangle joined edge to edge.")
        if "at least one" in text:
            return _("Place some triangles first.")
        return _("That is not possible here.")

    def _act(self, action: Any, *args: Any) -> bool:
        try:
            action(*args)
        except MathgamesError as error:
            self._say(self._explain(error))
            self._refresh()
            return False
        self.message.value = ""
        self._refresh()
        return True

    def _act_on_selection(self, action: Any, *args: Any) -> bool:
        """Move, turn or mirror the selection, and take it back if it would leave the board."""
        before = set(self.mosaic.selection)
        if not self._act(action, *args):
            return False
        if _on_board(self.mosaic.cells):
            return True
        self.mosaic.undo()
        self.mosaic.selection = before
        self._say(_("That would leave the board."))
        self._refresh()
        return False

    def _on_cell(self, text: str) -> None:
        try:
            cell = parse_cell(text)
        except MathgamesError:
            return
        self.cursor = cell
        if self.tool_select.value == "select":
            if cell in self.mosaic.cells:
                self._act(self.mosaic.toggle_selected, cell)
            else:
                self._act(lambda: self.mosaic.select(()))
        elif cell in self.mosaic.cells:
            self._act(self.mosaic.remove, cell)
        else:
            self._act(self.mosaic.place, cell, self.colour_select.value or 0)

    def _on_key(self, key: str) -> None:
        if key in ARROWS:
            dx, dy = ARROWS[key]
            x, y = self.cursor
            self.cursor = ((x + dx) % BOARD[0], (y + dy) % BOARD[1])
            self._refresh()
        elif key in ("Enter", " "):
            self._on_cell(cell_id(self.cursor))
        elif key.lower() in MOVE_KEYS:
            self.move_selection(key.lower())
        elif key.lower() == "r":
            self._act_on_selection(self.mosaic.rotate_selection)
        elif key.lower() == "m":
            self._act_on_selection(self.mosaic.mirror_selection)
        elif key.lower() == "s":
            self.tool_select.value = "select" if self.tool_select.value == "place" else "place"
        elif key in ("Backspace",) or key.lower() == "u":
            self.undo()
        elif key == "Delete":
            self._act(self.mosaic.remove_selection)
        elif key == "Escape":
            self._act(lambda: self.mosaic.select(()))

    def move_selection(self, key: str) -> None:
        """Move the selection one step: ``key`` is one of q e a d z c (see :data:`MOVE_KEYS`)."""
        self._act_on_selection(self.mosaic.move_selection, *MOVE_KEYS[key])

    def select_all(self) -> None:
        """Select every tile (and switch to the Select tool)."""
        self.tool_select.value = "select"
        self._act(self.mosaic.select, list(self.mosaic.cells))

    def undo(self) -> None:
        """Take back the last change."""
        self._act(self.mosaic.undo)

    # -- the picture and the status ----------------------------------------------------------
    def _refresh(self) -> None:
        target = self.target()
        cells = self.mosaic.cells
        self.solved = bool(target) and frozenset(cells) == target
        # the kept copy first (see BoardWidget: a reload must find the tile kept)
        saved = self.save()
        self.board.storage_value = saved
        self.board.svg = mosaic_svg(cells, board=BOARD, outline=target,
                                    selection=self.mosaic.selection, cursor=self.cursor,
                                    title=_("Mosaic"))
        # the pictures to save before the line that says "filled": a click on "Picture"
        # right after it reads must save what that line describes
        self._update_downloads(saved)
        used = _("Tiles used: {n} of {total}").format(n=len(cells), total=MAX_TILES)
        parts = [f"<b>{esc(used)}</b>"]
        if self.puzzle is not None:
            inside = len(set(cells) & target)
            outside = len(cells) - inside
            if self.solved:
                parts.append('<span class="mg-solved" style="color:#1b5e20;font-weight:bold">'
                             + esc(_.ngettext("Exactly filled, with {n} triangle!",
                                              "Exactly filled, with {n} triangles!",
                                              len(cells)).format(n=len(cells)))
                             + "</span>")
            else:
                parts.append(esc(_.ngettext(
                    "{title}: {inside} of {size} triangle filled",
                    "{title}: {inside} of {size} triangles filled", len(target)).format(
                    title=self.puzzle.title, inside=inside, size=len(target))))
                if outside:
                    parts.append(esc(_.ngettext("{n} triangle outside the outline",
                                                "{n} triangles outside the outline",
                                                outside).format(n=outside)))
        self.status.value = '<span style="font-size:17px">' + " · ".join(parts) + "</span>"

    def _update_downloads(self, saved: str) -> None:
        target = self.target()
        cells = self.mosaic.cells
        name = self.puzzle.key if self.puzzle is not None else "mosaic"
        links = [_data_link(saved.encode("utf-8"), "application/json", f"{name}.json",
                            _("Save (JSON)"), "mg-download-json")]
        if cells or target:
            svg = mosaic_svg(cells, board=(0, 0), outline=target, clickable=False,
                             title=_("Mosaic"))
            links.append(_data_link(svg.encode("utf-8"), "image/svg+xml", f"{name}.svg",
                                    _("Picture (SVG)"), "mg-download-svg"))
            links.append(_data_link(figure_png(cells, outline=target), "image/png",
                                    f"{name}.png", _("Picture (PNG)"), "mg-download-png"))
            if target:
                blank = figure_svg(self.puzzle.outline if self.puzzle else (), outline=True)
                links.append(_data_link(blank.encode("utf-8"), "image/svg+xml",
                                        f"{name}-puzzle.svg", _("Empty outline (SVG)"),
                                        "mg-download-outline"))
        self.downloads.value = " &nbsp; ".join(links)

    # -- saving -----------------------------------------------------------------------------
    def save(self) -> str:
        """The figure as JSON, with the puzzle's outline when one is open."""
        data = self.mosaic.to_dict()
        if self.puzzle is not None:
            data["puzzle"] = {"key": self.puzzle.key, "rows": list(self.puzzle.rows),
                              "offset": list(self.offset)}
        return json.dumps(data)

    def load(self, text: str) -> None:
        """Load a figure saved by :meth:`save` (CorruptSaveError, and no change, if bad)."""
        mosaic = Mosaic.from_json(text)
        data = json.loads(text)
        puzzle, offset = None, (0, 0)
        if data.get("puzzle") is not None:
            puzzle, offset = self._read_puzzle(data["puzzle"])
        elif not _on_board(mosaic.cells):  # a figure made elsewhere: move it to the corner
            dx, dy = corner_vector(mosaic.cells)
            mosaic = Mosaic({(x + dx, y + dy): colour for (x, y), colour in mosaic.cells.items()})
        if not _on_board(mosaic.cells):
            raise CorruptSaveError(f"the figure does not fit on the board of "
                                   f"{BOARD[0]} x {BOARD[1]} triangles")
        self.puzzle, self.offset = None, (0, 0)
        self._relabeling = True
        try:
            self.mode_select.value = "free"
        finally:
            self._relabeling = False
        if puzzle is not None:
            known = [n for n, p in enumerate(self.puzzles) if p.rows == puzzle.rows]
            if not known:
                self.puzzles.append(puzzle)
                self._relabel()
                known = [len(self.puzzles) - 1]
            self._relabeling = True
            try:
                self.mode_select.value = f"{self.puzzles[known[0]].key}#{known[0]}"
            finally:
                self._relabeling = False
            self.puzzle, self.offset = self.puzzles[known[0]], offset
        self.mosaic = mosaic
        self.message.value = ""
        self._refresh()

    @staticmethod
    def _read_puzzle(data: Any) -> tuple[Puzzle, tuple[int, int]]:
        if not isinstance(data, dict):
            raise CorruptSaveError("'puzzle' must be an object")
        rows, offset = data.get("rows"), data.get("offset", [0, 0])
        if (not isinstance(rows, list) or not 0 < len(rows) <= BOARD[1]
                or not all(isinstance(r, str) and len(r) <= BOARD[0] and set(r) <= {"#", "."}
                           for r in rows)):
            raise CorruptSaveError("the puzzle's 'rows' must be lines of '#' and '.'")
        if (not isinstance(offset, list) or len(offset) != 2
                or not all(isinstance(v, int) and 0 <= v < BOARD[0] for v in offset)
                or sum(offset) % 2):
            raise CorruptSaveError("the puzzle's 'offset' must be a lattice vector on the board")
        try:
            made = Puzzle.from_figure(from_rows(rows))
        except MathgamesError as error:
            raise CorruptSaveError(f"the puzzle's outline is not a figure: {error}") from None
        if not _on_board({(x + offset[0], y + offset[1]) for x, y in made.outline}):
            raise CorruptSaveError("the puzzle's outline does not fit on the board")
        key = data.get("key")
        if isinstance(key, str) and key.isidentifier() and len(key) <= 20:
            made = Puzzle(key, made.rows, made.solution, "own")
        return made, (offset[0], offset[1])

    def _uploaded(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        content = item.get("content") if isinstance(item, dict) else None
        try:
            raw = bytes(content) if content is not None else b""
            if not raw or len(raw) > MAX_UPLOAD:
                raise CorruptSaveError("the file is empty or too big")
            self.load(raw.decode("utf-8"))
        except (MathgamesError, UnicodeDecodeError) as error:
            self._say(_("This file is not a saved mosaic: {error}").format(error=error))
        else:
            self._say(_("The figure was loaded."), error=False)
