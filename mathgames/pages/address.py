"""The address students type in classroom mode, and its block on the landing page.

``python -m mathgames.server.serve --classroom`` finds the computer's address on
the local network (:func:`lan_address`), prints the address students type and
passes it to the kernels as ``MATHGAMES_CLASS_URL``; the landing page then shows
it in large letters beside a QR code (drawn by segno) that a tablet's camera opens.

>>> html = address_html("http://192.168.1.20:8866/")
>>> "192.168.1.20:8866" in html and "<svg" in html
True
>>> class_address_block() == "" or "mg-class-address" in class_address_block()
True
"""

from __future__ import annotations

import ipaddress
import os
import socket

import segno

from mathgames.core.i18n import translator
from mathgames.core.svg import esc

__all__ = ["CLASS_URL_VARIABLE", "address_html", "class_address_block", "lan_address", "qr_svg"]

_ = translator("app")

#: The environment variable that carries the class address from the server to its kernels.
CLASS_URL_VARIABLE = "MATHGAMES_CLASS_URL"


def lan_address() -> str | None:
    """This computer's address on its local network, or ``None`` when it has none (only
    loopback).

    Opening a UDP socket towards a private address sends nothing; it only makes
    the system choose the interface it would use.

    >>> found = lan_address()
    >>> found is None or not ipaddress.ip_address(found).is_loopback
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
            address = probe.getsockname()[0]
        except OSError:
            return None
    ip = ipaddress.ip_address(address)
    return None if ip.is_unspecified or ip.is_loopback else address


def qr_svg(url: str) -> str:
    """A QR code of ``url`` as an inline SVG element (black on white, 4-module margin).

    Drawn 6 px a module, with a ``viewBox``: a page that sets another width and
    height in CSS scales the whole code (without it the code would be cut off, and
    a camera could not read it), and ``crispEdges`` keeps its modules sharp.

    >>> svg = qr_svg("http://10.0.0.2:8866/")
    >>> svg.startswith('<svg width="198" height="198" viewBox="0 0 198 198"')
    True
    """
    code = segno.make(url, error="m", micro=False)
    width, height = code.symbol_size(scale=6, border=4)
    svg = code.svg_inline(scale=6, border=4, light="#fff", title=url, svgclass="mg-qr",
                          omitsize=True)
    return svg.replace("<svg ", f'<svg width="{width}" height="{height}" ', 1).replace(
        ' class="mg-qr"', ' class="mg-qr" shape-rendering="crispEdges"', 1)


def address_html(url: str) -> str:
    """The landing page's block: "Students open" with the address and its QR code."""
    shown = url.split("://", 1)[-1].rstrip("/")
    return (
        '<div class="mg-class-address" style="display:flex;gap:18px;align-items:center;'
        'flex-wrap:wrap;border:2px solid #0072B2;border-radius:10px;padding:12px;'
        'margin:12px 0;background:#fff">'
        f"{qr_svg(url)}"
        f'<div><div style="font-size:18px">{esc(_("Students open this address:"))}</div>'
        f'<div class="mg-class-url" style="font-size:34px;font-weight:bold;'
        f'font-family:monospace">{esc(shown)}</div>'
        f'<div style="font-size:16px">{esc(_("or scan the code with a phone or tablet."))}</div>'
        "</div></div>"
    )


def class_address_block() -> str:
    """The block for this server's class address, or ``""`` outside classroom mode."""
    url = os.environ.get(CLASS_URL_VARIABLE, "")
    return address_html(url) if url else ""
