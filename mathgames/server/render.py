"""How the server renders a page: templates compiled once, lighter pages without charts,
a ledger of the pages on their way, a bounded number of renders at once, and a page's
cells run as soon as its kernel answers.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import time
from collections.abc import Callable
from queue import Empty
from types import CodeType
from typing import Any

import jinja2
import voila.handler
import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from voila.exporter import VoilaExporter

from mathgames.page_list import PAGES_WITHOUT_CHARTS

__all__ = [
    "CHART_EXTENSIONS",
    "RENDER",
    "SLOT_PATIENCE",
    "TEMPLATE_CACHE",
    "AppKernelManager",
    "PromptKernelClient",
    "Render",
    "RenderLedger",
    "TemplateCache",
    "cache_page_config",
    "cache_page_templates",
    "lighter_page_config",
    "render_slot",
]


class TemplateCache(jinja2.BytecodeCache):
    """Compiled page templates, kept in memory for the server's life.

    Voila builds a new Jinja environment for every page, so each page compiled
    the same templates again: about a quarter of the server's work per page. With
    this cache a template is compiled once; Jinja checks the source's checksum, so
    an edited template is compiled again. The compiled code is kept as it is (code
    objects never change), not as bytes to read back for every page: that reading
    was a tenth of the server's work a page.

    >>> env = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 1 + 1 }}"}),
    ...                          bytecode_cache=TemplateCache())
    >>> env.get_template("t").render(), len(env.bytecode_cache.store)
    ('2', 1)
    >>> other = jinja2.Environment(loader=jinja2.DictLoader({"t": "{{ 2 + 2 }}"}),
    ...                            bytecode_cache=env.bytecode_cache)
    >>> other.get_template("t").render()  # the same name, an edited source
    '4'
    """

    def __init__(self) -> None:
        self.store: dict[str, tuple[str, CodeType]] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self.store.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            self.store[bucket.key] = (bucket.checksum, bucket.code)


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


def cache_page_config() -> None:
    """Make Voila's page handler read the page configuration once per server (idempotent).

    For every page Voila read each front-end extension's ``package.json`` from disk again
    (a sixth of the page request's own work). The configuration names the server's
    address and its extensions, nothing of a visitor or a kernel; each page gets its own
    copy (and Voila copies it again before it adds the page's theme).
    """
    if getattr(voila.handler, "_mathgames_cached_config", False):
        return
    read = voila.handler.get_page_config
    # by the server: its base URL, and its settings and configuration by identity (kept
    # with the configuration read, so that no other object takes their ids)
    made: dict[tuple[str, int, int], tuple[Any, Any, dict[str, Any]]] = {}

    def cached(base_url: str, settings: dict[str, Any], log: Any,
               voila_configuration: Any) -> dict[str, Any]:
        key = (base_url, id(settings), id(voila_configuration))
        if key not in made:
            made[key] = (settings, voila_configuration, read(
                base_url=base_url, settings=settings, log=log,
                voila_configuration=voila_configuration))
        return copy.deepcopy(made[key][2])

    voila.handler.get_page_config = cached
    voila.handler._mathgames_cached_config = True


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


class RenderLedger:
    """The server's pages on their way: admitted with no kernel yet (``pending``, counted
    under the cap) and being rendered (``rendering``: their kernels still growing, so not
    yet seen in the memory's reading). One per server.

    >>> ledger = RenderLedger()
    >>> render = ledger.begin()
    >>> ledger.pending, ledger.rendering
    (1, 1)
    >>> render.release(); render.release()  # its kernel is in the manager's list now
    >>> render.done()
    >>> ledger.pending, ledger.rendering
    (0, 0)
    """

    def __init__(self) -> None:
        self.pending = 0
        self.rendering = 0

    def begin(self) -> Render:
        """A page admitted now; the caller ends it with :meth:`Render.done`."""
        return Render(self)


class Render:
    """One page being rendered: the kernels started for it, and its place in the ledger."""

    def __init__(self, ledger: RenderLedger) -> None:
        self.ledger = ledger
        self.kernels: list[str] = []
        self.pending = True
        self.rendering = True
        ledger.pending += 1
        ledger.rendering += 1

    def release(self) -> None:
        """Its kernel is in the kernel manager's list now (or it will have none)."""
        if self.pending:
            self.pending = False
            self.ledger.pending -= 1

    def done(self) -> None:
        """Its page was sent (or its request ended): its kernel has grown to its size."""
        self.release()
        if self.rendering:
            self.rendering = False
            self.ledger.rendering -= 1


#: The page being rendered by the current request (set by the page handler).
RENDER: contextvars.ContextVar[Render | None] = contextvars.ContextVar(
    "mathgames_render", default=None)


#: A page waits at most this long for a render slot, then renders anyway (a page whose
#: notebook waits for something, such as a class page, never blocks the others for long).
SLOT_PATIENCE = 20.0


async def render_slot(slots: asyncio.Semaphore | None) -> asyncio.Semaphore | None:
    """Wait for one of the server's page renders (``None``: no limit); what to release."""
    if slots is None:
        return None
    try:
        await asyncio.wait_for(slots.acquire(), SLOT_PATIENCE)
    except asyncio.TimeoutError:
        return None
    return slots


class PromptKernelClient(AsyncKernelClient):  # type: ignore[misc]
    """The kernel client that runs a page's cells: ready as soon as its kernel is.

    jupyter_client's client, once its kernel had answered, waited until the kernel had
    been quiet for 0.2 s before the page's first cell ran: two thirds of a lone page's
    wait, and on a class server a render slot held idle that long for every page. This
    one takes what the kernel has broadcast so far and goes on; what it broadcasts later
    about the question it answered is set aside by whoever reads it (the page's cells'
    runner takes only the replies to its own requests).

    The kernel has answered, so it is no longer starting: the client says so to its
    kernel's manager, whose watcher of the kernel's broadcasts may have connected too
    late to hear any of them. The page's websocket otherwise waited for the next of its
    half-second knocks on the kernel before it carried anything.
    """

    def start_channels(self, shell: bool = True, iopub: bool = True, stdin: bool = True,
                       hb: bool = False, control: bool = True) -> None:
        """The client's channels to its kernel, without the heartbeat's unless asked: the
        kernel's manager tells whether the kernel lives (the heartbeat channel was a
        thread with its own event loop for every page, unread)."""
        super().start_channels(shell=shell, iopub=iopub, stdin=stdin, hb=hb, control=control)

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        """Return once the kernel has answered and its broadcasts reach this client.

        Raises :class:`RuntimeError` if the kernel dies first, or is silent for
        ``timeout`` seconds (``None``: no limit).
        """
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                reply = None
            if reply is not None and reply["msg_type"] == "kernel_info_reply":
                try:  # and its broadcasts reach us: it has said something there
                    await self.iopub_channel.get_msg(timeout=0.2)
                except Empty:
                    pass  # not subscribed yet: ask again
                else:
                    self._handle_kernel_info_reply(reply)
                    break
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")
        while True:  # what it has broadcast until now, without waiting for more
            try:
                await self.iopub_channel.get_msg(timeout=0)
            except Empty:
                break
        manager = self.parent
        if getattr(manager, "execution_state", None) == "starting":
            manager.execution_state = "idle"


#: How soon the server's sockets to a kernel try again when the kernel is not listening
#: yet: zmq's default is every 100 ms; here after 10 ms, doubling up to those 100 ms.
RECONNECT_MS = 10
RECONNECT_MAX_MS = 100


class AppKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, which tells the page being rendered (:data:`RENDER`)
    about the kernel it started: from then on the kernel counts itself under the cap, and
    the reaper waits for the page's HTML to be sent before it counts the page as left.

    Its kernels share one event logger: jupyter_server built one for every kernel,
    reading and checking its event schemas anew (a twentieth of the server's CPU a page).
    """

    _event_logger: Any = None

    def _context_default(self) -> Any:
        """The server's zmq context: its sockets to a forked kernel, which listens some
        milliseconds after the server connects, try again sooner than zmq's default."""
        context = super()._context_default()
        context.setsockopt(zmq.RECONNECT_IVL, RECONNECT_MS)
        context.setsockopt(zmq.RECONNECT_IVL_MAX, RECONNECT_MAX_MS)
        return context

    def _create_kernel_manager_factory(self) -> Callable[..., Any]:
        create = super()._create_kernel_manager_factory()

        def create_sharing_events(*args: Any, **kwargs: Any) -> Any:
            if self._event_logger is not None:
                kwargs.setdefault("event_logger", self._event_logger)
            manager = create(*args, **kwargs)
            if self._event_logger is None and manager.has_trait("event_logger"):
                self._event_logger = manager.event_logger  # built once, with its schemas
            return manager

        return create_sharing_events

    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        render = RENDER.get()
        try:
            kernel_id: str = await super().start_kernel(*args, **kwargs)
        finally:
            if render is not None:  # the kernel counts itself now
                render.release()
        if render is not None:  # started for a page: the reaper waits for its render
            render.kernels.append(kernel_id)
        return kernel_id
