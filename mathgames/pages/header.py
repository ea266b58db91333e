"""The look shared by every page of the app: a header bar and the landing page.

Every page starts with :func:`header`, which shows the app's name (a link back to
the landing page), the page's title and the four languages. The language of a
page comes from ``?lang=`` in its address (Voila hands the query string to the
kernel), and every link of the app carries it on, so a choice made on the landing
page holds on every page.

>>> from mathgames.core.i18n import set_language
>>> old = set_language("pl")
>>> "Matematiko" in landing_html()
True
>>> 'href="matematiko.ipynb?lang=pl"' in landing_html()
True
>>> _ = set_language(old)
"""

from __future__ import annotations

import ipywidgets as w

from mathgames.core.i18n import LANGUAGES, get_language, set_language, translator
from mathgames.core.svg import esc
from mathgames.core.ui_widget import PageHelper
from mathgames.core.widget_looks import built_together
from mathgames.page_list import PAGES, Page, page_path, page_title
from mathgames.site.links import joinable, static_site, static_site_block

__all__ = ["ICONS", "card_html", "header", "header_html", "landing", "landing_html", "link"]

_ = translator("app")


_ICON_TRIOMINO = (
    '<polygon points="20,60 50,8 80,60" fill="#f6e7c1" stroke="#1b1b1b" stroke-width="2"/>'
    '<text x="50" y="24" font-size="11" text-anchor="middle">1</text>'
    '<text x="28" y="56" font-size="11" text-anchor="middle">2</text>'
    '<text x="72" y="56" font-size="11" text-anchor="middle">3</text>'
)
def _mosaic_icon() -> str:
    """The gallery's bird, drawn by the mosaic view, nested in the card's 100 x 70 box."""
    from mathgames.triomino.mosaic_gallery import puzzle
    from mathgames.triomino.mosaic_view import figure_svg

    bird = puzzle("bird").outline
    colours = {cell: 0 for cell in bird} | {(5, 0): 1, (11, 1): 2, (12, 1): 2}
    return figure_svg(colours).replace("<svg ", '<svg x="8" y="6" width="84" height="58" ', 1)


_ICON_MOSAIC = _mosaic_icon()
_ICON_MATEMATIKO = "".join(
    f'<rect x="{22 + 11 * c}" y="{8 + 11 * r}" width="10" height="10" fill="'
    f'{"#E69F00" if r == c else "#ffffff"}" stroke="#1b1b1b" stroke-width="0.8"/>'
    for r in range(5) for c in range(5)
)
_ICON_HALMA = "".join(
    f'<rect x="{25 + 7 * c}" y="{7 + 7 * r}" width="7" height="7" fill="'
    f'{"#cfe3f3" if (r + c) % 2 else "#ffffff"}"/>' for r in range(8) for c in range(8)
) + "".join(
    f'<circle cx="{28.5 + 7 * c}" cy="{59.5 - 7 * r}" r="2.6" fill="#0072B2"/>'
    for r in range(3) for c in range(3 - r)
) + "".join(
    f'<circle cx="{77.5 - 7 * c}" cy="{10.5 + 7 * r}" r="2.6" fill="#E69F00"/>'
    for r in range(3) for c in range(3 - r)
)
_ICON_STAR = (
    '<polygon points="50,4 59,20 77,20 68,35 77,50 59,50 50,66 41,50 23,50 32,35 23,20 41,20" '
    'fill="#f3efe6" stroke="#1b1b1b" stroke-width="1.5"/>'
    '<circle cx="50" cy="12" r="3" fill="#0072B2"/><circle cx="50" cy="58" r="3" fill="#E69F00"/>'
    '<circle cx="29" cy="22" r="3" fill="#009E73"/><circle cx="71" cy="48" r="3" fill="#CC79A7"/>'
)
_ICON_LESSON_TRIO = (
    '<text x="50" y="45" font-size="26" text-anchor="middle" font-weight="bold">n = ?</text>'
)
_ICON_LESSON_MATE = (
    '<text x="50" y="45" font-size="26" text-anchor="middle" font-weight="bold">p = ?</text>'
)
_ICON_LESSON_GEOM = (
    '<text x="50" y="45" font-size="26" text-anchor="middle" font-weight="bold">d = ?</text>'
)
_ICON_CLASS = (
    '<rect x="30" y="8" width="40" height="26" rx="3" fill="#cfe3f3" stroke="#1b1b1b"/>'
    + "".join(f'<circle cx="{22 + 14 * k}" cy="52" r="6" fill="#0072B2"/>' for k in range(5))
)
_ICON_JOIN = (
    '<rect x="34" y="6" width="32" height="58" rx="5" fill="#ffffff" stroke="#1b1b1b" '
    'stroke-width="2"/><text x="50" y="40" font-size="12" text-anchor="middle" '
    'font-weight="bold">K3M9T</text>'
)
_ICON_TABLE = (
    '<circle cx="50" cy="35" r="20" fill="#f3efe6" stroke="#1b1b1b" stroke-width="1.5"/>'
    '<circle cx="50" cy="8" r="5" fill="#0072B2"/><circle cx="50" cy="62" r="5" fill="#E69F00"/>'
    '<circle cx="20" cy="35" r="5" fill="#009E73"/><circle cx="80" cy="35" r="5" '
    'fill="#CC79A7"/>'
)
_ICON_LESSON_MOSAIC = (
    '<text x="50" y="45" font-size="26" text-anchor="middle" font-weight="bold">66</text>'
)
_ICON_DEMO = (
    '<rect x="25" y="10" width="20" height="20" fill="#0072B2"/>'
    '<rect x="55" y="10" width="20" height="20" fill="#ffffff" stroke="#1b1b1b"/>'
    '<rect x="25" y="40" width="20" height="20" fill="#ffffff" stroke="#1b1b1b"/>'
    '<rect x="55" y="40" width="20" height="20" fill="#E69F00"/>'
)

#: The picture on each page's card (an SVG body drawn in a 0 0 100 70 box).
ICONS: dict[str, str] = {
    "triomino.ipynb": _ICON_TRIOMINO,
    "mosaic.ipynb": _ICON_MOSAIC,
    "matematiko.ipynb": _ICON_MATEMATIKO,
    "halma.ipynb": _ICON_HALMA,
    "chinese_checkers.ipynb": _ICON_STAR,
    "teacher.ipynb": _ICON_CLASS,
    "join.ipynb": _ICON_JOIN,
    "table.ipynb": _ICON_TABLE,
    "explore/triomino_combinatorics.ipynb": _ICON_LESSON_TRIO,
    "explore/matematiko_probabilities.ipynb": _ICON_LESSON_MATE,
    "explore/board_geometry.ipynb": _ICON_LESSON_GEOM,
    "explore/mosaics.ipynb": _ICON_LESSON_MOSAIC,
    "board_demo.ipynb": _ICON_DEMO,
}

#: Pages that link to each other from the header bar (a game and its other mode).
RELATED: dict[str, tuple[str, ...]] = {
    "triomino.ipynb": ("mosaic.ipynb",),
    "mosaic.ipynb": ("triomino.ipynb",),
}

STYLE = """
<style>
.mg-page { font-family: "DejaVu Sans", "Segoe UI", Arial, sans-serif; color: #1b1b1b; }
.mg-header { display: flex; flex-wrap: wrap; align-items: center; gap: 12px 24px;
  background: #17324d; color: #fff; padding: 10px 18px; border-radius: 8px; }
.mg-header a { color: #fff; }
.mg-header .mg-home { font-size: 22px; font-weight: bold; text-decoration: none; }
.mg-header .mg-title { font-size: 22px; flex: 1 1 auto; }
.mg-header .mg-langs a { margin-left: 10px; font-size: 16px; text-decoration: none;
  padding: 2px 8px; border-radius: 4px; }
.mg-header .mg-langs a.mg-current { background: #fff; color: #17324d; font-weight: bold; }
.mg-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 18px; margin: 18px 0; }
.mg-card { display: block; border: 2px solid #d0d7de; border-radius: 10px; padding: 12px;
  text-decoration: none; color: #1b1b1b; background: #fff; }
.mg-card:hover, .mg-card:focus { border-color: #0072B2; box-shadow: 0 2px 8px #0002; }
.mg-card svg { width: 100%; height: 120px; background: #f7f9fb; border-radius: 6px; }
.mg-card h3 { margin: 10px 0 4px; font-size: 20px; }
.mg-card p { margin: 0; font-size: 15px; line-height: 1.35; }
.mg-section { font-size: 19px; margin: 22px 0 0; }
.mg-header .mg-related { font-size: 16px; padding: 2px 8px; border: 1px solid #fff;
  border-radius: 4px; text-decoration: none; }
.mg-header .mg-join-link { font-size: 16px; }
.widget-button, .widget-toggle-button { font-size: 15px; }
@media (max-width: 600px) {
  /* a phone: a compact bar, so that the game's board starts high on the screen */
  .mg-header { gap: 2px 12px; padding: 4px 10px; line-height: 1.25; }
  .mg-header .mg-home, .mg-header .mg-title { font-size: 18px; }
  .mg-header .mg-langs a { margin-left: 4px; padding: 2px 6px; }
  /* rows of controls wrap, a button keeps its whole label, and no chart, field or grid of a
     lesson is wider than the screen (nothing to scroll sideways inside the page) */
  .jp-OutputArea-output .widget-hbox { flex-wrap: wrap; }
  .jp-OutputArea-output .widget-button { flex-shrink: 0; max-width: 100%; height: auto;
    min-height: var(--jp-widgets-inline-height); white-space: normal; }
  .jp-OutputArea-output .widget-html-content td, .jp-OutputArea-output .widget-html-content th {
    overflow-wrap: anywhere; }
  /* these keep the widgets' 2 px margin on each side */
  .jp-OutputArea-output .widget-inline-hbox, .jp-OutputArea-output .bqplot.figure {
    max-width: calc(100% - 4px) !important; min-width: 0 !important; box-sizing: border-box; }
}
</style>
"""


def link(notebook: str, language: str | None = None, here: str = "") -> str:
    """The address of a page, relative to the page at ``here``, carrying the language.

    >>> link("halma.ipynb", "cs")
    'halma.ipynb?lang=cs'
    >>> link("index.ipynb", "ru", here="explore/ru/board_geometry.ipynb")
    '../../index.ipynb?lang=ru'
    >>> link("explore/board_geometry.ipynb", "pl", here="explore/board_geometry.ipynb")
    'pl/board_geometry.ipynb?lang=pl'
    """
    language = language or get_language()
    if site := static_site():
        return site.link(notebook, language, here)
    target = page_path(notebook, language).split("/")
    base = here.split("/")[:-1]
    common = 0
    while common < min(len(base), len(target) - 1) and base[common] == target[common]:
        common += 1
    parts = [".."] * (len(base) - common) + target[common:]
    return "/".join(parts) + f"?lang={language}"


def _related_text(notebook: str) -> str:
    return _("Mosaic from the tiles") if notebook == "mosaic.ipynb" else _("Play Triomino")


def header_html(notebook: str, title: str | None = None) -> str:
    """The header bar of a page as HTML (with the app's style sheet).

    ``notebook`` is the page's English path (as in :data:`PAGES`); the bar links
    to the landing page, to the page where a student joins a class (except on that
    page itself) and to this page in each of the four languages.

    >>> 'class="mg-join-link"' in header_html("halma.ipynb")
    True
    >>> 'class="mg-join-link"' in header_html("join.ipynb")
    False
    """
    shown = title if title is not None else page_title(notebook)
    here = page_path(notebook)
    languages = "".join(
        f'<a href="{esc(link(notebook, code, here=here))}" hreflang="{code}" '
        f'class="mg-lang{" mg-current" if code == get_language() else ""}"'
        f' data-lang="{code}">{esc(name)}</a>'
        for code, name in LANGUAGES.items()
    )
    home = link("index.ipynb", here=here)
    related = "".join(
        f'<a class="mg-related" href="{esc(link(other, here=here))}">'
        f"{esc(_related_text(other))}</a>"
        for other in RELATED.get(notebook, ()))
    # every page links to the class's door, except the door itself (its title says it)
    join = ("" if notebook == "join.ipynb" or not joinable() else
            f'<a class="mg-join-link" href="{esc(link("join.ipynb", here=here))}">'
            f'{esc(_("Join a class"))}</a>')
    return (
        STYLE + '<div class="mg-page"><div class="mg-header">'
        f'<a class="mg-home" href="{esc(home)}">{esc(_("Maths games"))}</a>'
        f'<span class="mg-title">{esc(shown)}</span>{related}{join}'
        f'<span class="mg-langs" aria-label="{esc(_("Language"))}">{languages}</span>'
        "</div></div>"
    )


def header(notebook: str, title: str | None = None, language: str | None = None) -> w.VBox:
    """The header bar widget of a page (with the invisible :class:`PageHelper`);
    display it first on every page.

    ``language`` fixes the language of the kernel (the lessons' language copies
    do this); otherwise it comes from ``?lang=`` in the page's address.
    """
    if language is not None:
        set_language(language)
    with built_together():  # none of the three ever changes its layout or style
        bar = w.HTML(header_html(notebook, title))
        bar.add_class("mg-header-widget")
        return w.VBox([bar, PageHelper()])


def card_html(page: Page, note: str = "") -> str:
    """A page's card on a landing page: its picture, title and description (and ``note``).

    >>> 'href="halma.ipynb?lang=' in card_html(PAGES[4]) and "<h3>Halma</h3>" in card_html(PAGES[4])
    True
    """
    return (f'<a class="mg-card" data-kind="{page.kind}" href="{esc(link(page.notebook))}">'
            f'<svg viewBox="0 0 100 70" role="img" aria-hidden="true">'
            f'{ICONS[page.notebook]}</svg>'
            f"<h3>{esc(page.title)}</h3><p>{esc(page.description)}</p>{note}</a>")


def landing_html() -> str:
    """The cards of the landing page as HTML."""
    sections = []
    # The board demo is for developers: it stays reachable by its address, not on the cards.
    for kind, heading in (("game", _("Games")), ("class", _("Play together")),
                          ("lesson", _("Lessons"))):
        cards = "".join(card_html(page) for page in PAGES if page.kind == kind)
        sections.append(f'<h2 class="mg-section">{esc(heading)}</h2>'
                        f'<div class="mg-cards">{cards}</div>')
    intro = _("Four classic games, a mosaic of the Triomino tiles, games for a whole class, "
              "and four lessons about the mathematics behind them. "
              "Pick a language above, then a game or a lesson.")
    return (f'<div class="mg-page"><p style="font-size:17px">{esc(intro)}</p>'
            f'{"".join(sections)}</div>')


def landing() -> w.VBox:
    """The whole landing page: header, the class address in classroom mode, and cards."""
    from mathgames.pages.address import class_address_block

    cards = w.HTML(landing_html())
    cards.add_class("mg-landing")
    parts: list[w.Widget] = [header("index.ipynb", "")]
    if block := class_address_block():
        parts.append(w.HTML(block))
    if block := static_site_block():
        parts.append(w.HTML(block))
    return w.VBox([*parts, cards])
