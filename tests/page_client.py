"""A student's visit to an app page at the protocol level, without a browser.

What a browser does for a Voila page, reduced to the network: ``GET`` the page
(Voila runs the notebook in a new kernel while it sends the HTML), then open the
kernel's websocket and ask for the widgets' state the way the widget manager
does (a ``jupyter.widget.control`` comm and ``request_states``). The page is
usable when that state arrives. ``bench/classroom_load.py`` and the security
tests use it; it speaks through tornado's HTTP and websocket clients, in the
websocket protocol a browser's page uses (``v1.kernel.websocket.jupyter.org``:
binary frames the server passes on without decoding), or the older JSON one.

>>> frame = encode_v1(message("kernel_info_request", "shell", session="s"))
>>> decoded = decode_v1(frame)
>>> decoded["channel"], decoded["msg_type"], decoded["content"]
('shell', 'kernel_info_request', {})

>>> kernel_id_of('..."kernelId": "0b6e9f5c-1d1e-4f6a-9a57-0c9f0f5d7e11", ...')
'0b6e9f5c-1d1e-4f6a-9a57-0c9f0f5d7e11'
>>> message("kernel_info_request", "shell", session="s")["header"]["msg_type"]
'kernel_info_request'
"""

from __future__ import annotations

import asyncio
import json
import re
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, WebSocketClosedError, websocket_connect

from mathgames.server.wire import V1_PROTOCOL, decode_v1, encode_v1

__all__ = [
    "V1_PROTOCOL",
    "PageVisit",
    "decode_v1",
    "encode_v1",
    "kernel_id_of",
    "message",
    "request_states",
    "visit",
]


_KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def kernel_id_of(html: str) -> str | None:
    """The id of the page's kernel, from the page configuration in its HTML."""
    found = _KERNEL_ID.search(html)
    return found.group(1) if found else None


def message(msg_type: str, channel: str, content: dict[str, Any] | None = None,
            session: str = "", metadata: dict[str, Any] | None = None) -> dict[str, Any]:
    """A Jupyter message for a kernel websocket (the JSON form)."""
    return {
        "header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
                   "session": session, "date": datetime.now(timezone.utc).isoformat(),
                   "version": "5.3"},
        "parent_header": {}, "metadata": metadata or {}, "content": content or {},
        "channel": channel, "buffers": [],
    }


async def request_states(page: PageVisit) -> str:
    """Ask the page's kernel for its widgets' state, as the widget manager does: a
    ``jupyter.widget.control`` comm, then ``request_states`` on it; the comm's id (the
    answer, ``update_states``, comes on it)."""
    control = uuid.uuid4().hex
    await page.send(message("comm_open", "shell", {
        "comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
        session=page.session, metadata={"version": "1.0.0"}))
    await page.send(message("comm_msg", "shell", {
        "comm_id": control, "data": {"method": "request_states"}}, session=page.session))
    return control


@dataclass
class PageVisit:
    """One visit: the page's answer, its kernel, and when each step finished."""

    base_url: str
    path: str
    status: int = 0
    html: str = ""
    kernel_id: str | None = None
    cookies: dict[str, str] = field(default_factory=dict)
    page_seconds: float | None = None  # the whole HTML received
    usable_seconds: float | None = None  # the widgets' state received over the websocket
    widget_count: int = 0
    states: dict[str, Any] = field(default_factory=dict)  # model id -> the widget's state
    error: str = ""
    ws: WebSocketClientConnection | None = None
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    v1: bool = True  # the browser's websocket protocol (False: the older JSON one)
    source: str | None = None  # the address the visit comes from (None: the system's choice)

    @property
    def busy(self) -> bool:
        """The server answered with its "busy" page."""
        return self.status == 503

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    async def send(self, msg: dict[str, Any]) -> None:
        assert self.ws is not None
        if self.v1:
            await self.ws.write_message(encode_v1(msg), binary=True)
        else:
            await self.ws.write_message(json.dumps(msg))

    async def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next message from the kernel, or ``None`` when the socket closed."""
        assert self.ws is not None
        raw = await asyncio.wait_for(self.ws.read_message(), timeout)
        if raw is None:
            return None
        if self.v1 and isinstance(raw, bytes):
            return decode_v1(raw)
        if isinstance(raw, bytes):  # a message with buffers: offsets, then the JSON part
            count = int.from_bytes(raw[:4], "big")
            offsets = [int.from_bytes(raw[4 * (i + 1):4 * (i + 2)], "big") for i in range(count)]
            raw = raw[offsets[0]:offsets[1] if count > 1 else None].decode("utf-8")
        return json.loads(raw)

    async def wait_for(self, predicate: Any, timeout: float) -> dict[str, Any] | None:
        """The first message for which ``predicate`` holds, or ``None`` after ``timeout``."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = await self.receive(left)
            except asyncio.TimeoutError:
                return None
            if msg is None:
                return None
            if predicate(msg):
                return msg
        return None

    async def close(self, beacon: bool = True) -> int | None:
        """Leave the page: the close beacon (as the browser sends it), then the socket."""
        status = None
        if beacon and self.kernel_id:
            body = urlencode({"_xsrf": self.cookies.get("_xsrf", "")})
            request = HTTPRequest(
                f"{self.base_url}/voila/api/shutdown/{self.kernel_id}", method="POST",
                body=body, headers={"Cookie": self.cookie_header(),
                                    "Content-Type": "application/x-www-form-urlencoded"},
                network_interface=self.source)
            try:
                status = (await AsyncHTTPClient().fetch(request, raise_error=False)).code
            except OSError:
                status = None
        if self.ws is not None:
            self.ws.close()
            self.ws = None
        return status


def _keep_cookies(visit: PageVisit, headers: Any) -> None:
    for line in headers.get_list("Set-Cookie"):
        jar = SimpleCookie()
        jar.load(line)
        for name, morsel in jar.items():
            visit.cookies[name] = morsel.value


async def visit(base_url: str, path: str, *, timeout: float = 300,
                cookies: dict[str, str] | None = None, keep_open: bool = False,
                v1: bool = True, source: str | None = None,
                headers: dict[str, str] | None = None) -> PageVisit:
    """Open a page like a browser and wait until its widgets' state arrives.

    With ``keep_open`` the kernel's websocket stays open (the student stays on the
    page); close it with :meth:`PageVisit.close`. ``source`` is the address the
    visit comes from (a loopback one such as ``127.0.0.2`` stands for another
    device); ``headers`` are sent with the page's request (``X-Forwarded-For``, say).
    """
    result = PageVisit(base_url, path, cookies=dict(cookies or {}), v1=v1, source=source)
    start = time.monotonic()
    try:
        reply = await AsyncHTTPClient().fetch(HTTPRequest(
            f"{base_url}/voila/render/{path}",
            headers={**(headers or {}), "Cookie": result.cookie_header()},
            request_timeout=timeout, connect_timeout=timeout, follow_redirects=False,
            network_interface=source),
            raise_error=False)
        result.status = reply.code
        result.html = reply.body.decode("utf-8", "replace") if reply.body else ""
        _keep_cookies(result, reply.headers)
        result.page_seconds = time.monotonic() - start
        if reply.code != 200:
            return result
        result.kernel_id = kernel_id_of(result.html)
        if result.kernel_id is None:
            result.error = "no kernel id in the page"
            return result
        ws_url = (base_url.replace("http", "ws", 1)
                  + f"/api/kernels/{result.kernel_id}/channels?session_id={result.session}")
        result.ws = await websocket_connect(HTTPRequest(
            ws_url, headers={**(headers or {}), "Cookie": result.cookie_header()},
            connect_timeout=timeout, request_timeout=timeout, network_interface=source),
            subprotocols=[V1_PROTOCOL] if v1 else None)
        if v1 and result.ws.selected_subprotocol != V1_PROTOCOL:
            result.v1 = False  # the server chose the older protocol
        comm_id = await request_states(result)
        left = timeout - (time.monotonic() - start)
        states = await result.wait_for(
            lambda m: m.get("msg_type", m.get("header", {}).get("msg_type")) == "comm_msg"
            and m.get("content", {}).get("comm_id") == comm_id
            and m["content"].get("data", {}).get("method") == "update_states", max(left, 1))
        if states is None:
            result.error = "the widgets' state did not arrive"
        else:
            result.usable_seconds = time.monotonic() - start
            result.states = states["content"]["data"].get("states", {})
            result.widget_count = len(result.states)
    except (HTTPClientError, OSError, asyncio.TimeoutError, WebSocketClosedError) as error:
        result.error = f"{type(error).__name__}: {error}"
    finally:
        if not keep_open and result.ws is not None:
            result.ws.close()
            result.ws = None
    return result
