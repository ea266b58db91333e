"""The reaper: ends the kernels of pages that went away or never came, and tells a flood.

A page's kernel costs memory for as long as it runs; a browser that was closed, a phone that
died or a script that fetches pages and never connects leaves one behind. The reaper ends
those, and names an address whose pages never connect a *flood* (the door then treats it
apart, see :mod:`mathgames.server.admission`).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import tornado.web
from voila.app import Voila

__all__ = ["KernelReaper", "connections"]


def connections(manager: Any, kernel_id: str) -> int:
    """How many websockets a page has open to this kernel now.

    jupyter_server keeps the count in its kernel manager's ``_kernel_connections`` (no public
    accessor in jupyter_server 2): this is the one place that reads it.
    """
    return int(manager._kernel_connections.get(kernel_id, 0))


class KernelReaper:
    """Ends kernels whose page went away, or never came.

    - A kernel whose page sent it a message, or stayed connected for :attr:`SETTLED`
      seconds (told at the latest at the first tick after it left), and has had none for
      ``disconnected_grace`` seconds (the page was closed, reloaded, left, or its browser
      died) is shut down; only ``crowded_disconnected_grace`` seconds after when the server
      is near its limit. The grace is long enough for a page whose network dropped, or a
      phone that slept, to reconnect to its kernel when it comes back; a page back after
      longer finds its kernel gone and reloads itself (``static/page.js``). A page that
      dropped its connection sooner, having sent nothing (a script that connects and
      drops, again and again), has :attr:`BRIEF_GRACE`.
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
    #: A page connected this long (s) is one someone uses: its kernel gets the long grace.
    SETTLED = 3.0
    #: The grace (s) of a kernel whose page connected and dropped before it was settled.
    BRIEF_GRACE = 10.0

    def __init__(self, app: Voila, disconnected_grace: float, unconnected_grace: float,
                 crowded_grace: float | None = None, per_address: int = 4,
                 crowded: Any = None, crowded_disconnected_grace: float | None = None) -> None:
        self.app = app
        self.disconnected_grace = disconnected_grace
        self.crowded_disconnected_grace = (disconnected_grace if crowded_disconnected_grace
                                           is None else crowded_disconnected_grace)
        self.unconnected_grace = unconnected_grace
        self.crowded_grace = unconnected_grace if crowded_grace is None else crowded_grace
        self.per_address = per_address
        self.crowded = crowded or (lambda: False)
        self.was_connected: set[str] = set()
        self.alone_since: dict[str, float] = {}
        #: since when each kernel has had a page connected (while it has one), and the
        #: kernels whose page stayed :attr:`SETTLED` seconds
        self.connected_since: dict[str, float] = {}
        self.settled: set[str] = set()
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
        self.connected_since.setdefault(kernel_id, time.monotonic())

    def used(self, kernel_id: str) -> None:
        """A page sent its kernel a message (told by its websocket handler): someone uses it,
        and its kernel gets the long grace when its connection drops."""
        self.settled.add(kernel_id)

    def _manager(self) -> Any:
        return getattr(self.app, "kernel_manager", None)

    def _unconnected(self, manager: Any) -> dict[str, str]:
        """Kernels whose page was sent and never connected, and their visitors' addresses."""
        running = set(manager.list_kernel_ids())
        return {kernel_id: self.address_of.get(kernel_id, "")
                for kernel_id in (set(self.rendered_at) & running) - self.was_connected
                - self.ending if connections(manager, kernel_id) == 0}

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
            connected_for = now - self.connected_since.get(kernel_id, now)
            if connections(manager, kernel_id) > 0:
                self.was_connected.add(kernel_id)
                self.alone_since.pop(kernel_id, None)
                self.connected_since.setdefault(kernel_id, now)
                if connected_for >= self.SETTLED:
                    self.settled.add(kernel_id)
                continue
            if connected_for >= self.SETTLED:  # it left since the last tick, after a while
                self.settled.add(kernel_id)
            self.connected_since.pop(kernel_id, None)
            since = self.alone_since.setdefault(kernel_id, now)
            if kernel_id in self.was_connected:
                grace = (self.BRIEF_GRACE if kernel_id not in self.settled
                         else self.crowded_disconnected_grace if crowded
                         else self.disconnected_grace)
                due = now - since >= min(grace, self.disconnected_grace)
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
        self.settled &= ids
        for gone in set(self.connected_since) - ids:
            del self.connected_since[gone]
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
               if connections(manager, k) == 0
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
                if connections(manager, k) == 0
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


