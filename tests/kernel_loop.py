"""One way for the tests to run what a kernel runs on its event loop.

A kernel runs its pages' live feeds as tasks on its own asyncio loop. A test does the same
in a thread of its own with a new loop: Playwright's sync API (a browser test earlier in
the same worker) may leave a loop marked as running in the test's thread, and a second loop
cannot run beside it there.

>>> import asyncio
>>> async def answer() -> int:
...     await asyncio.sleep(0)
...     return 42
>>> in_own_loop(answer())
42
>>> in_own_loop(lambda loop: loop.run_until_complete(answer()) + 1)
43
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["in_own_loop"]

T = TypeVar("T")


def in_own_loop(work: Coroutine[Any, Any, T] | Callable[[asyncio.AbstractEventLoop], T],
                cleanup: Callable[[], None] | None = None) -> T:
    """Run ``work`` on a new event loop in a new thread and return its result.

    ``work`` is a coroutine (run to its end) or a function of the loop (it runs the loop
    itself, as a test that drives pages does). Tasks left on the loop are cancelled, then
    ``cleanup`` runs in that thread; an exception in ``work`` is raised here.
    """
    result: list[Any] = []
    failure: list[BaseException] = []

    def main() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        try:
            result.append(loop.run_until_complete(work) if asyncio.iscoroutine(work)
                          else work(loop))
        except BaseException as error:  # raised again in the caller's thread
            failure.append(error)
        finally:
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0.05))
            loop.close()
            if cleanup is not None:
                cleanup()

    thread = threading.Thread(target=main, name="kernel-loop")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]
