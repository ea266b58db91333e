"""Drawing a position as SVG (pure: a game and what is highlighted in, a string out).

Every cell is a ``<g data-cell="name">`` (clickable in the board widget). Each
player's pieces have a colour-blind-safe colour *and* a shape of their own
(:data:`SHAPES`). Home camps are shaded in their owner's colour. When a piece is
selected, its destinations are ringed, and each destination carries an overlay
``<g data-hover-for="dest">`` that draws the jump path while the pointer is
over it; the destination under the keyboard cursor shows its path always.

>>> from mathgames.halma.game import Game
>>> svg = render(Game("star", 2), selected="c3")
>>> svg.startswith("<svg") and svg.count('data-cell="') == 121
True
>>> svg.count('data-hover-for="')   # c3 can jump to g5 and to i5
2
"""

from __future__ import annotations

import math
from functools import cache

from mathgames.core.i18n import translator
from mathgames.core.svg import INK, MUTED, PALETTE, esc, num, svg_document
from mathgames.halma.game import Game, Move
from mathgames.halma.topology import Topology

__all__ = ["ARROWS", "SHAPES", "arrow_step", "arrow_table", "cell_said", "piece_shape",
           "pieces_name", "player_label", "render"]

_ = translator("halma")


def pieces_name(player: int) -> str:
    """A player's pieces, in the current language (a shape for each player, so that
    colour is never the only difference).

    >>> pieces_name(0), pieces_name(2)
    ('blue circles', 'green triangles')
    """
    names = (_("blue circles"), _("orange squares"), _("green triangles"), _("pink diamonds"),
             _("red stars"), _("sky-blue hexagons"))
    return names[player % len(names)]


def player_label(player: int) -> str:
    """``Player 2 (orange squares)`` in the current language.

    >>> player_label(1)
    'Player 2 (orange squares)'
    """
    return _("Player {n} ({pieces})").format(n=player + 1, pieces=pieces_name(player))

#: One shape per player, so pieces are told apart without colour.
SHAPES = ("circle", "square", "triangle", "diamond", "star", "hexagon")

UNIT = 40.0
MARGIN = 34.0
CAMP_GREY = "#d9d9d9"
LIGHT = "#f7f4ec"
LINE = "#8a8a8a"
HIGHLIGHT = "#111111"


def _polygon(cx: float, cy: float, r: float, sides: int, rotation: float,
             inner: float | None = None) -> str:
    points = []
    count = sides * (2 if inner else 1)
    for k in range(count):
        radius = r if not inner or k % 2 == 0 else r * inner
        angle = rotation + 2 * math.pi * k / count
        points.append(f"{num(cx + radius * math.cos(angle))},{num(cy + radius * math.sin(angle))}")
    return " ".join(points)


def piece_shape(player: int, cx: float, cy: float, r: float, extra: str = "") -> str:
    """The SVG element of one piece of ``player`` centred at ``(cx, cy)``, radius about ``r``.

    >>> piece_shape(0, 10, 20, 5)
    '<circle cx="10" cy="20" r="5" fill="#0072B2" stroke="#1b1b1b" stroke-width="2.2"/>'
    >>> piece_shape(1, 10, 20, 5).startswith('<rect')
    True
    """
    colour = PALETTE[player % len(PALETTE)]
    style = f'fill="{colour}" stroke="{INK}" stroke-width="2.2" {extra}'.strip()
    shape = SHAPES[player % len(SHAPES)]
    if shape == "circle":
        return f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" {style}/>'
    if shape == "square":
        s = r * 1.7
        return (f'<rect x="{num(cx - s / 2)}" y="{num(cy - s / 2)}" width="{num(s)}" '
                f'height="{num(s)}" rx="2" {style}/>')
    if shape == "triangle":
        points = _polygon(cx, cy + r * 0.15, r * 1.2, 3, -math.pi / 2)
        return f'<polygon points="{points}" {style}/>'
    if shape == "diamond":
        return f'<polygon points="{_polygon(cx, cy, r * 1.15, 4, -math.pi / 2)}" {style}/>'
    if shape == "star":
        return (f'<polygon points="{_polygon(cx, cy, r * 1.2, 5, -math.pi / 2, 0.5)}" '
                f'{style}/>')
    return f'<polygon points="{_polygon(cx, cy, r * 1.05, 6, 0)}" {style}/>'


class _Frame:
    def __init__(self, game: Game) -> None:
        topo = game.topology
        xs = [p[0] for p in topo.positions]
        ys = [p[1] for p in topo.positions]
        self.x0, self.y1 = min(xs), max(ys)
        pad = 0.5 if topo.key == "halma" else 0.6
        self.width = (max(xs) - min(xs) + 2 * pad) * UNIT + 2 * MARGIN
        self.height = (max(ys) - min(ys) + 2 * pad) * UNIT + 2 * MARGIN
        self.pad = pad

    def xy(self, position: tuple[float, float]) -> tuple[float, float]:
        x, y = position
        return (MARGIN + (x - self.x0 + self.pad) * UNIT, MARGIN + (self.y1 - y + self.pad) * UNIT)


def _path_overlay(frame: _Frame, game: Game, move: Move, colour: str) -> str:
    topo = game.topology
    pts = [frame.xy(topo.position(c)) for c in move.path]
    line = " ".join(f"{num(x)},{num(y)}" for x, y in pts)
    parts = [f'<polyline points="{line}" fill="none" stroke="{HIGHLIGHT}" stroke-width="9" '
             f'stroke-linejoin="round" stroke-linecap="round" opacity="0.55"/>',
             f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="5" '
             f'stroke-linejoin="round" stroke-linecap="round"/>']
    for i, (x, y) in enumerate(pts[1:], 1):
        parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="9" fill="white" '
                     f'stroke="{HIGHLIGHT}" stroke-width="2"/>')
        parts.append(f'<text x="{num(x)}" y="{num(y + 4.5)}" font-size="13" font-weight="bold" '
                     f'text-anchor="middle" fill="{INK}">{i}</text>')
    return "".join(parts)


#: The arrow keys as directions on the board (x right, y up).
ARROWS = {"ArrowUp": (0, 1), "ArrowDown": (0, -1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}


@cache
def arrow_table(topo: Topology) -> dict[tuple[int, str], int]:
    """For each cell and arrow key, the nearest cell roughly in that direction (the
    keyboard's frame moves there; the cell itself where none is). Cached per board.

    >>> from mathgames.halma.topology import get_topology
    >>> halma = get_topology("halma")
    >>> halma.names[arrow_table(halma)[(halma.index("a1"), "ArrowUp")]]
    'a2'
    """
    table = {}
    for c in range(topo.size):
        x0, y0 = topo.positions[c]
        for key, (vx, vy) in ARROWS.items():
            best, best_score = c, math.inf
            for d in range(topo.size):
                dx, dy = topo.positions[d][0] - x0, topo.positions[d][1] - y0
                along = dx * vx + dy * vy
                across = abs(dx * vy - dy * vx)
                if along > 0.1 and across <= along * 1.2:
                    score = math.hypot(dx, dy) + across
                    if score < best_score:
                        best, best_score = d, score
            table[(c, key)] = best
    return table


def arrow_step(topo: Topology, cell: str, key: str) -> str:
    """Where an arrow ``key`` moves the keyboard's frame from ``cell`` (see :func:`arrow_table`).

    >>> from mathgames.halma.topology import get_topology
    >>> arrow_step(get_topology("halma"), "a1", "ArrowRight")
    'b1'
    """
    return topo.names[arrow_table(topo)[(topo.index(cell), key)]]


def cell_said(game: Game | None, cell: str) -> str:
    """What a screen reader hears of a cell under the keyboard's frame: its name, and whose
    piece stands there.

    >>> game = Game.custom("halma", 2, {0: ["a1"], 1: ["b2"]})
    >>> cell_said(game, "b2"), cell_said(game, "c1")
    ('b2: Player 2 (orange squares)', 'c1')
    """
    owner = game.owner(cell) if game is not None else None
    return cell if owner is None else f"{cell}: {player_label(owner)}"


def render(game: Game, selected: str | None = None,
           destinations: dict[str, Move] | None = None, cursor: str | None = None,
           show_last: bool = True, coordinates: bool = True, show_target: bool = True,
           title: str = "") -> str:
    """The SVG of ``game``'s position.

    ``selected``: the cell of the chosen piece; ``destinations``: its moves by
    destination (computed from the game when None and a piece is selected);
    ``cursor``: the keyboard cursor's cell; ``show_last``: trace the last move;
    ``show_target``: ring the target camp of the player to move; ``coordinates``:
    label the columns and rows (the star: its row numbers).
    """
    topo = game.topology
    frame = _Frame(game)
    if selected is not None and destinations is None:
        destinations = game.moves_from(selected)
    destinations = destinations or {}
    owner_of_camp: dict[int, int] = {}
    for p, home in enumerate(game.homes):
        for c in home:
            owner_of_camp[c] = p
    camp_cells = set()
    for corner in topo.corners:
        camp_cells |= topo.camp(corner, game.pieces)
    body = [f'<rect x="0" y="0" width="{num(frame.width)}" height="{num(frame.height)}" '
            f'fill="{LIGHT}" rx="10"/>']
    square = topo.key == "halma"
    half = UNIT / 2
    # the lines of the star board, under the holes
    if not square:
        lines = []
        for c in range(topo.size):
            x1, y1 = frame.xy(topo.positions[c])
            for n in topo.neighbours[c]:
                if n > c:
                    x2, y2 = frame.xy(topo.positions[n])
                    lines.append(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}")
        body.append(f'<path d="{"".join(lines)}" stroke="{LINE}" stroke-width="1.5"/>')
        if coordinates:
            for row in range(1, 18):
                first = topo.index(f"a{row}")
                x, y = frame.xy(topo.positions[first])
                body.append(f'<text x="{num(x - UNIT * 0.62)}" y="{num(y + 5)}" font-size="16" '
                            f'text-anchor="end" fill="{MUTED}">{row}</text>')
    else:
        # column letters and row numbers
        if coordinates:
            for c in range(16):
                x, _y = frame.xy((c, 0))
                body.append(f'<text x="{num(x)}" y="{num(frame.height - 10)}" font-size="17" '
                            f'text-anchor="middle" fill="{INK}">{"abcdefghijklmnop"[c]}</text>')
                _x, y = frame.xy((0, c))
                body.append(f'<text x="{num(MARGIN - 8)}" y="{num(y + 6)}" font-size="17" '
                            f'text-anchor="end" fill="{INK}">{c + 1}</text>')
    last = game.last_move() if show_last else None
    target = game.targets[game.to_move] if show_target else frozenset()
    mover_colour = PALETTE[game.to_move % len(PALETTE)]
    for c in range(topo.size):
        name = topo.names[c]
        x, y = frame.xy(topo.positions[c])
        if c in owner_of_camp:
            fill = _tint(PALETTE[owner_of_camp[c] % len(PALETTE)])
        elif c in camp_cells:
            fill = CAMP_GREY
        else:
            fill = "white" if not square else ("#fbfaf6" if (c + c // 16) % 2 else "#efece3")
        who = game.occ[c] - 1
        label = (_("{cell}: empty").format(cell=name) if who < 0
                 else f"{name}: {player_label(who)}")
        parts = [f'<g data-cell="{esc(name)}"><title>{esc(label)}</title>']
        if square:
            parts.append(f'<rect x="{num(x - half)}" y="{num(y - half)}" width="{num(UNIT)}" '
                         f'height="{num(UNIT)}" fill="{fill}" stroke="{LINE}" stroke-width="1"/>')
        else:
            # the whole space between the holes answers a tap, not only the hole
            parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(UNIT * 0.5)}" '
                         f'fill="transparent"/>')
            parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(UNIT * 0.42)}" '
                         f'fill="{fill}" stroke="{LINE}" stroke-width="1.5"/>')
        if c in target and not game.is_over():
            if square:
                parts.append(f'<rect x="{num(x - half + 4)}" y="{num(y - half + 4)}" '
                             f'width="{num(UNIT - 8)}" height="{num(UNIT - 8)}" fill="none" '
                             f'stroke="{mover_colour}" stroke-width="3" '
                             f'stroke-dasharray="5 4"/>')
            else:
                parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(UNIT * 0.36)}" '
                             f'fill="none" stroke="{mover_colour}" stroke-width="3" '
                             f'stroke-dasharray="5 4"/>')
        if who >= 0:
            parts.append(piece_shape(who, x, y, UNIT * 0.3))
        if name == selected:
            parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(UNIT * 0.46)}" '
                         f'fill="none" stroke="{HIGHLIGHT}" stroke-width="4"/>')
        if name in destinations:
            colour = PALETTE[game.to_move % len(PALETTE)]
            parts.append(f'<circle class="mg-dest" cx="{num(x)}" cy="{num(y)}" '
                         f'r="{num(UNIT * 0.2)}" fill="{colour}" stroke="{HIGHLIGHT}" '
                         f'stroke-width="2.5" stroke-dasharray="4 2"/>')
        if name == cursor:
            parts.append(f'<rect x="{num(x - half + 3)}" y="{num(y - half + 3)}" '
                         f'width="{num(UNIT - 6)}" height="{num(UNIT - 6)}" rx="6" fill="none" '
                         f'stroke="{HIGHLIGHT}" stroke-width="3" stroke-dasharray="6 3"/>')
        parts.append("</g>")
        body.append("".join(parts))
    if last is not None and not last.is_pass and not destinations:
        pts = " ".join("{},{}".format(*map(num, frame.xy(topo.position(c)))) for c in last.path)
        body.append(f'<polyline points="{pts}" fill="none" stroke="{INK}" stroke-width="2.5" '
                    f'stroke-dasharray="7 5" opacity="0.7" pointer-events="none"/>')
    colour = PALETTE[game.to_move % len(PALETTE)]
    for dest, move in destinations.items():
        overlay = _path_overlay(frame, game, move, colour)
        body.append(f'<g data-hover-for="{esc(dest)}">{overlay}</g>')
        if dest == cursor:
            body.append(f'<g class="mg-focus-path" pointer-events="none">{overlay}</g>')
    return svg_document(frame.width, frame.height, "".join(body), title=title)


def _tint(colour: str, amount: float = 0.72) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mix)
