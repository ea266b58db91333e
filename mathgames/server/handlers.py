"""The server's request handlers: an app page (or "busy"), its kernel's websocket and model,
``/``, and Voila's template files; nothing else is served (see :class:`AppVoila`).
"""

from __future__ import annotations

import asyncio
from typing import Any

import tornado.web
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.utils import url_path_join
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from mathgames.server.admission import Door
from mathgames.server.notices import busy_html, language_for
from mathgames.server.proxy import client_address, is_prefetch
from mathgames.server.reaper import KernelReaper
from mathgames.server.render import RENDER, RenderLedger, render_slot
from mathgames.server.wire import V1_PROTOCOL, message_header

__all__ = ["SEND_WITHIN", "AppKernelHandler", "AppKernelWebsocketHandler", "AppPageHandler",
           "AppTemplateFileHandler", "LandingRedirectHandler", "Sending"]


#: How long a page's HTML may wait to leave the server with the HTML made after it.
SEND_WITHIN = 0.01


class Sending:
    """Sends what was written together: ``soon()`` after a write sends it within
    :data:`SEND_WITHIN` seconds, with whatever else was written meanwhile.

    Voila hands a page's HTML over in many small pieces (75 for a game page), and each
    sent on its own was a system call and a wake-up of the browser: about a tenth of
    the server's CPU a page. The page still arrives as it is made, 10 ms at most later.

    >>> import asyncio
    >>> async def three_pieces() -> list[str]:
    ...     sent = []
    ...     sending = Sending(lambda: sent.append("sent"))
    ...     for _ in range(3):
    ...         sending.soon()
    ...     await asyncio.sleep(2 * SEND_WITHIN)
    ...     sending.soon(); sending.cancel()  # the request's end sends the last one
    ...     await asyncio.sleep(2 * SEND_WITHIN)
    ...     return sent
    >>> from concurrent.futures import ThreadPoolExecutor  # a loop of its own
    >>> ThreadPoolExecutor(1).submit(asyncio.run, three_pieces()).result()
    ['sent']
    """

    def __init__(self, send: Any) -> None:
        self.send = send
        self._timer: asyncio.TimerHandle | None = None

    def soon(self) -> None:
        """Send what was written, and what will be within :data:`SEND_WITHIN` seconds."""
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(SEND_WITHIN, self._now)

    def _now(self) -> None:
        self._timer = None
        self.send()

    def cancel(self) -> None:
        """Send nothing more (what is written leaves when the request ends)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class AppPageHandler(TornadoVoilaHandler):
    """Renders an app page, or the "busy" page when the server is full."""

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
        door: Door | None = self.settings.get("mathgames_door")
        reaper: KernelReaper | None = self.settings.get("mathgames_reaper")
        ledger: RenderLedger = self.settings.get("mathgames_renders") or RenderLedger()
        address = self.client()
        refused = door.admit(address) if door is not None else ""
        if refused:
            self.log.warning("mathgames: %d pages open (%d starting), no room (%s from %s): "
                             "busy page for %s", door.open_pages(), ledger.pending, refused,
                             address, path)
            self._busy()
            return
        render = ledger.begin()  # counted under the cap until its kernel is in the list
        RENDER.set(render)
        slot = await render_slot(self.settings.get("mathgames_render_slots"))
        sending = Sending(self.flush)
        try:
            async for html in self.get_generator(path=path):
                self.write(html)
                sending.soon()
        finally:
            sending.cancel()  # what is left leaves with the request's end
            if slot is not None:
                slot.release()
            render.done()
            for kernel_id in render.kernels:  # from now on the page should connect to it
                if reaper is not None:
                    reaper.rendered(kernel_id, address)


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

    def on_message(self, ws_message: Any) -> Any:
        """A message from the page: the first tells the reaper that a page uses the kernel
        (a script that connects and drops sends none)."""
        reaper = self.settings.get("mathgames_reaper")
        if reaper is not None and not getattr(self, "_mathgames_used", False):
            self._mathgames_used = True
            reaper.used(self.kernel_id)
        return super().on_message(ws_message)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        """A refused websocket (a page whose kernel is gone, say): the status and its reason
        in plain text, and no traceback in the log. jupyter_server's own error page uses
        ``static_url``, which fails without the ``static_path`` setting that the app's server
        does not have ("Uncaught exception in write_error", for every try of a lost page)."""
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code} {self._reason}\n")

    def write_message(self, message: Any, binary: bool = False) -> Any:
        header = message_header(message, v1=self.selected_subprotocol == V1_PROTOCOL)
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


class AppTemplateFileHandler(TemplateStaticFileHandler):
    """Voila's template files (``/voila/templates/<template>/static/<file>``); any other
    address there is "not found" (Voila's own handler failed with an error 500)."""

    async def get(self, path: str, include_body: bool = True) -> None:
        parts = path.split("/", 2)
        if len(parts) < 3 or parts[1] != "static" or not parts[0] or not parts[2]:
            raise tornado.web.HTTPError(404)
        await super().get(path, include_body)


