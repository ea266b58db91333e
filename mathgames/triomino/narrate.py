"""Triomino's game told in words: who starts and why, what a turn did, how a round ended,
and the score sheet.

Pure functions of a :class:`~mathgames.triomino.game.Game` and the players' names, in the
current language; the game page (:mod:`mathgames.triomino.widget`) and a class's table
page (:mod:`mathgames.pages.table`) show and announce them.

>>> from mathgames.triomino.game import Game
>>> game = Game("pressman", 2, seed=3)
>>> names = ["Ann", "Ben"].__getitem__
>>> game.apply(("place", game.legal_placements()[0]))
>>> describe_turn(game, names)  # doctest: +ELLIPSIS
'... placed ... (+...)'
>>> round_summary(game, names)  # the round goes on
[]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mathgames.core.i18n import translator
from mathgames.core.svg import TEXT_PALETTE, esc

if TYPE_CHECKING:
    from mathgames.triomino.game import Game

__all__ = ["describe_start", "describe_turn", "round_summary", "sheet_html", "summary_html"]

_ = translator("triomino")

Names = Callable[[int], str]


def describe_start(game: Game, name: Names) -> str:
    """Who starts the round, and why: the draws for the start if there were any, else the
    starting tile while it is still to be placed ("" after that)."""
    starter = name(game.starter)
    if game.start_draws:
        drawn = ", ".join(f"{name(p)} {tile}" for p, tile in game.start_draws)
        return _("Drawing for the start: {list}. Starting player: {name}.").format(
            list=drawn, name=starter)
    if game.start_tiles and game.is_start_move:
        return _("Starting player: {name}, with {tile}.").format(name=starter,
                                                                 tile=game.start_tiles[0])
    return ""


def describe_turn(game: Game, name: Names, turn: int | None = None,
                  end: int | None = None, start: int = 0) -> str:
    """What happened in one turn (the latest by default) in words: the tiles drawn, the tile
    placed or the pass, and the points the whole turn brought; "" before the first turn.
    ``end``: read the game's log only up to there (a turn as it was told then); ``start``:
    tell only the turn's actions from there on (its draws told already)."""
    log = game.log[:end]
    # the turn's actions are together in the log; a new round goes on counting from the
    # turn the last one ended in, so a turn's number may come twice: the later is meant
    last = next((i for i in range(len(log) - 1, -1, -1)
                 if log[i][1] >= 0 and (turn is None or log[i][0] == turn)), None)
    if last is None:
        return ""
    turn, first = log[last][0], last
    while first > 0 and log[first - 1][0] == turn and log[first - 1][1] >= 0:
        first -= 1
    in_round = 1 + sum(1 for item in log[:first] if item[2] == "round_end")
    items = log[max(first, start):last + 1]
    if not items:
        return ""
    player = items[0][1]
    who = name(player)
    draws = sum(1 for item in items if item[2] == "draw")
    parts = []
    if draws:
        parts.append(_.ngettext("{name} drew {n} tile", "{name} drew {n} tiles", draws)
                     .format(name=who, n=draws))
    placed = [item for item in items if item[2] == "place"]
    points = sum(e.points for e in game.sheet if e.turn == turn and e.player == player
                 and e.round == in_round)
    if placed:
        parts.append(_("{name} placed {tile} ({points:+d})").format(
            name=who, tile=placed[0][3], points=points))
    elif any(item[2] == "pass" for item in items):
        parts.append(_("{name} passed ({points:+d})").format(name=who, points=points))
    return "; ".join(parts)


def round_summary(game: Game, name: Names) -> list[str]:
    """How the last round ended (who went out, or why it is blocked), the points left in
    each hand, and the winners once the game is over; nothing while a round is played."""
    if game.phase == "play" or not game.round_ends:
        return []
    how = game.round_ends[-1]
    winners = ", ".join(name(p) for p in game.round_winners[-1])
    if how == "out":
        text = _("Round {n} is over: {names} went out.")
    elif how == "blocked":
        text = _("Round {n} is blocked: nobody can place and the pool is empty; "
                 "{names} won it.")
    else:
        text = _("Round {n} ends: {names} reached the target.")
    lines = [text.format(n=game.round, names=winners)]
    left = ", ".join(f"{name(p)}: {game.hand_value(p)}" for p in range(game.players))
    lines.append(_("Points left in hand: {list}").format(list=left))
    if game.phase == "game_over":
        names = ", ".join(name(p) for p in game.winners)
        lines.append(_.ngettext("Game over. The winner: {names}.",
                                "Game over. The winners: {names}.",
                                len(game.winners)).format(names=names))
    return lines


def summary_html(game: Game, name: Names) -> str:
    """:func:`round_summary` as a highlighted box ("" while a round is played), with what
    to do next when the game goes on."""
    lines = round_summary(game, name)
    if not lines:
        return ""
    if game.phase != "game_over":
        lines.append(_("Press Next round to deal again."))
    body = "".join(f"<div>{esc(line)}</div>" for line in lines)
    return (f"<div style='font-size:1.2em;background:#fff7d6;padding:0.5em;"
            f"border-radius:6px'>{body}</div>")


def sheet_html(game: Game, name: Names) -> str:
    """The score sheet: each round's entries and total for each player, then the totals
    (without points kept: the tiles each player holds).

    >>> from mathgames.triomino.game import Game
    >>> "Score sheet" in sheet_html(Game("pressman", 2, seed=3), ["Ann", "Ben"].__getitem__)
    True
    """
    names = [name(p) for p in range(game.players)]
    if not game.rules.keep_score:
        counts = "".join(f"<td>{len(h)}</td>" for h in game.hands)
        heads = "".join(f"<th>{esc(n)}</th>" for n in names)
        return (f"<p>{esc(_('No points are kept; the fewest tiles in hand wins.'))}</p>"
                f"<table class='mg-sheet'><tr><th></th>{heads}</tr>"
                f"<tr><th>{esc(_('tiles in hand'))}</th>{counts}</tr></table>")
    head = "".join(f"<th style='padding:0 1em;color:{TEXT_PALETTE[p % len(TEXT_PALETTE)]}'>"
                   f"{esc(n)}</th>" for p, n in enumerate(names))
    rows = []
    for rnd in range(1, game.round + 1):
        cells = []
        for p in range(game.players):
            lines = "".join(f"<div>{esc(e.describe())}</div>" for e in game.entries(rnd, p))
            total = game.round_scores(rnd)[p]
            cells.append(f"<td style='vertical-align:top;padding:0 1em'>{lines}"
                         f"<div style='border-top:1px solid #999'><b>{total}</b></div></td>")
        rows.append(f"<tr><th style='vertical-align:top'>{esc(_('Round {n}').format(n=rnd))}"
                    f"</th>{''.join(cells)}</tr>")
    totals = "".join(f"<td style='padding:0 1em'><b>{s}</b></td>" for s in game.scores)
    rows.append(f"<tr><th>{esc(_('Total'))}</th>{totals}</tr>")
    return (f"<h4 style='margin:0.4em 0'>{esc(_('Score sheet'))}</h4>"
            f"<table class='mg-sheet' style='border-collapse:collapse'>"
            f"<tr><th></th>{head}</tr>{''.join(rows)}</table>")
