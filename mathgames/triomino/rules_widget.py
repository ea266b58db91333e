"""The Triomino rules editor of the set-up panel, and the rules in words (How to play).

A teacher who chooses "Custom rules" starts from a preset and sets every number and
switch of a :class:`~mathgames.triomino.rules.RuleSet` by hand; :meth:`RulesEditor.rules`
is the rule set they make. :func:`howto_html` is the "How to play" panel for any rule
set, with :func:`points_html`, the table of its points.

>>> editor = RulesEditor(); editor.relabel()
>>> editor.base_select.value = "goliath"        # fills in Goliath's numbers
>>> editor.number_inputs["bridge_bonus"].value = 33
>>> rules = editor.rules(); rules.name, rules.bridge_bonus, rules.start_bonus  # Goliath: 0
('custom', 33, 0)
>>> "bridge bonus" in points_html(rules)
True
"""

from __future__ import annotations

import dataclasses
from typing import Any

import ipywidgets as w

from mathgames.core.game_widget import relabel_options
from mathgames.core.i18n import translator
from mathgames.core.svg import esc
from mathgames.core.ui_widget import section
from mathgames.core.widget_looks import DescriptionStyle, shared_look
from mathgames.triomino.rules import PRESETS, RuleSet
from mathgames.triomino.table import ORIGIN, Placement, Table
from mathgames.triomino.tiles import Tile
from mathgames.triomino.view import table_svg

__all__ = ["NUMBER_FIELDS", "SWITCH_FIELDS", "RulesEditor", "field_label", "howto_html",
           "points_html", "preset_label"]

_ = translator("triomino")

#: The rule fields a teacher can set by hand in the set-up panel (numbers).
NUMBER_FIELDS = ("start_bonus", "zero_triple_bonus", "draw_penalty", "max_draws",
                 "failed_draws_penalty", "empty_pool_penalty", "bridge_bonus", "two_sided_bonus",
                 "going_out_bonus", "target_score")
#: ... and switches.
SWITCH_FIELDS = ("keep_score", "start_bonus_needs_triple", "zero_triple_choice", "multi_round",
                 "target_ends_at_once")


def preset_label(name: str) -> str:
    """A preset's name (or ``"custom"``) as the set-up panel shows it, translated.

    >>> preset_label("pressman")
    'Pressman (classic rules)'
    """
    labels = {
        "schmidt": _("Schmidt (Polish rules)"), "pressman": _("Pressman (classic rules)"),
        "goliath": _("Goliath (current rules)"), "family": _("Family (no points)"),
        "solitaire": _("Solitaire"), "custom": _("Custom rules"),
    }
    return labels[name]


def field_label(field: str) -> str:
    """A rule field's label in the editor and the points table, translated.

    >>> field_label("bridge_bonus")
    'bridge bonus'
    """
    labels = {
        "start_bonus": _("start bonus"), "zero_triple_bonus": _("extra for starting with 0-0-0"),
        "draw_penalty": _("penalty per drawn tile"),
        "max_draws": _("draws per turn (0 = until a tile fits)"),
        "failed_draws_penalty": _("penalty when no drawn tile was placed"),
        "empty_pool_penalty": _("penalty when the pool is empty and nothing fits"),
        "bridge_bonus": _("bridge bonus"), "two_sided_bonus": _("two-sided fit bonus"),
        "going_out_bonus": _("going-out bonus"), "target_score": _("game ends at (0 = never)"),
        "keep_score": _("keep score"),
        "start_bonus_needs_triple": _("start bonus only for a triple"),
        "zero_triple_choice": _("may start with 0-0-0 instead"),
        "multi_round": _("play rounds until the target"),
        "target_ends_at_once": _("reaching the target ends the game at once"),
        "hexagons": _("hexagon bonus: one, two, three at once"),
        "draw_when": _("when you may draw"), "place_drawn": _("a drawn tile that fits"),
    }
    return labels[field]


class RulesEditor(w.VBox):
    """The custom rules: a preset to start from (``base_select``; choosing one fills in
    its values), then ``number_inputs`` and ``switch_inputs`` by field name,
    ``hexagon_inputs`` (the bonuses for one, two and three hexagons at once),
    ``draw_when_select`` and ``place_drawn_select``. Labels come with :meth:`relabel`.
    """

    def __init__(self) -> None:
        self.relabelling = False
        # the rows of the form look alike and never change: one layout and style each
        row_layout, row_style = (shared_look(w.Layout, width="34em"),
                                 shared_look(DescriptionStyle, description_width="26em"))
        self.base_select = w.Dropdown(options=[], layout=w.Layout(width="30em"),
                                      style={"description_width": "9em"})
        self.base_select.add_class("mg-base-preset")
        self.number_inputs = {f: w.IntText(layout=row_layout, style=row_style)
                              for f in NUMBER_FIELDS}
        # labelled 1, 2, 3 (hexagons at once) beside the row's label, for screen readers too
        self.hexagon_inputs = [w.IntText(description=str(k),
                                         layout=shared_look(w.Layout, width="7em"),
                                         style=shared_look(DescriptionStyle,
                                                           description_width="initial"))
                               for k in (1, 2, 3)]
        self.hexagon_label = w.HTML()
        self.switch_inputs = {f: w.Checkbox(indent=False) for f in SWITCH_FIELDS}
        self.draw_when_select = w.Dropdown(options=[], layout=shared_look(w.Layout, width="48em"),
                                           style=row_style)
        self.place_drawn_select = w.Dropdown(options=[],
                                             layout=shared_look(w.Layout, width="48em"),
                                             style=row_style)
        for name, box in self.number_inputs.items():
            box.add_class(f"mg-rule-{name.replace('_', '-')}")
        super().__init__([
            self.base_select, *self.number_inputs.values(),
            w.HBox([self.hexagon_label, *self.hexagon_inputs]),
            self.draw_when_select, self.place_drawn_select, *self.switch_inputs.values()],
            layout=w.Layout())
        self.add_class("mg-custom-rules")
        self.base_select.observe(self._base_changed, "value")

    def relabel(self) -> None:
        """Every label in the current language (the choices stay)."""
        self.relabelling = True
        try:
            relabel_options(self.base_select, [(preset_label(n), n) for n in PRESETS],
                            "pressman")
            self.base_select.description = _("Start from")
            for field, box in self.number_inputs.items():
                box.description = field_label(field)
            for field, box in self.switch_inputs.items():
                box.description = field_label(field)
            self.hexagon_label.value = esc(field_label("hexagons"))
            relabel_options(self.draw_when_select,
                            [(_("when you cannot or do not want to place"), "any"),
                             (_("only when you cannot place"), "blocked")], "any")
            self.draw_when_select.description = field_label("draw_when")
            relabel_options(self.place_drawn_select, [(_("may be placed at once"), "may"),
                                                      (_("must be placed at once"), "must")],
                            "may")
            self.place_drawn_select.description = field_label("place_drawn")
        finally:
            self.relabelling = False

    def _base_changed(self, _change: Any) -> None:
        if not self.relabelling:
            self.fill(self.base_select.value)

    def fill(self, name: str) -> None:
        """Show the values of the preset ``name`` (Pressman's for any other name)."""
        rules = PRESETS.get(name, PRESETS["pressman"])
        for field, box in self.number_inputs.items():
            value = getattr(rules, field)
            box.value = 0 if value is None else value
        for k, box in enumerate(self.hexagon_inputs):
            box.value = rules.hexagon_bonuses[k]
        for field, box in self.switch_inputs.items():
            box.value = getattr(rules, field)
        self.draw_when_select.value = rules.draw_when
        self.place_drawn_select.value = rules.place_drawn

    def rules(self) -> RuleSet:
        """The custom rule set shown (ValueError when the values clash)."""
        base = PRESETS[self.base_select.value or "pressman"]
        values: dict[str, Any] = {f: box.value for f, box in self.number_inputs.items()}
        values["max_draws"] = values["max_draws"] or None
        values["target_score"] = values["target_score"] or None
        values.update({f: box.value for f, box in self.switch_inputs.items()})
        values["hexagon_bonuses"] = tuple(box.value for box in self.hexagon_inputs)
        values["draw_when"] = self.draw_when_select.value
        values["place_drawn"] = self.place_drawn_select.value
        if not values["multi_round"] or values["target_score"] is None:
            values["multi_round"] = False
        return dataclasses.replace(base, name="custom", **values)


def points_html(rules: RuleSet) -> str:
    """The "Points" part of the "How to play" panel: the rules' name and a table of what
    each tile, bonus and penalty scores (or that no points are kept).

    >>> "+40" in points_html(PRESETS["pressman"])     # Pressman's bridge bonus
    True
    """
    if not rules.keep_score:
        return f"<p>{esc(_('No points are kept; the fewest tiles in hand wins.'))}</p>"
    name = preset_label(rules.name) if rules.name in (*PRESETS, "custom") else rules.name
    rows = [(_("each tile you place"), _("the sum of its three digits"))]
    rows.append((field_label("start_bonus"), f"+{rules.start_bonus}"
                 + (f" ({field_label('start_bonus_needs_triple')})"
                    if rules.start_bonus_needs_triple else "")))
    if rules.zero_triple_bonus:
        rows.append((field_label("zero_triple_bonus"), f"+{rules.zero_triple_bonus}"))
    rows.append((field_label("bridge_bonus"), f"+{rules.bridge_bonus}"))
    if rules.two_sided_bonus:
        rows.append((field_label("two_sided_bonus"), f"+{rules.two_sided_bonus}"))
    rows.append((field_label("hexagons"), " / ".join(f"+{b}" for b in rules.hexagon_bonuses)))
    rows.append((field_label("going_out_bonus"), f"+{rules.going_out_bonus}"))
    rows.append((field_label("draw_penalty"), f"−{rules.draw_penalty}"))
    rows.append((field_label("max_draws"), str(rules.max_draws or 0)))
    rows.append((field_label("failed_draws_penalty"), f"−{rules.failed_draws_penalty}"))
    rows.append((field_label("empty_pool_penalty"), f"−{rules.empty_pool_penalty}"))
    rows.append((field_label("target_score"), str(rules.target_score or 0)))
    body = "".join(f"<tr><td>{esc(a)}</td><td><b>{esc(b)}</b></td></tr>" for a, b in rows)
    return (f"<p>{esc(_('Rules: {name}').format(name=name))}</p>"
            f"<table class='mg-howto-points'>{body}</table>")


def howto_html(rules: RuleSet) -> str:
    """The "How to play" panel for ``rules``: goal, a turn, what is legal (a picture drawn
    by the table's own view) and the points (:func:`points_html`), read from the rule set.

    >>> html = howto_html(PRESETS["family"])
    >>> "Where the tile 1-3-4 fits" in html and "No points are kept" in html
    True
    """
    goal = (_("Place your tiles on the table before the others do and score the most "
              "points.") if rules.keep_score
            else _("Place your tiles on the table: whoever has the fewest tiles left "
                   "wins."))
    turn = _("Pick a tile from your rack (tap it, or press its number 1-9), turn it "
             "with Rotate (r), then tap a dashed place next to the tiles (or move the "
             "frame with the arrow keys and press Enter). If none of your tiles fits, "
             "draw from the pool; if still nothing fits, pass.")
    legal = _("A new tile touches the table along an edge, and at each of its corners "
              "it shows the same digit as every tile that meets there. In the picture "
              "the tile 1-3-4 fits on the green places (↻: turned another way).")
    table = Table([Placement(Tile.parse("1-2-3"), ORIGIN, 0)])
    tile = Tile.parse("1-3-4")
    hints = {}
    for placement in table.placements_for([tile]):
        hints[placement.cell] = hints.get(placement.cell, False) or placement.rotation == 0
    picture = table_svg(table, clickable=table.frontier(), hints=hints,
                        title=_("Where the tile 1-3-4 fits"))
    picture = picture.replace("data-cell=", "data-example=")
    parts = [section(_("Goal"), f"<p>{esc(goal)}</p>"),
             section(_("A turn"), f"<p>{esc(turn)}</p>"),
             section(_("What is legal"),
                     f"<p>{esc(legal)}</p><div class='mg-howto-picture'>{picture}</div>")]
    parts.append(section(_("Points"), points_html(rules)))
    return "".join(parts)
