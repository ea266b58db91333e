"""The app's own Voila server: the app's pages, their files and kernels, and nothing else.

:class:`AppVoila` is Voila's standalone application (no Jupyter server, so no
JupyterLab, Notebook, terminals, contents API or kernels API that starts a
kernel) with these changes:

- ``/`` redirects to the landing page (keeping ``?lang=``); the file tree and its
  contents listing are gone; any notebook under the root folder is a page at
  ``/voila/render/<path>``.
- The page handler renders a page only while the door admits it (fewer than
  ``max_kernels`` kernels run or are being started, and no swapping), and otherwise
  answers with a friendly,
  translated "busy" page (HTTP 503) without touching what runs. It also sets the
  ``_xsrf`` cookie, which the page's "close" beacon (``POST
  /voila/api/shutdown/<kernel>``) must send back: without it the beacon is
  refused (voila-dashboards/voila#1458) and the kernel of a closed page lives on.
- The reaper ends the kernel of a page that disconnected and did not
  come back within ``disconnected_grace`` (120 s; ``crowded_disconnected_grace``, 30 s,
  near the cap; 10 s for a page that sent nothing in its first 3 s; a killed browser sends no
  beacon), and the kernel of a page that never
  connected (a ``curl``, a link preview, a page abandoned while it loaded): after
  ``unconnected_grace`` (300 s), or ``crowded_grace`` (20 s) once the server is near its
  cap or the device's address floods it (holds more than ``unconnected_per_address``
  such pages for 5 s). A flooding address gets no page while the server is near its
  limit, and otherwise one in place of its oldest; a full server ends a flood's page,
  else the stalest page no one uses, before it turns a visitor away.
  Prefetches and ``HEAD`` start no kernel.
- The visitor's address is the connection's, or, from a proxy the teacher named
  (``--trusted-proxy``), the one the proxy saw.
- With a class password, a small translated login page comes first.

Every user-facing text is translated (:mod:`mathgames.server.notices`). The rooms: the
handlers (:mod:`~mathgames.server.handlers`), the door and its memory rule
(:mod:`~mathgames.server.admission`), the reaper (:mod:`~mathgames.server.reaper`),
visitors' addresses (:mod:`~mathgames.server.proxy`), the websocket's frames
(:mod:`~mathgames.server.wire`), rendering (:mod:`~mathgames.server.render`), the
password (:mod:`~mathgames.server.login`) and forked kernels
(:mod:`~mathgames.server.kernel_forks`).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from jupyter_server.auth.login import LoginFormHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from jupyter_server.utils import url_path_join
from tornado.ioloop import IOLoop, PeriodicCallback
from traitlets import Bool, Float, Int, List, Unicode
from voila.app import Voila
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from mathgames.pages.address import address_html
from mathgames.server.admission import Admission, Door, page_mib
from mathgames.server.fastpath import fast_message_dates
from mathgames.server.handlers import (
    AppKernelHandler,
    AppKernelWebsocketHandler,
    AppPageHandler,
    AppTemplateFileHandler,
    LandingRedirectHandler,
)
from mathgames.server.kernel_forks import KernelTemplate, fork_supported
from mathgames.server.login import AppLoginHandler, AppLogoutHandler
from mathgames.server.proxy import trusted_networks
from mathgames.server.reaper import KernelReaper
from mathgames.server.render import (
    AppKernelManager,
    RenderLedger,
    cache_page_config,
    cache_page_templates,
    lighter_page_config,
)
from mathgames.server.sockets import allow_sockets

__all__ = ["AppVoila"]


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
    # a page whose network dropped, or a phone that slept, reconnects to its kernel within
    # this; a page that comes back later reloads itself (README "When the network drops")
    disconnected_grace = Float(120.0, config=True,
                               help="End a kernel this many seconds after its page left.")
    crowded_disconnected_grace = Float(30.0, config=True,
                                       help="... only this long when the server is near its "
                                            "limit.")
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
                             "(mathgames.server.kernel_forks) instead of starting each anew "
                             "(on Linux only; elsewhere, or with MATHGAMES_FORK=0, plain "
                             "kernels).")
    #: the kernel template this server started (None without one), and whether it stopped
    template: KernelTemplate | None = None
    _stopped = False

    def initialize(self, argv: Any = None) -> None:
        """Voila's set-up, then the server's own rooms: the ledger of pages on their way,
        the reaper and the door (both look the kernel manager up when they run)."""
        super().initialize(argv)
        self.renders = RenderLedger()
        self.reaper = KernelReaper(self, self.disconnected_grace, self.unconnected_grace,
                                   self.crowded_grace, self.unconnected_per_address,
                                   crowded_disconnected_grace=self.crowded_disconnected_grace)
        per_page = page_mib(self.fork_kernels and fork_supported())
        self.door = Door(Admission(self.max_kernels, per_page_mib=per_page), self.reaper,
                         running=lambda: len(self.kernel_manager.list_kernel_ids()),
                         pending=lambda: self.renders.pending,
                         rendering=lambda: self.renders.rendering)
        self.reaper.crowded = self.door.crowded

    def init_settings(self) -> dict[str, Any]:
        cache_page_templates()
        cache_page_config()
        fast_message_dates()
        if self.voila_configuration.page_config_hook is None:
            self.voila_configuration.page_config_hook = lighter_page_config
        if self.voila_configuration.multi_kernel_manager_class is AsyncMappingKernelManager:
            # the same manager, which also tells the page being rendered about its kernel
            self.voila_configuration.multi_kernel_manager_class = AppKernelManager
        settings = super().init_settings()
        allow_sockets(self.kernel_manager.context, self.max_kernels)
        # Voila calls this from start(), on the server's loop: the reaper ticks from now on
        self._reaping = PeriodicCallback(self.reaper.tick, self.reap_interval * 1000)
        self._reaping.start()
        settings.update(
            mathgames_max_kernels=self.max_kernels,
            mathgames_door=self.door,
            mathgames_reaper=self.reaper,
            mathgames_renders=self.renders,
            mathgames_trusted_proxies=trusted_networks(self.trusted_proxies),
            mathgames_render_slots=(asyncio.Semaphore(self.render_slots)
                                    if self.render_slots > 0 else None),
        )
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

    def start(self) -> None:
        self.log.addFilter(_quiet_trust)
        # traitlets leaves the app's logger at DEBUG and filters in its handler: every
        # debug line (two for each message of each kernel) was built, then dropped
        if self.log.getEffectiveLevel() < self.log_level:
            self.log.setLevel(self.log_level)
        if self.class_url:
            address_html(self.class_url)  # fails now, not on the landing page, if it cannot
        # Voila's SIGTERM handler stops self.ioloop: give it the loop now, so that a
        # SIGTERM while the template starts stops the server cleanly once it runs. A
        # closed terminal window (SIGHUP) stops it the same way, unless it was started
        # to survive one (nohup)
        self.ioloop = IOLoop.current()
        hangup = getattr(signal, "SIGHUP", None)  # none on Windows
        if hangup is not None and signal.getsignal(hangup) is not signal.SIG_IGN:
            signal.signal(hangup, self._handle_signal_stop)
        if self.fork_kernels and fork_supported():
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

