"""How long the reaper keeps the kernel of a page that lost its connection (issue 64): long
enough for a Wi-Fi blip or a phone that slept to reconnect, shorter when the server is
crowded, and short for a page that connected and dropped at once (a script)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from mathgames.server.app import AppVoila
from mathgames.server.reaper import KernelReaper
from tests.kernel_loop import in_own_loop as run


class FakeManager:
    """What the reaper reads of jupyter_server's kernel manager."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = list(ids)
        self._kernel_connections: dict[str, int] = {}

    def list_kernel_ids(self) -> list[str]:
        return list(self.ids)

    async def shutdown_kernel(self, kernel_id: str) -> None:
        self.ids.remove(kernel_id)


class FakeApp:
    def __init__(self, manager: FakeManager) -> None:
        self.kernel_manager = manager
        self.log = logging.getLogger("test-reaper")


def test_a_lost_page_keeps_its_kernel_for_the_grace_and_less_when_crowded(
        monkeypatch: Any) -> None:
    assert AppVoila.disconnected_grace.default_value == 120
    assert AppVoila.crowded_disconnected_grace.default_value == 30
    clock = [1000.0]

    async def scenario() -> list[list[str]]:
        with monkeypatch.context() as frozen:  # a still clock, for the scenario only
            frozen.setattr("mathgames.server.reaper.time.monotonic", lambda: clock[0])
            return await reaped()

    async def reaped() -> list[list[str]]:
        manager = FakeManager(["a", "b", "c", "d"])
        crowded = [False]
        reaper = KernelReaper(FakeApp(manager), 120, 300, 20, crowded=lambda: crowded[0],
                              crowded_disconnected_grace=30)
        seen = []
        for kernel_id in ("a", "b", "c", "d"):
            reaper.rendered(kernel_id, "10.0.0.1")
            reaper.connected(kernel_id)
        reaper.used("d")  # d's page sent a message and dropped at once: someone used it
        manager._kernel_connections.update(a=1, b=1)
        reaper.tick()  # c connected and dropped at once
        clock[0] += 2
        reaper.tick()
        clock[0] += 2  # a and b were used for 4 s, and left since the last tick
        manager._kernel_connections.clear()
        reaper.tick()
        clock[0] += 9
        reaper.tick()
        await asyncio.sleep(0)
        seen.append(manager.list_kernel_ids())  # c: the brief grace
        for step, crowd in ((18, False), (31, False), (31, True), (200, False)):
            clock[0] += step
            crowded[0] = crowd
            manager._kernel_connections["a"] = 1 if step == 31 and not crowd else 0
            reaper.tick()
            await asyncio.sleep(0)
            seen.append(manager.list_kernel_ids())
        return seen

    # c: ended after 10 s (d, used, lives on); a: back after 60 s (reconnected), lost
    # again; b and d: kept while not crowded, ended once the server is crowded; a: ended
    # 120 s after it was lost again
    seen = run(scenario())
    assert [[k for k in ids if k != "d"] for ids in seen] == [["a", "b"], ["a", "b"],
                                                              ["a", "b"], ["a"], []]
    assert [("d" in ids) for ids in seen] == [True, True, True, False, False]
