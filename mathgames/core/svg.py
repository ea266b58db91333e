"""Small helpers that every pure view (state -> SVG) shares.

>>> esc('<b> & "q"')
'&lt;b&gt; &amp; &quot;q&quot;'
>>> svg_document(10, 5, "<g/>", title="demo")[:60]
'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 5" r'
"""

from __future__ import annotations

from html import escape

__all__ = ["FONT", "INK", "MUTED", "PALETTE", "PALETTE_NAMES", "TEXT_PALETTE", "esc", "num",
           "svg_document"]

#: Okabe-Ito colours: told apart by colour-blind eyes; one per player.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")
PALETTE_NAMES = ("blue", "orange", "green", "pink", "red", "sky blue")
#: The same hues darkened for text: at least 5:1 on white (WCAG AA asks 4.5:1).
TEXT_PALETTE = ("#0072B2", "#936600", "#007E5C", "#995B7D", "#B75100", "#387597")
#: Secondary text (labels, row numbers): 5:1 on white.
MUTED = "#6E6E6E"
#: Text and outline colour with strong contrast on a projector.
INK = "#1b1b1b"
FONT = "DejaVu Sans, Segoe UI, Arial, sans-serif"


def esc(text: object) -> str:
    """Escape text for SVG content and attribute values."""
    return escape(str(text), quote=True)


def num(value: float) -> str:
    """A coordinate written short: at most 2 decimals, no trailing zeros.

    >>> num(1.0), num(2.345), num(-0.0001)
    ('1', '2.35', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def svg_document(width: float, height: float, body: str, title: str = "",
                 x: float = 0, y: float = 0) -> str:
    """A whole ``<svg>`` element with a ``viewBox`` (so it scales to its container)."""
    # An image for screen readers only when it has a name (its title).
    role = ' role="img"' if title else ""
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{num(x)} {num(y)} '
        f'{num(width)} {num(height)}"{role} font-family="{FONT}">'
    )
    caption = f"<title>{esc(title)}</title>" if title else ""
    return head + caption + body + "</svg>"
