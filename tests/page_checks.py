"""Checks of a page in a real browser shared by the browser tests: what sticks out, what is
cut, what is too small, what is left in English, what axe-core finds (each a script run in
the page, or a helper around one), and the two screens every page must fit.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mathgames.core.i18n import _catalog
from mathgames.core.po import parse_po

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
#: The smallest side of a clickable cell, in CSS px: WCAG 2.2's minimum target size
#: (2.5.8, level AA). On the phone Halma's squares reach it with one press of the zoom.
MIN_CELL_PX = 24.0

LOCALE = Path(__file__).resolve().parents[1] / "mathgames" / "locale"

RECT_JS = """sel => { const e = document.querySelector(sel); if (!e) return null;
  const r = e.getBoundingClientRect();
  return {top: r.top, left: r.left, bottom: r.bottom, right: r.right,
          vw: window.innerWidth, vh: window.innerHeight}; }"""
OVERFLOW_JS = """() => Array.from(document.querySelectorAll(
    '.mg-app button, .mg-app .widget-button, .mg-app .widget-toggle-button, .mg-header a'))
  .filter(b => b.offsetParent !== null && b.clientWidth > 0)
  .filter(b => b.scrollWidth > b.clientWidth + 0.5)
  .map(b => (b.textContent || b.title).trim() + ` (${b.scrollWidth} > ${b.clientWidth})`)"""
#: Text on a game page at least this big (CSS px), for a projector.
MIN_TEXT_PX = 16.0
SMALL_TEXT_JS = """min => { const small = new Set();
  const walker = document.createTreeWalker(document.querySelector('.mg-app') || document.body,
                                           NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) { const node = walker.currentNode, e = node.parentElement;
    if (!node.textContent.trim() || !e || e.closest('svg') || e.offsetParent === null) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < min) small.add(node.textContent.trim().slice(0, 30) + ` (${size} px)`); }
  return Array.from(small).slice(0, 8); }"""
#: Labels and buttons whose text does not fit, anywhere on the page (not only in the app).
PAGE_CUT_JS = """() => Array.from(document.querySelectorAll(
    'button, .widget-button, .widget-toggle-button, .widget-upload, .widget-label, .mg-header a'))
  .filter(b => b.offsetParent !== null && b.clientWidth > 0)
  .filter(b => b.scrollWidth > b.clientWidth + 0.5)
  .map(b => (b.textContent || b.title).trim() + ` (${b.scrollWidth} > ${b.clientWidth})`)"""
LABEL_CUT_JS = """() => Array.from(document.querySelectorAll('.mg-app .widget-label'))
  .filter(l => l.offsetParent !== null && l.clientWidth > 0 && l.scrollWidth > l.clientWidth + 0.5)
  .map(l => l.textContent.trim() + ` (${l.scrollWidth} > ${l.clientWidth})`)"""
#: Forms whose fields start at different x (each field's own label beside it): one line per
#: box of fields, as "label@x" of each field.
FIELDS_APART_JS = """() => Array.from(document.querySelectorAll('.mg-app .widget-vbox')).map(box =>
    Array.from(box.children)
      .filter(c => c.matches('.widget-text, .widget-dropdown, .widget-textarea')
                   && c.offsetParent !== null)
      .map(c => [c.querySelector('.widget-label')?.textContent.trim(), Math.round(
                 c.querySelector('input, select, textarea').getBoundingClientRect().left)]))
  .filter(fields => new Set(fields.map(f => f[1])).size > 1)
  .map(fields => fields.map(f => f[0] + '@' + f[1]).join(', '))"""
NULL_TIPS_JS = """() => Array.from(document.querySelectorAll('[title], [aria-label]'))
  .filter(e => e.getClientRects().length > 0)
  .filter(e => ['null', 'undefined', ''].includes((e.getAttribute('title') ?? 'x').trim())
               || ['null', 'undefined'].includes(e.getAttribute('aria-label')))
  .map(e => e.outerHTML.slice(0, 80))"""
# Controls drawn over one another (a field's control spilling onto the next row's buttons):
# each pair of visible buttons, fields, links and the board inside ``scope`` (the app's
# widgets by default) whose boxes overlap by more than 2 px both ways, leaving out a control
# inside another (a file field's hidden input).
OVERLAP_JS = """(scope = '.mg-app') => {
  const shown = Array.from(document.querySelectorAll(
      ['button', 'select', 'input:not([type=file])', 'textarea', 'a[href]', '.mathgames-board']
        .map(tag => scope + ' ' + tag).join(', ')))
    .filter(e => e.getClientRects().length > 0 && !e.closest('.mathgames-board svg')
                 && getComputedStyle(e).visibility !== 'hidden');
  const name = e => {  // the nearest of the app's class names, and the text
    const named = e.closest('[class*="mg-"]');
    const mine = named ? Array.from(named.classList).find(c => c.startsWith('mg-')) : null;
    return (mine ? '.' + mine : '') + ' "'
      + (e.textContent || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 24)
      + '"'; };
  const found = [];
  for (let i = 0; i < shown.length; i++) {
    const a = shown[i].getBoundingClientRect();
    for (let j = i + 1; j < shown.length; j++) {
      if (shown[i].contains(shown[j]) || shown[j].contains(shown[i])) continue;
      const b = shown[j].getBoundingClientRect();
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 2 && y > 2)
        found.push(shown[i].tagName + name(shown[i]) + ' / ' + shown[j].tagName
                   + name(shown[j]) + ' (' + Math.round(x) + 'x' + Math.round(y) + ' px)');
    }
  }
  return found; }"""
SMALLEST_JS = """sel => { const cells = document.querySelectorAll(sel + ' [data-cell]');
  let best = Infinity;
  for (const c of cells) { const r = c.getBoundingClientRect();
    if (r.width > 0) best = Math.min(best, r.width, r.height); }
  return cells.length ? best : null; }"""
SHOWN_TEXT_JS = """() => { const parts = [document.body.innerText];
  for (const e of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (e.closest('[style*="display: none"]')) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      const v = e.getAttribute(a); if (v) parts.push(v); } }
  for (const e of document.querySelectorAll('.mathgames-board svg text, .mathgames-board title'))
    parts.push(e.textContent);
  return parts.join('\\n'); }"""


def english_fragments(lang: str) -> list[str]:
    """The English catalogue as the pieces of text a page may show (between the
    ``{fields}``), leaving out names and numbers: a piece that the message's own
    translation keeps (Halma, Triomino, Bot) is a name, not English left behind."""
    pieces = set()
    for po in sorted((LOCALE / "pl" / "LC_MESSAGES").glob("*.po")):
        domain = po.stem
        catalog = _catalog(domain, lang)
        for msgid, plural in parse_po(po.read_text(encoding="utf-8")):
            for english in (msgid, plural):
                if not english or "\x04" in english:
                    continue
                translated = (catalog.gettext(english) if english == msgid
                              else catalog.ngettext(msgid, english, 5))
                for piece in re.split(r"\{[^}]*\}", english):
                    piece = piece.strip(" .,:;!?()\"'·-–—\n")
                    if (re.search(r"[A-Za-z]{3}", piece) and piece not in translated
                            and not re.fullmatch(r"[A-Z0-9-]+", piece)):
                        pieces.add(piece)
    return sorted(pieces, key=len, reverse=True)


def english_left(page: Any, lang: str) -> list[str]:
    text = page.evaluate(SHOWN_TEXT_JS)
    return [piece for piece in english_fragments(lang)
            if re.search(rf"(?<![\w]){re.escape(piece)}(?![\w])", text)]


def axe_violations(page: Any) -> list[str]:
    """Serious and critical violations found by axe-core (the copy that the
    axe-playwright-python package ships) in the page as it is now."""
    import axe_playwright_python

    script = Path(axe_playwright_python.__file__).parent / "axe.min.js"
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(script))
    result = page.evaluate("""async () => { const r = await axe.run(document,
        {resultTypes: ['violations']});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)
          .map(n => n.target.join(' ')).join(' | ')); }""")
    return list(result)


def check_inside(page: Any, selectors: list[str], where: str) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")
    for selector in selectors:
        rect = page.evaluate(RECT_JS, selector)
        assert rect is not None, f"{where}: {selector} is missing"
        assert rect["left"] >= -0.5 and rect["right"] <= rect["vw"] + 0.5, (
            f"{where}: {selector} sticks out sideways: {rect}")
        assert rect["top"] >= -0.5 and rect["bottom"] <= rect["vh"] + 0.5, (
            f"{where}: {selector} is not on screen without scrolling: {rect}")


def wait_outputs(page: Any) -> None:
    """Wait until a lesson's cells have all drawn their outputs (no spinner left)."""
    page.wait_for_function(
        "() => !document.querySelector('.jp-OutputArea-output .lm-Widget.jp-Spinner')")
    page.wait_for_timeout(1500)  # the last outputs and charts


def wait_layout(page: Any) -> None:
    page.wait_for_timeout(400)  # a resize: let the layout settle
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(null)))")


#: Text the back row of a classroom reads on a 1280x720 projector, at least this big (CSS
#: px): about the height of a 64 px letter at 8 m on a 2 m wide screen.
BACK_ROW_PX = 28.0
#: The smallest font size (CSS px) of the visible text inside every element ``sel``
#: matches (an SVG's text too), or null when none shows any text.
SMALLEST_TEXT_JS = """sel => { let best = Infinity;
  for (const root of document.querySelectorAll(sel)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) { const node = walker.currentNode, e = node.parentElement;
      if (!node.textContent.trim() || !e || e.getClientRects().length === 0) continue;
      best = Math.min(best, e.getBoundingClientRect().height > 0
        ? parseFloat(getComputedStyle(e).fontSize) : Infinity); } }
  return best === Infinity ? null : best; }"""


def smallest_text(page: Any, selector: str) -> float | None:
    """The smallest font size (CSS px) of the text shown inside ``selector``."""
    return page.evaluate(SMALLEST_TEXT_JS, selector)
