"""The app's own Voila server: the app's pages, their files and kernels, and nothing else.

:class:`AppVoila` is Voila's standalone application (no Jupyter server, so no
JupyterLab, Notebook, terminals, contents API or kernels API that starts a
kernel) with these changes:

- ``/`` redirects to the landing page (keeping ``?lang=``); the file tree and its
  contents listing are gone; any notebook under the root folder is a page at
  ``/voila/render/<path>``.
- :class:`AppPageHandler` renders a page only while fewer than ``max_kernels``
  kernels run (or are being started), and otherwise answers with a friendly,
  translated "busy" page (HTTP 503) without touching what runs. It also sets the
  ``_xsrf`` cookie, which the page's "close" beacon (``POST
  /voila/api/shutdown/<kernel>``) must send back: without it the beacon is
  refused (voila-dashboards/voila#1458) and the kernel of a closed page lives on.
- :class:`KernelReaper` ends the kernel of a page that disconnected and did not
  come back (a killed browser sends no beacon), and the kernel of a page that never
  connected (a ``curl``, a link preview, a page abandoned while it loaded): after
  ``unconnected_grace`` (300 s), or ``crowded_grace`` (20 s) once the server is near its
  cap or the device's address floods it (holds more than ``unconnected_per_address``
  such pages for 5 s). A flooding address gets no page while the server is near its
  limit, and otherwise one in place of its oldest; a full server ends a flood's page,
  else the stalest page no one uses, before it turns a visitor away
  (:meth:`KernelReaper.evict`). Prefetches and ``HEAD`` start no kernel.
- The visitor's address is the connection's, or, from a proxy the teacher named
  (``--trusted-proxy``), the one the proxy saw (:func:`client_address`).
- With a class password, :class:`AppLoginHandler` is a small translated login page.

Every user-facing text is translated; the language comes from ``?lang=``, then
the browser's ``Accept-Language``:

>>> language_for("lang=pl", "cs,en;q=0.8")
'pl'
>>> language_for("", "de-DE,ru;q=0.9,en;q=0.8")
'ru'
>>> language_for("", None)
'en'
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ipaddress
import json
import logging
import signal
import time
from collections.abc import Iterator
from typing import Any

import jinja2
import tornado.web
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.auth.login import LoginFormHandler
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.utils import url_path_join
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Bool, Float, Int, List, Unicode
from voila.app import Voila
from voila.exporter import VoilaExporter
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from mathgames.app.address import address_html
from mathgames.app.admission import Admission
from mathgames.app.kernel_forks import KernelTemplate
from mathgames.core.i18n import LANGUAGES, language_from_query, set_language, translator
from mathgames.core.svg import esc

__all__ = ["AppLoginHandler", "AppPageHandler", "AppVoila", "KernelReaper", "LoginThrottle",
           "busy_html", "client_address", "is_prefetch", "language_for", "login_html"]

_ = translator("app")

class TemplateCache(jinja2.BytecodeCache):
    """Compiled page templates, kept in memory for the server's life.

    Voila builds a new Jinja environment for every page, so each page compiled
    the same templates again: about a quarter of the server's work per page. With
    this cache a template is compiled once; Jinja checks the source's checksum, so
    an edited template is compiled again.

    >>> env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}),
    ...                          bytecode_cache=TemplateCache())
    >>> env.get_template("t").render(), len(env.bytecode_cache.store)
    ('2', 1)
    """

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.store.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


#: The server's one template cache (see :func:`cache_page_templates`).
TEMPLATE_CACHE = TemplateCache()


def cache_page_templates() -> None:
    """Make every Voila page environment share :data:`TEMPLATE_CACHE` (idempotent)."""
    if getattr(VoilaExporter, "_mathgames_cached", False):
        return
    create = VoilaExporter._create_environment

    def create_with_cache(self: VoilaExporter) -> jinja2.Environment:
        environment = create(self)
        environment.bytecode_cache = TEMPLATE_CACHE
        return environment

    VoilaExporter._create_environment = create_with_cache
    VoilaExporter._mathgames_cached = True


#: App pages without charts: their browsers need not load the chart libraries' code.
PAGES_WITHOUT_CHARTS = frozenset({
    "index.ipynb", "matematiko.ipynb", "triomino.ipynb", "halma.ipynb",
    "chinese_checkers.ipynb", "mosaic.ipynb", "join.ipynb", "table.ipynb", "board_demo.ipynb",
})

#: Front-end extensions only charts (bqplot) and shown code (pygments) use.
CHART_EXTENSIONS = frozenset({"bqplot", "bqscales", "jupyterlab_pygments"})


def lighter_page_config(page_config: dict[str, Any], notebook_path: str | None = None,
                        **_: Any) -> dict[str, Any]:
    """Voila's ``page_config_hook``: a page without charts does not load chart code.

    Every other page (the lessons, the teacher's page) keeps every extension.

    >>> config = {"federated_extensions": [{"name": "bqplot"}, {"name": "anywidget"}]}
    >>> [e["name"] for e in lighter_page_config(config, "halma.ipynb")["federated_extensions"]]
    ['anywidget']
    >>> len(lighter_page_config(config, "explore/board_geometry.ipynb")["federated_extensions"])
    2
    """
    if (notebook_path or "").replace("\\", "/") not in PAGES_WITHOUT_CHARTS:
        return page_config
    extensions = page_config.get("federated_extensions", [])
    return {**page_config, "federated_extensions": [
        e for e in extensions if e.get("name") not in CHART_EXTENSIONS]}


class _Render:
    """One page being rendered: the kernels started for it, and its place under the cap."""

    def __init__(self) -> None:
        self.kernels: list[str] = []
        self.pending = True
        self.rendering = True
        AppPageHandler.pending += 1
        AppPageHandler.rendering += 1

    def release(self) -> None:
        """Its kernel is in the kernel manager's list now (or it will have none)."""
        if self.pending:
            self.pending = False
            AppPageHandler.pending -= 1

    def done(self) -> None:
        """Its page was sent (or its request ended): its kernel has grown to its size."""
        self.release()
        if self.rendering:
            self.rendering = False
            AppPageHandler.rendering -= 1


#: The page being rendered by the current request (set by the page handler).
_RENDER: contextvars.ContextVar[_Render | None] = contextvars.ContextVar(
    "mathgames_render", default=None)


def language_for(query: str | None, accept_language: str | None) -> str:
    """The visitor's language: ``lang=`` in the query, else the browser's first supported one."""
    chosen = language_from_query(query)
    if chosen:
        return chosen
    for part in (accept_language or "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def trusted_networks(addresses: list[str] | tuple[str, ...]) -> Networks:
    """The proxies named by ``--trusted-proxy`` (addresses or networks), checked.

    >>> [str(n) for n in trusted_networks(["10.0.0.5", "192.168.1.0/24"])]
    ['10.0.0.5/32', '192.168.1.0/24']
    >>> trusted_networks(["proxy.school"])
    Traceback (most recent call last):
    ...
    ValueError: --trusted-proxy: 'proxy.school' is not an IP address or network
    """
    networks = []
    for address in addresses:
        try:
            networks.append(ipaddress.ip_network(address.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy: {address!r} is not an IP address or "
                             "network") from None
    return tuple(networks)


def _within(address: str, networks: Networks) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(peer: str, forwarded_for: str | None, trusted: Networks) -> str:
    """The visitor's address: the connection's own (``peer``), unless it comes from a
    trusted proxy; then the last address of ``X-Forwarded-For`` that is not a trusted
    proxy (what the proxy saw; anything a client wrote before it is not believed).

    >>> proxy = trusted_networks(["127.0.0.1"])
    >>> client_address("127.0.0.1", "6.6.6.6, 10.1.2.3", proxy)
    '10.1.2.3'
    >>> client_address("10.9.9.9", "10.1.2.3", proxy)  # not from the proxy: header ignored
    '10.9.9.9'
    >>> client_address("127.0.0.1", "10.1.2.3", ())  # no proxy named: header ignored
    '127.0.0.1'
    >>> client_address("127.0.0.1", "not an address", proxy)
    '127.0.0.1'
    """
    if not trusted or not forwarded_for or not _within(peer, trusted):
        return peer
    for hop in reversed(forwarded_for.split(",")[-32:]):
        hop = hop.strip()
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer
        if not _within(hop, trusted):
            return hop
    return peer


def is_prefetch(headers: Any) -> bool:
    """Whether a request is a browser's prefetch or prerender (no one is looking yet).

    >>> is_prefetch({"Sec-Purpose": "prefetch;prerender"}), is_prefetch({"Purpose": "prefetch"})
    (True, True)
    >>> is_prefetch({"Accept": "text/html"})
    False
    """
    return any("prefetch" in (headers.get(name) or "").lower()
               for name in ("Sec-Purpose", "Purpose", "X-Purpose", "X-Moz"))


@contextlib.contextmanager
def _in_language(code: str) -> Iterator[None]:
    previous = set_language(code)
    try:
        yield
    finally:
        set_language(previous)


_PAGE_STYLE = (
    "body{font-family:'DejaVu Sans','Segoe UI',Arial,sans-serif;color:#1b1b1b;"
    "background:#f7f9fb;margin:0}"
    "header{background:#17324d;color:#fff;padding:12px 18px;font-size:22px;font-weight:bold}"
    "main{max-width:34em;margin:2em auto;padding:0 1em;font-size:19px;line-height:1.45}"
    "a.mg-button,button{display:inline-block;background:#0072B2;color:#fff;border:0;"
    "border-radius:6px;padding:10px 18px;font-size:19px;text-decoration:none;cursor:pointer}"
    "input{font-size:19px;padding:8px;width:100%;box-sizing:border-box;margin:6px 0 14px}"
    ".mg-error{color:#a40000;font-weight:bold}"
)


def _page(language: str, title: str, body: str, refresh: int | None = None) -> str:
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (
        f'<!DOCTYPE html><html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"{meta}<title>{esc(title)}</title><style>{_PAGE_STYLE}</style></head>"
        f"<body><header>{esc(_('Maths games'))}</header><main>{body}</main></body></html>"
    )


def busy_html(language: str, again: str) -> str:
    """The page a visitor sees when the server runs as many kernels as it may.

    >>> "busy" in busy_html("en", "/voila/render/halma.ipynb")
    True
    >>> "zaneprázdněn" in busy_html("cs", "/")
    True
    """
    with _in_language(language):
        title = _("The class server is busy")
        body = (
            f'<h1 class="mg-busy">{esc(title)}</h1>'
            f"<p>{esc(_('The class server is busy: try again in a minute.'))}</p>"
            f"<p>{esc(_('This page tries again by itself every minute.'))}</p>"
            f'<p><a class="mg-button" href="{esc(again)}">{esc(_("Try again"))}</a></p>'
        )
        return _page(language, title, body, refresh=60)


def login_html(language: str, next_url: str, xsrf_field: str, wrong: bool,
               throttled: bool = False) -> str:
    """The class password page (after a wrong password, or too many, it says so).

    >>> html = login_html("pl", "/voila/render/index.ipynb", "", wrong=True)
    >>> 'type="password"' in html and "Hasło klasy" in html
    True
    >>> "wait a minute" in login_html("en", "/", "", wrong=True, throttled=True)
    True
    """
    with _in_language(language):
        title = _("Class password")
        said = (_("Too many wrong passwords: wait a minute, then try again.") if throttled
                else _("Wrong password: ask your teacher."))
        error = (f'<p class="mg-error" role="alert">{esc(said)}</p>' if wrong or throttled
                 else "")
        body = (
            f"<h1>{esc(title)}</h1>{error}"
            f'<form method="post" action="?next={esc(tornado.escape.url_escape(next_url))}'
            f'&amp;lang={language}">{xsrf_field}'
            f'<label for="password">{esc(_("Type the password your teacher gave the class."))}'
            '</label><input type="password" id="password" name="password" autofocus '
            'autocomplete="current-password">'
            f'<button type="submit">{esc(_("Sign in"))}</button></form>'
        )
        return _page(language, title, body)


#: A page waits at most this long for a render slot, then renders anyway (a page whose
#: notebook waits for something, such as a class page, never blocks the others for long).
SLOT_PATIENCE = 20.0


async def _render_slot(slots: asyncio.Semaphore | None) -> asyncio.Semaphore | None:
    """Wait for one of the server's page renders (``None``: no limit); what to release."""
    if slots is None:
        return None
    try:
        await asyncio.wait_for(slots.acquire(), SLOT_PATIENCE)
    except asyncio.TimeoutError:
        return None
    return slots


class AppPageHandler(TornadoVoilaHandler):
    """Renders an app page, or the "busy" page when the server is full."""

    #: Pages admitted whose kernel has not started yet (counted against the cap).
    pending = 0
    #: Pages being rendered (their kernels still growing: counted against the memory).
    rendering = 0

    def client(self) -> str:
        """The visitor's address (see :func:`client_address`)."""
        return client_address(self.request.remote_ip or "",
                              self.request.headers.get("X-Forwarded-For"),
                              self.settings.get("mathgames_trusted_proxies", ()))

    def _busy(self, status: int = 503) -> None:
        language = language_for(self.request.query, self.request.headers.get(
            "Accept-Language"))
        self.set_status(status)
        self.set_header("Retry-After", "60")
        self.set_header("Cache-Control", "no-store")
        self.finish(busy_html(language, self.request.uri))

    @tornado.web.authenticated
    async def get(self, path: str | None = None) -> None:
        # The page's close beacon sends this cookie back; without it the server refuses
        # the shutdown request with "'_xsrf' argument missing" (voila#1458).
        _ = self.xsrf_token
        if is_prefetch(self.request.headers):  # no one looks at it yet: no kernel for it
            self._busy()
            return
        admission: Admission = self.settings.get("mathgames_admission") or Admission(0)
        reaper: KernelReaper | None = self.settings.get("mathgames_reaper")
        address = self.client()

        def open_pages() -> int:
            running = len(self.kernel_manager.list_kernel_ids())
            ending = len(reaper.ending) if reaper is not None else 0
            return max(0, running - ending) + AppPageHandler.pending

        if reaper is not None and reaper.flooding(address):
            # an address whose pages never connect: nothing more while the server is near
            # its limit, else a page in place of its oldest
            if reaper.crowded():
                self.log.warning("mathgames: %s floods the server: busy page for %s",
                                 address, path)
                self._busy()
                return
            reaper.make_way(address)
        if not admission.admits(open_pages(), AppPageHandler.rendering) and (
                reaper is None or not reaper.evict(address)
                or not admission.admits(open_pages(), AppPageHandler.rendering)):
            self.log.warning("mathgames: %d pages open (%d starting), no room (%s): busy page "
                             "for %s", open_pages(), AppPageHandler.pending,
                             admission.why_not(open_pages()), path)
            self._busy()
            return
        render = _Render()  # counted under the cap until its kernel is in the list
        _RENDER.set(render)
        slot = await _render_slot(self.settings.get("mathgames_render_slots"))
        try:
            async for html in self.get_generator(path=path):
                self.write(html)
                self.flush()
        finally:
            if slot is not None:
                slot.release()
            render.done()
            for kernel_id in render.kernels:  # from now on the page should connect to it
                if reaper is not None:
                    reaper.rendered(kernel_id, address)


_V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def message_header(message: bytes | dict[str, Any] | str, v1: bool) -> dict[str, Any] | None:
    """The header of a message on its way to the browser, whatever its form, or ``None``.

    Binary messages come in two layouts: the v1 websocket protocol (little-endian 8-byte
    offsets, then channel, header, ...) and the older one (big-endian 4-byte offsets, then
    the JSON message). Counts are bounded, so a malformed message costs nothing.

    >>> import json
    >>> part = json.dumps({"header": {"msg_type": "comm_msg"}}).encode()
    >>> offsets = [(2).to_bytes(4, "big"), (12).to_bytes(4, "big"),
    ...            (12 + len(part)).to_bytes(4, "big")]
    >>> legacy = b"".join(offsets) + part + b"buffer"
    >>> message_header(legacy, v1=False)["msg_type"]
    'comm_msg'
    >>> message_header(bytes([255]) * 64, v1=True) is None
    True
    >>> message_header("[" * 100_000 + "]" * 100_000, v1=False) is None
    True
    >>> message_header('[{"header": {}}]', v1=False) is None  # not a message at all
    True
    """
    if isinstance(message, dict):
        return message.get("header")
    if isinstance(message, str):
        try:
            data = json.loads(message)
        except (ValueError, RecursionError):
            return None
        header = data.get("header") if isinstance(data, dict) else None
        return header if isinstance(header, dict) else None
    try:
        if v1:
            count = int.from_bytes(message[:8], "little")
            if not 3 <= count <= 64:
                return None
            offsets = [int.from_bytes(message[8 * (i + 1):8 * (i + 2)], "little")
                       for i in range(count)]
            header = json.loads(message[offsets[1]:offsets[2]])
        else:
            count = int.from_bytes(message[:4], "big")
            if not 1 <= count <= 64:
                return None
            offsets = [int.from_bytes(message[4 * (i + 1):4 * (i + 2)], "big")
                       for i in range(count)]
            header = json.loads(message[offsets[0]:offsets[1] if count > 1 else None])
            header = header.get("header") if isinstance(header, dict) else None
    except (ValueError, IndexError, UnicodeDecodeError, RecursionError):
        return None
    return header if isinstance(header, dict) else None


class AppKernelWebsocketHandler(VoilaKernelWebsocketHandler):
    """A page's kernel websocket, as Voila's, that reads every message's header safely.

    Voila's own handler reads a binary message as if it were always in the v1 protocol:
    a message with buffers (a chart's data) sent to a client of the older protocol made
    it loop over billions of offsets and froze the whole server.
    """

    async def open(self, kernel_id: str) -> None:  # type: ignore[override]
        reaper = self.settings.get("mathgames_reaper")
        if reaper is not None:
            reaper.connected(kernel_id)
        await super().open(kernel_id)

    def write_message(self, message: Any, binary: bool = False) -> Any:
        header = message_header(message, v1=self.selected_subprotocol == _V1_PROTOCOL)
        if header and header.get("msg_type") == "execute_input":
            return None  # as Voila: the page does not show the code it runs
        return super(VoilaKernelWebsocketHandler, self).write_message(message, binary)


class AppKernelHandler(KernelHandler):
    """A page may read its kernel's model; no one ends a kernel through this API."""

    async def delete(self, kernel_id: str) -> None:
        raise tornado.web.HTTPError(405)


class LandingRedirectHandler(JupyterHandler):
    """``/`` leads to the landing page, keeping the query (``?lang=``)."""

    def get(self) -> None:
        target = url_path_join(self.base_url, "voila/render/index.ipynb")
        query = self.request.query
        self.redirect(target + (f"?{query}" if query else ""))


class LoginThrottle:
    """Slows down guessing of the class password: after ``tries`` wrong passwords from one
    address within ``window`` seconds, that address waits until the window has passed.

    >>> throttle = LoginThrottle(tries=2, window=60)
    >>> throttle.failed("10.0.0.7", now=0); throttle.failed("10.0.0.7", now=5)
    >>> throttle.wait("10.0.0.7", now=10), throttle.wait("10.0.0.8", now=10)
    (50.0, 0.0)
    >>> throttle.wait("10.0.0.7", now=61)
    0.0
    """

    def __init__(self, tries: int = 5, window: float = 60.0) -> None:
        self.tries = tries
        self.window = window
        self.failures: dict[str, list[float]] = {}

    def wait(self, address: str, now: float) -> float:
        """Seconds this address must wait before it may try again (0: it may now)."""
        recent = [t for t in self.failures.get(address, []) if now - t < self.window]
        if recent:
            self.failures[address] = recent
        else:
            self.failures.pop(address, None)
        if len(recent) < self.tries:
            return 0.0
        return float(recent[-self.tries] + self.window - now)

    def failed(self, address: str, now: float) -> None:
        """A wrong password came from this address."""
        if len(self.failures) > 10_000:  # bounded, whatever a visitor sends
            self.failures.clear()
        self.failures.setdefault(address, []).append(now)

    def forget(self, address: str) -> None:
        """The right password came from this address."""
        self.failures.pop(address, None)


class AppLoginHandler(LoginFormHandler):
    """The class password page, in the visitor's language, with guessing slowed down."""

    throttle = LoginThrottle()

    def _render(self, message: dict[str, str] | None = None) -> None:
        language = language_for(self.request.query, self.request.headers.get("Accept-Language"))
        next_url = self.get_argument("next", default=self.base_url)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.finish(login_html(language, next_url, self.xsrf_form_html(), wrong=bool(message),
                               throttled=self.get_status() == 429))

    @allow_unauthenticated  # as the form it replaces: a visitor signs in here
    def post(self) -> None:
        address = client_address(self.request.remote_ip or "",
                                 self.request.headers.get("X-Forwarded-For"),
                                 self.settings.get("mathgames_trusted_proxies", ()))
        wait = self.throttle.wait(address, time.monotonic())
        if wait > 0:
            self.set_status(429)
            self.set_header("Retry-After", str(int(wait) + 1))
            self._render(message={"error": "too many tries"})
            return
        super().post()
        if self.get_status() == 401:
            self.throttle.failed(address, time.monotonic())
        else:
            self.throttle.forget(address)


class AppLogoutHandler(JupyterHandler):
    """``/logout`` signs the visitor out (forgets the class password) and leads to ``/``."""

    @allow_unauthenticated
    def get(self) -> None:
        self.identity_provider.clear_login_cookie(self)
        self.redirect(url_path_join(self.base_url, "/"))


class AppTemplateFileHandler(TemplateStaticFileHandler):
    """Voila's template files (``/voila/templates/<template>/static/<file>``); any other
    address there is "not found" (Voila's own handler failed with an error 500)."""

    async def get(self, path: str, include_body: bool = True) -> None:
        parts = path.split("/", 2)
        if len(parts) < 3 or parts[1] != "static" or not parts[0] or not parts[2]:
            raise tornado.web.HTTPError(404)
        await super().get(path, include_body)


class KernelReaper:
    """Ends kernels whose page went away, or never came.

    - A kernel that had a page connected and has had none for ``disconnected_grace``
      seconds (the page was closed, reloaded, left, or its browser died) is shut down.
    - A kernel whose page was sent (or whose request ended) without its page ever
      connecting (a ``curl``, a link preview, a page abandoned while it loaded) is shut
      down ``unconnected_grace`` seconds after; only ``crowded_grace`` seconds after when
      the server is near its limit (``crowded()``), or when the visitor's address floods
      the server (:meth:`flooding`: it held more than ``per_address`` such pages for
      :attr:`EVICT_AFTER` seconds, and still holds one). A school behind one address
      (a NAT) is not taken for a flood: its students' pages connect within seconds of
      arriving, and only pages that never connect count.
    - :meth:`evict` ends at once a flood's oldest page, else the stalest page-less
      kernel, for a full server to admit a new visitor rather than turn them away;
      :meth:`make_way` ends a flooding address's oldest page before it gets another.

    A kernel whose page is still being rendered is left alone, however slow the server.
    Call :meth:`tick` every few seconds.
    """

    #: A page that never connected is evicted only once its HTML is this old (s): a
    #: browser connects within a second or two of receiving it.
    EVICT_AFTER = 5.0
    #: An address stays a flood this long (s) after its last page that never connected
    #: ended (else a flood whose pages were all ended would start anew at once).
    FLOOD_MEMORY = 60.0

    def __init__(self, app: Voila, disconnected_grace: float, unconnected_grace: float,
                 crowded_grace: float | None = None, per_address: int = 4,
                 crowded: Any = None) -> None:
        self.app = app
        self.disconnected_grace = disconnected_grace
        self.unconnected_grace = unconnected_grace
        self.crowded_grace = unconnected_grace if crowded_grace is None else crowded_grace
        self.per_address = per_address
        self.crowded = crowded or (lambda: False)
        self.was_connected: set[str] = set()
        self.alone_since: dict[str, float] = {}
        self.ending: set[str] = set()
        self.rendered_at: dict[str, float] = {}
        self.address_of: dict[str, str] = {}
        #: Addresses flooding the server with pages that never connect, and when they last
        #: held such a page.
        self.floods: dict[str, float] = {}
        self.tasks: set[asyncio.Future[None]] = set()

    def rendered(self, kernel_id: str, address: str = "") -> None:
        """The page of this kernel was sent (or its request ended), to ``address``."""
        self.rendered_at.setdefault(kernel_id, time.monotonic())
        self.address_of.setdefault(kernel_id, address)

    def connected(self, kernel_id: str) -> None:
        """A page connected to this kernel (told by its websocket handler)."""
        self.was_connected.add(kernel_id)
        self.alone_since.pop(kernel_id, None)

    def _manager(self) -> Any:
        return getattr(self.app, "kernel_manager", None)

    def _unconnected(self, manager: Any) -> dict[str, str]:
        """Kernels whose page was sent and never connected, and their visitors' addresses."""
        running = set(manager.list_kernel_ids())
        return {kernel_id: self.address_of.get(kernel_id, "")
                for kernel_id in (set(self.rendered_at) & running) - self.was_connected
                - self.ending if manager._kernel_connections.get(kernel_id, 0) == 0}

    def _note_floods(self, manager: Any, now: float) -> dict[str, str]:
        """Update :attr:`floods`; the kernels whose page never connected, and their addresses.

        An address floods once it holds more than ``per_address`` pages sent at least
        :attr:`EVICT_AFTER` seconds ago that never connected (a browser connects within
        seconds), and until :attr:`FLOOD_MEMORY` seconds after none of its pages is left
        unconnected.
        """
        unconnected = self._unconnected(manager)
        stale: dict[str, int] = {}
        for kernel_id, address in unconnected.items():
            if now - self.rendered_at[kernel_id] >= self.EVICT_AFTER:
                stale[address] = stale.get(address, 0) + 1
        found = {address for address, count in stale.items() if count > self.per_address}
        for address in sorted(found - set(self.floods)):
            self.app.log.warning("mathgames: %s floods the server with pages that never "
                                 "connect: they end %g s after they were sent", address,
                                 self.crowded_grace)
        for address in found | (set(unconnected.values()) & set(self.floods)):
            self.floods[address] = now  # a flood while it holds such pages, and a minute more
        for address, last in list(self.floods.items()):
            if now - last > self.FLOOD_MEMORY:
                del self.floods[address]
        return unconnected

    def flooding(self, address: str) -> bool:
        """Whether ``address`` floods the server now (see :meth:`_note_floods`)."""
        manager = self._manager()
        if manager is None:
            return False
        self._note_floods(manager, time.monotonic())
        return address in self.floods

    def make_way(self, address: str) -> None:
        """Before a flooding address gets another page: end its oldest page that never
        connected, so that a flood holds no more kernels than it had."""
        manager = self._manager()
        if manager is None:
            return
        own = [(self.rendered_at[k], k) for k, where in self._unconnected(manager).items()
               if where == address]
        if own:
            self._shut(manager, min(own)[1])

    def tick(self) -> None:
        manager = self._manager()
        if manager is None:
            return
        now = time.monotonic()
        ids = set(manager.list_kernel_ids())
        unconnected = self._note_floods(manager, now)
        crowded = self.crowded()
        for kernel_id in ids - self.ending:
            if manager._kernel_connections.get(kernel_id, 0) > 0:
                self.was_connected.add(kernel_id)
                self.alone_since.pop(kernel_id, None)
                continue
            since = self.alone_since.setdefault(kernel_id, now)
            if kernel_id in self.was_connected:
                due = now - since >= self.disconnected_grace
            elif kernel_id in self.rendered_at:  # its page was sent, and never connected
                flooding = unconnected.get(kernel_id) in self.floods
                grace = self.crowded_grace if crowded or flooding else self.unconnected_grace
                due = now - self.rendered_at[kernel_id] >= grace
            else:
                continue  # its page is still being rendered: Voila's own timeouts bound that
            if due:
                self._shut(manager, kernel_id)
        for gone in set(self.alone_since) - ids:
            del self.alone_since[gone]
        for gone in set(self.rendered_at) - ids:
            del self.rendered_at[gone]
            self.address_of.pop(gone, None)
        self.was_connected &= ids
        self.ending &= ids

    def evict(self, for_address: str = "") -> bool:
        """End the stalest kernel that no page uses, to make room for a visitor from
        ``for_address``; whether there was one.

        First a page that the visitor's own address left (a device's new page takes the
        place of its page before, so a device that opens pages and drops them does not
        take others' places), then the oldest page that never connected of a flooding
        address, then a kernel whose page left (the longest gone), then
        one whose page never connected, from the address with the most such pages,
        the oldest first. A visitor never ends a page of its own address that never
        connected: a flood does not renew its pages by ending its older ones (then they
        would never grow old enough to tell it for a flood).
        """
        manager = self._manager()
        if manager is None:
            return False
        now = time.monotonic()
        unconnected = self._note_floods(manager, now)
        running = set(manager.list_kernel_ids())
        own = [(self.alone_since.get(k, now), k)
               for k in (self.was_connected & running) - self.ending
               if manager._kernel_connections.get(k, 0) == 0
               and self.address_of.get(k) == for_address]
        if for_address and own:  # the device's own page that it left (a reload, say)
            self._shut(manager, min(own)[1])
            return True
        flood = [(self.rendered_at[k], k) for k, address in unconnected.items()
                 if address in self.floods and address != for_address]
        if flood:
            self._shut(manager, min(flood)[1])
            return True
        left = [(self.alone_since.get(k, now), k)
                for k in (self.was_connected & running) - self.ending
                if manager._kernel_connections.get(k, 0) == 0
                and now - self.alone_since.get(k, now) >= self.EVICT_AFTER
                and self.address_of.get(k) != for_address]
        if left:
            self._shut(manager, min(left)[1])
            return True
        counts: dict[str, int] = {}
        for address in unconnected.values():
            counts[address] = counts.get(address, 0) + 1
        stale = [(-counts[address], self.rendered_at[k], k) for k, address in unconnected.items()
                 if now - self.rendered_at[k] >= self.EVICT_AFTER and address != for_address]
        if not stale:
            return False
        self._shut(manager, min(stale)[2])
        return True

    def _shut(self, manager: Any, kernel_id: str) -> None:
        self.ending.add(kernel_id)
        self.app.log.info("mathgames: ending kernel %s, its page has gone", kernel_id)
        task = asyncio.ensure_future(self._end(manager, kernel_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _end(self, manager: Any, kernel_id: str) -> None:
        try:
            await manager.shutdown_kernel(kernel_id)
        except (KeyError, tornado.web.HTTPError):  # already ended (by its page's beacon)
            pass
        finally:
            self.ending.discard(kernel_id)


#: ZeroMQ sockets counted for each open page: its kernel's five channels for the page's
#: websocket, and again for the server's own requests, with room to spare.
SOCKETS_PER_PAGE = 16


def allow_sockets(context: Any, pages: int) -> int:
    """Let the server's ZeroMQ ``context`` (and its open files) hold ``pages`` pages
    (0: a thousand); the sockets it then allows. ZeroMQ allows 1,023 sockets by default,
    and a page's kernel connections use five or more: without this, a server with about
    200 pages open failed with "Too many open files". Call before the first socket.

    >>> import zmq
    >>> context = zmq.Context()
    >>> allow_sockets(context, 200) >= 200 * SOCKETS_PER_PAGE
    True
    >>> context.term()
    """
    import zmq

    want = SOCKETS_PER_PAGE * (pages or 1000) + 256
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        files = 4 * want  # a ZeroMQ socket over ipc uses a few descriptors
        if soft != resource.RLIM_INFINITY and soft < files:
            raised = files if hard == resource.RLIM_INFINITY else min(hard, files)
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, raised), hard))
    except (ImportError, ValueError, OSError):  # not POSIX, or not allowed: as it was
        pass
    if context.get(zmq.MAX_SOCKETS) < want:
        context.set(zmq.MAX_SOCKETS, want)
    return int(context.get(zmq.MAX_SOCKETS))


def _quiet_trust(record: logging.LogRecord) -> bool:
    """Drop the contents manager's "Notebook ... is not trusted" (a warning for every
    page: Voila runs the notebooks anew, their signatures do not matter here).

    >>> _quiet_trust(logging.makeLogRecord({"msg": "Notebook %s is not trusted"}))
    False
    >>> _quiet_trust(logging.makeLogRecord({"msg": "Kernel started: %s"}))
    True
    """
    return record.msg != "Notebook %s is not trusted"


class AppVoila(Voila):
    """Voila's standalone server with the app's pages, cap, reaper and login page."""

    name = "mathgames"
    max_kernels = Int(0, config=True, help="At most this many kernels (0: no cap).")
    disconnected_grace = Float(10.0, config=True,
                               help="End a kernel this many seconds after its page left.")
    # as long as a page's websocket waits for its kernel (serve.py, kernel_info_timeout): with
    # 30 pages loading on a busy 2-core machine, a page may take over a minute to connect;
    # a flood or a full server gets crowded_grace instead
    unconnected_grace = Float(300.0, config=True,
                              help="End a kernel whose page was sent but never connected "
                                   "after this long.")
    crowded_grace = Float(20.0, config=True,
                          help="... only this long when the server is near its limit, or when "
                               "the visitor's address holds more than unconnected_per_address "
                               "such pages.")
    unconnected_per_address = Int(4, config=True,
                                  help="Pages that never connected one address may hold before "
                                       "they get the short grace.")
    trusted_proxies = List(Unicode(), config=True,
                           help="Proxies (addresses or networks) whose X-Forwarded-For names "
                                "the visitor's address.")
    reap_interval = Float(2.0, config=True, help="Look for kernels to end this often (s).")
    class_url = Unicode("", config=True, help="The address students type (classroom mode).")
    render_slots = Int(0, config=True,
                       help="Render at most this many pages at once (the others wait their "
                            "turn, in order; 0: no limit).")
    fork_kernels = Bool(True, config=True,
                        help="Fork pages' kernels from a warm template process "
                             "(mathgames.app.kernel_forks) instead of starting each anew.")
    #: the kernel template this server started (None without one), and whether it stopped
    template: KernelTemplate | None = None
    _stopped = False

    def init_settings(self) -> dict[str, Any]:
        cache_page_templates()
        if self.voila_configuration.page_config_hook is None:
            self.voila_configuration.page_config_hook = lighter_page_config
        settings = super().init_settings()
        start_kernel = self.kernel_manager.start_kernel

        async def start_and_note(*args: Any, **kwargs: Any) -> str:
            render = _RENDER.get()
            try:
                kernel_id = await start_kernel(*args, **kwargs)
            finally:
                if render is not None:  # the kernel counts itself now
                    render.release()
            if render is not None:  # started for a page: the reaper waits for its render
                render.kernels.append(kernel_id)
            return kernel_id

        self.kernel_manager.start_kernel = start_and_note
        allow_sockets(self.kernel_manager.context, self.max_kernels)
        settings["mathgames_max_kernels"] = self.max_kernels
        settings["mathgames_admission"] = self.admission = Admission(self.max_kernels)
        settings["mathgames_trusted_proxies"] = trusted_networks(self.trusted_proxies)
        settings["mathgames_render_slots"] = (asyncio.Semaphore(self.render_slots)
                                              if self.render_slots > 0 else None)
        settings["mathgames_reaper"] = self.reaper
        return settings

    def init_handlers(self) -> list[Any]:
        replaced: dict[type, type] = {
            TornadoVoilaHandler: AppPageHandler,
            KernelHandler: AppKernelHandler,
            VoilaKernelWebsocketHandler: AppKernelWebsocketHandler,
            TemplateStaticFileHandler: AppTemplateFileHandler,
        }
        handlers: list[Any] = [(url_path_join(self.server_url, "/?"), LandingRedirectHandler)]
        for pattern, handler, *rest in super().init_handlers():
            if handler in (TornadoVoilaTreeHandler, VoilaContentsHandler):
                continue  # no file tree, no contents listing
            if issubclass(handler, LoginFormHandler):
                handler = AppLoginHandler
            elif pattern.rstrip("$").endswith("/logout"):
                handler = AppLogoutHandler
            handlers.append((pattern, replaced.get(handler, handler), *rest))
        return handlers

    def _crowded(self) -> bool:
        """Whether the server is near its limit: 3/4 of its cap, or memory for 8 pages."""
        manager = getattr(self, "kernel_manager", None)
        admission = getattr(self, "admission", None)
        if manager is None or admission is None:
            return False
        running = len(manager.list_kernel_ids())
        if admission.cap and running >= 0.75 * admission.cap:
            return True
        return not admission.admits(0, starting=8)

    def start(self) -> None:
        self.log.addFilter(_quiet_trust)
        self.reaper = KernelReaper(self, self.disconnected_grace, self.unconnected_grace,
                                   self.crowded_grace, self.unconnected_per_address,
                                   crowded=self._crowded)
        self._reaping = PeriodicCallback(self.reaper.tick, self.reap_interval * 1000)
        self._reaping.start()
        if self.class_url:
            address_html(self.class_url)  # fails now, not on the landing page, if it cannot
        # Voila's SIGTERM handler stops self.ioloop: give it the loop now, so that a
        # SIGTERM while the template starts stops the server cleanly once it runs. A
        # closed terminal window (SIGHUP) stops it the same way, unless it was started
        # to survive one (nohup)
        self.ioloop = IOLoop.current()
        if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
            signal.signal(signal.SIGHUP, self._handle_signal_stop)
        if self.fork_kernels:
            # its socket beside the kernels' (a root short enough for a socket's address)
            self.template = KernelTemplate.start(folder=self.connection_dir_root)
            if self.template is None:
                self.log.warning("mathgames: no kernel template: kernels start the usual way")
            else:
                self.log.info("mathgames: kernels fork from a template (pid %d)",
                              self.template.process.pid)
        try:
            super().start()
        except SystemExit:  # no port after all (Voila exits): remove what it made
            self.stop()
            raise

    def stop(self) -> None:
        if self._stopped:  # Voila stops it, and so may start()
            return
        self._stopped = True
        try:
            super().stop()
        finally:
            # the one this server started, even if it has ended already (Ctrl+C reaches
            # it too): stop() also removes its socket and folder
            if self.template is not None:
                self.template.stop()
