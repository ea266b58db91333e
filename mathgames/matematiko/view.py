"""Drawing a Matematiko grid as SVG (pure: state in, markup out).

Cells carry ``data-cell="a1"`` .. ``"e5"`` (column letter, row number), so the
board widget makes them clickable. Full lines show their combination and
points beside the grid; the called number is drawn large above it.

>>> svg = render_grid([5] + [None] * 24, current=7, code="ABC234")
>>> 'data-cell="a1"' in svg and 'data-cell="e5"' in svg
True
>>> 'class="mg-current"' in svg
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from mathgames.core.i18n import translator
from mathgames.core.svg import INK, PALETTE, TEXT_PALETTE, esc, num, svg_document
from mathgames.matematiko.match import cell_name, full_lines
from mathgames.matematiko.odds import CellHint
from mathgames.matematiko.rules import GRID_SIZE

__all__ = ["GRID_ARROWS", "cell_title", "combination_label", "line_label", "render_grid",
           "step_cell"]

_ = translator("matematiko")

CELL = 100
X0, Y0 = 20, 150
SIDE_W = 190
WIDTH = X0 + GRID_SIZE * CELL + SIDE_W
HEIGHT = Y0 + GRID_SIZE * CELL + 95
SCORED = PALETTE[2]
CURSOR = TEXT_PALETTE[1]  # the keyboard frame: 5:1 on white (WCAG non-text contrast)
HINT = PALETTE[0]
MUTED = "#6b6b6b"


def cell_title(name: str, value: int | None) -> str:
    """What a screen reader says of a cell.

    >>> cell_title("b2", 7), cell_title("b2", None)
    ('b2: 7', 'b2: empty')
    """
    if value is None:
        return _("{cell}: empty").format(cell=name)
    return f"{name}: {value}"


#: The arrow keys as (row, column) steps of the keyboard's frame on the grid.
GRID_ARROWS = {"ArrowUp": (-1, 0), "ArrowDown": (1, 0), "ArrowLeft": (0, -1),
               "ArrowRight": (0, 1)}


def step_cell(index: int, key: str) -> int:
    """The cell an arrow ``key`` moves the keyboard's frame to from cell ``index``; it
    wraps around the grid's edges.

    >>> step_cell(12, "ArrowUp"), step_cell(0, "ArrowLeft"), step_cell(24, "ArrowDown")
    (7, 4, 4)
    """
    row, col = divmod(index, GRID_SIZE)
    dr, dc = GRID_ARROWS[key]
    return (row + dr) % GRID_SIZE * GRID_SIZE + (col + dc) % GRID_SIZE


def combination_label(name: str) -> str:
    """The translated name of a combination.

    >>> combination_label("full_house")
    'full house'
    """
    labels = {
        "nothing": _("nothing"),
        "pair": _("one pair"),
        "two_pairs": _("two pairs"),
        "three_of_a_kind": _("three equal numbers"),
        "straight": _("five in a row"),
        "full_house": _("full house"),
        "ones_and_thirteens": _("three 1s and two 13s"),
        "one_and_ten_to_thirteen": _("1, 10, 11, 12, 13"),
        "four_of_a_kind": _("four equal numbers"),
        "four_ones": _("four 1s"),
    }
    return labels[name]


def line_label(index: int) -> str:
    """The translated name of line ``index`` (0-4 rows, 5-9 columns, 10-11 diagonals).

    >>> line_label(0), line_label(6), line_label(11)
    ('row 1', 'column 2', 'diagonal /')
    """
    if index < 5:
        return _("row {n}").format(n=index + 1)
    if index < 10:
        return _("column {n}").format(n=index - 4)
    return _("diagonal {d}").format(d="\\" if index == 10 else "/")


def _cell_xy(index: int) -> tuple[int, int]:
    return X0 + (index % GRID_SIZE) * CELL, Y0 + (index // GRID_SIZE) * CELL


def _fmt(value: Fraction | float) -> str:
    return f"{float(value):.0f}"


def _line_mark(index: int, points: int, combo: str) -> str:
    """One full line's combination and points beside the grid, and a band over the line
    when it scores."""
    grid_end = X0 + GRID_SIZE * CELL
    if index < 5:
        y = Y0 + index * CELL
        band = (f'<rect x="{X0}" y="{y + 4}" width="{GRID_SIZE * CELL}" height="{CELL - 8}"'
                f' rx="14" fill="{SCORED}" fill-opacity="0.22" pointer-events="none"/>')
        tx, ty, anchor = grid_end + 14, y + CELL / 2, "start"
    elif index < 10:
        x = X0 + (index - 5) * CELL
        band = (f'<rect x="{x + 4}" y="{Y0}" width="{CELL - 8}" height="{GRID_SIZE * CELL}"'
                f' rx="14" fill="{SCORED}" fill-opacity="0.22" pointer-events="none"/>')
        tx, ty, anchor = x + CELL / 2, Y0 + GRID_SIZE * CELL + 34, "middle"
    else:
        a, b = ((X0, Y0), (grid_end, Y0 + GRID_SIZE * CELL)) if index == 10 else (
            (grid_end, Y0), (X0, Y0 + GRID_SIZE * CELL))
        band = (f'<line x1="{a[0]}" y1="{a[1]}" x2="{b[0]}" y2="{b[1]}" stroke="{SCORED}"'
                f' stroke-opacity="0.32" stroke-width="26"'
                f' stroke-linecap="round" pointer-events="none"/>')
        if index == 10:
            tx, ty, anchor = grid_end + 14, Y0 + GRID_SIZE * CELL + 34, "start"
        else:
            tx, ty, anchor = grid_end + 14, Y0 - 26, "start"
    label = combination_label(combo)
    size = 13 if 5 <= index < 10 else 15
    return (
        (band if points else "")
        + f'<g class="mg-line-score" data-line="{index}" data-points="{points}"'
        f' data-combination="{esc(combo)}" pointer-events="none">'
        f'<text x="{num(tx)}" y="{num(ty)}" text-anchor="{anchor}" font-size="30"'
        f' font-weight="bold" fill="{SCORED if points else MUTED}">{points}</text>'
        f'<text x="{num(tx)}" y="{num(ty + 22)}" text-anchor="{anchor}" font-size="{size}"'
        f' fill="{INK if points else MUTED}">{esc(label)}</text></g>'
    )


#: The called number's card, centred over the grid's middle column.
CARD_X = X0 + 3 * CELL - 50
#: Room for the player's name, left of that card.
NAME_ROOM = CARD_X - X0 - 10
#: The widest a bold letter is, as a share of its height.
_BOLD_WIDTH = 0.7


def _name_text(player: str) -> str:
    """The player's name above the grid, fitted into :data:`NAME_ROOM`: 24 units high
    while it fits (a bold letter is at most :data:`_BOLD_WIDTH` of its height wide), smaller
    for a long name down to 16, then squeezed to the room (a match allows 40 characters).

    >>> 'font-size="24"' in _name_text("Ann"), "textLength" in _name_text("Ann")
    (True, False)
    >>> 'font-size="16"' in _name_text("W" * 40), 'textLength="240"' in _name_text("W" * 40)
    (True, True)
    """
    width = _BOLD_WIDTH * len(player)  # the name's width for each unit of its height
    size = max(16, min(24, int(NAME_ROOM / width)))
    squeeze = (f' textLength="{NAME_ROOM}" lengthAdjust="spacingAndGlyphs"'
               if width * size > NAME_ROOM else "")
    return (f'<text class="mg-player-name" x="{X0}" y="106" font-size="{size}"'
            f' font-weight="bold" fill="{PALETTE[0]}"{squeeze}>{esc(player)}</text>')


def render_grid(grid: Sequence[int | None], current: int | None = None,
                cursor: int | None = None, hints: Mapping[int, CellHint] | None = None,
                code: str | None = None, player: str | None = None,
                placing: bool = True, calls: int | None = None,
                code_label: str | None = None, card_box: bool = True) -> str:
    """One player's grid as SVG.

    ``current`` is the number to place (drawn large); ``placing`` says whether
    this player still has to place it (empty cells then show it on hover);
    ``cursor`` outlines the keyboard's cell; ``hints`` writes, in each empty
    cell, the expected final points of its row (→), column (↓) and diagonals (↘↙).
    ``code`` is drawn under ``code_label`` ("Game code" unless a class page names it).
    Without ``card_box`` the header has no box for the number to place (a finished
    grid shown on the results).

    >>> "mg-current-card" in render_grid([None] * 25, placing=False, card_box=False)
    False
    """
    parts = [f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>']
    scored = full_lines(grid)
    total = sum(line.points for _index, line in scored)
    for index, line in scored:
        parts.append(_line_mark(index, line.points, line.combination))
    best = None
    if hints:
        best_value = max(h.total for h in hints.values())
        best = {cell for cell, h in hints.items() if h.total == best_value}
    for index in range(GRID_SIZE * GRID_SIZE):
        x, y = _cell_xy(index)
        name = cell_name(index)
        value = grid[index]
        parts.append(
            f'<rect data-cell="{name}" x="{x + 3}" y="{y + 3}" width="{CELL - 6}"'
            f' height="{CELL - 6}" rx="8" fill="#ffffff"'
            f' fill-opacity="{"1" if value is None else "0"}" stroke="{INK}"'
            f' stroke-width="2"><title>{esc(cell_title(name, value))}</title></rect>')
        if value is not None:
            parts.append(
                f'<text class="mg-number" data-for="{name}" x="{x + CELL / 2}" y="{y + 70}"'
                f' text-anchor="middle" font-size="54" font-weight="bold" fill="{INK}"'
                f' pointer-events="none">{value}</text>')
            continue
        if current is not None and placing:
            parts.append(
                f'<text data-hover-for="{name}" x="{x + CELL / 2}" y="{y + 70}"'
                f' text-anchor="middle" font-size="54" font-weight="bold" fill="{HINT}"'
                f' fill-opacity="0.45">{current}</text>')
        if hints and index in hints:
            h = hints[index]
            rows = [f"→ {_fmt(h.row)}", f"↓ {_fmt(h.column)}"]
            rows += [f"{'↘' if k == 0 and index % 6 == 0 else '↙'} {_fmt(d)}"
                     for k, d in enumerate(h.diagonals)]
            colour = HINT
            if best and index in best:
                parts.append(
                    f'<rect x="{x + 7}" y="{y + 7}" width="{CELL - 14}" height="{CELL - 14}"'
                    f' rx="6" fill="none" stroke="{SCORED}" stroke-width="5"'
                    f' pointer-events="none" class="mg-best-hint"/>')
            for k, text in enumerate(rows):
                parts.append(
                    f'<text class="mg-hint" x="{x + 10}" y="{y + 24 + k * 19}" font-size="17"'
                    f' fill="{colour}" pointer-events="none">{esc(text)}</text>')
    if cursor is not None:
        x, y = _cell_xy(cursor)
        parts.append(f'<rect class="mg-cursor" x="{x}" y="{y}" width="{CELL}" height="{CELL}"'
                     f' rx="10" fill="none" stroke="{CURSOR}" stroke-width="6"'
                     f' pointer-events="none"/>')
    # the header: code and player on the left, the called number, the total on the right
    # (its small labels at 26 units: about 12 px on a phone, where the grid is 390 px wide)
    if code:
        parts.append(f'<text x="{X0}" y="32" font-size="26" fill="{MUTED}">'
                     f'{esc(code_label or _("Game code"))}</text>')
        parts.append(f'<text class="mg-code" x="{X0}" y="70" font-size="36" font-weight="bold"'
                     f' letter-spacing="2" fill="{INK}">{esc(code)}</text>')
    if player:
        parts.append(_name_text(player))
    if calls is not None:
        parts.append(f'<text x="{X0}" y="138" font-size="26" fill="{MUTED}">'
                     f'{esc(_("Number {k} of 25").format(k=calls))}</text>')
    if card_box or current is not None:
        parts.append(f'<rect class="mg-current-card" x="{num(CARD_X)}" y="12" width="100"'
                     f' height="120" rx="10"'
                     f' fill="{"#fff8e6" if current is not None else "#f4f4f4"}"'
                     f' stroke="{INK}" stroke-width="3"/>')
        parts.append(f'<text class="mg-current" x="{num(CARD_X + 50)}" y="96"'
                     f' text-anchor="middle" font-size="72" font-weight="bold" fill="{INK}">'
                     f'{"" if current is None else current}</text>')
    parts.append(f'<text x="{WIDTH - 20}" y="44" text-anchor="end" font-size="26"'
                 f' fill="{INK}">{esc(_("Total"))}</text>')
    parts.append(f'<text class="mg-total-svg" data-total="{total}" x="{WIDTH - 20}" y="100"'
                 f' text-anchor="end" font-size="54" font-weight="bold" fill="{INK}">'
                 f'{total}</text>')
    return svg_document(WIDTH, HEIGHT, "".join(parts), title=_("Matematiko grid"))
