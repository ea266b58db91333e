"""A page's start: its cells run as soon as its kernel answers, and its websocket carries
messages at once (real kernels, and the app's real server)."""

from __future__ import annotations

import contextlib
import http.client
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
import zmq
from jupyter_client.asynchronous import AsyncKernelClient

from mathgames.server.render import (
    RECONNECT_MAX_MS,
    RECONNECT_MS,
    AppKernelManager,
    PromptKernelClient,
)
from mathgames.server.serve import app_config
from tests.kernel_loop import in_own_loop as run
from tests.page_client import kernel_id_of


@contextlib.asynccontextmanager
async def started_kernel() -> AsyncIterator[Any]:
    """A real kernel's manager under the server's kernel manager."""
    kernels = AppKernelManager()
    kernel_id = await kernels.start_kernel(kernel_name="python3")
    try:
        kernel = kernels.get_kernel(kernel_id)
        kernel.client_class = "mathgames.server.render.PromptKernelClient"
        yield kernel
    finally:
        await kernels.shutdown_all(now=True)


async def answer_of(client: AsyncKernelClient, code: str) -> str:
    """The text of ``code``'s result, read among everything else the kernel broadcasts."""
    msg_id = client.execute(code)
    while True:
        message = await client.get_iopub_msg(timeout=60)
        if (message["parent_header"].get("msg_id") == msg_id
                and message["msg_type"] == "execute_result"):
            return str(message["content"]["data"]["text/plain"])


def test_the_page_client_goes_on_once_the_kernel_answered_not_after_a_quiet_spell() -> None:
    async def scenario() -> tuple[list[float | None], str, str, Any]:
        async with started_kernel() as kernel:
            client = kernel.client()
            client.start_channels()
            waits: list[float | None] = []
            read = client.iopub_channel.get_msg

            async def counted(timeout: float | None = None) -> Any:
                waits.append(timeout)
                return await read(timeout)

            client.iopub_channel.get_msg = counted
            kernel.execution_state = "starting"  # its watcher has heard nothing yet
            try:
                await client.wait_for_ready(timeout=120)
                assert client._hb_channel is None  # no heartbeat thread: the manager knows
                assert await client._async_is_alive()
                state = kernel.execution_state
                client.iopub_channel.get_msg = read
                answer = await answer_of(client, "6 * 7")
            finally:
                client.stop_channels()
            return waits, state, answer, client

    waits, state, answer, client = run(scenario())
    assert isinstance(client, PromptKernelClient)
    # one wait for the kernel's first broadcast, then only what had arrived: no quiet spell
    assert waits[0] == 0.2 and waits[-1] == 0
    assert all(wait == 0 for wait in waits[waits.index(0):]), waits
    assert state == "idle"  # the page's websocket need not wait for its watcher
    assert answer == "42"  # what the start left unread does not mix into the first cell


def test_the_page_client_says_when_the_kernel_died_before_it_answered() -> None:
    async def scenario() -> str:
        async with started_kernel() as kernel:
            await kernel.shutdown_kernel(now=True)
            client = kernel.client()
            client.start_channels()
            try:
                await client.wait_for_ready(timeout=120)
            except RuntimeError as error:
                return str(error)
            finally:
                client.stop_channels()
            return "ready"

    assert "died" in run(scenario())


def test_the_servers_sockets_to_a_kernel_try_again_soon() -> None:
    kernels = AppKernelManager()  # it ends its context when it goes
    socket = kernels.context.socket(zmq.SUB)
    try:
        assert socket.getsockopt(zmq.RECONNECT_IVL) == RECONNECT_MS < 100  # zmq's 100 ms
        assert socket.getsockopt(zmq.RECONNECT_IVL_MAX) == RECONNECT_MAX_MS
    finally:
        socket.close(linger=0)


def test_the_apps_server_runs_pages_with_the_prompt_client(tmp_path: Any) -> None:
    config = app_config(tmp_path, 8866, "127.0.0.1", 10)
    assert config.AsyncKernelManager.client_class == "mathgames.server.render.PromptKernelClient"


@pytest.fixture
def kernel_after_html(voila_url: str) -> Iterator[dict[str, Any]]:
    """The model of a game page's kernel, read from the app's real server just after the
    page's HTML (no websocket yet: the page's browser has not connected)."""
    host, port = voila_url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=300)
    try:
        connection.request("GET", "/voila/render/matematiko.ipynb")
        reply = connection.getresponse()
        html = reply.read().decode()
        assert reply.status == 200, html[-2000:]
        kernel_id = kernel_id_of(html)
        assert kernel_id is not None
        cookies = "; ".join(part.split(";")[0] for part in reply.headers.get_all("Set-Cookie"))
        connection.request("GET", f"/api/kernels/{kernel_id}", headers={"Cookie": cookies})
        model_reply = connection.getresponse()
        model = json.loads(model_reply.read())
        assert model_reply.status == 200, model
        yield model
        xsrf = next((part.split("=", 1)[1] for part in cookies.split("; ")
                     if part.startswith("_xsrf=")), "")
        connection.request(  # the page leaves, as its browser would
            "POST", f"/voila/api/shutdown/{kernel_id}", body=urlencode({"_xsrf": xsrf}),
            headers={"Cookie": cookies, "Content-Type": "application/x-www-form-urlencoded"})
        connection.getresponse().read()
    finally:
        connection.close()


def test_a_pages_kernel_is_known_idle_when_its_html_is_sent(
        kernel_after_html: dict[str, Any]) -> None:
    model = kernel_after_html
    # not "starting": the page's websocket then carries messages without waiting for the
    # server's next knock on the kernel
    assert model["execution_state"] == "idle", model
