"""A served page's kernel, as the app's server runs it: its page's widgets are not announced
while its cells run, the page gets every state when it asks, and from then on the widgets
and the page speak both ways (a real kernel through jupyter_client)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.manager import start_new_kernel

from mathgames.core.served import SERVED_PAGE_VARIABLE

PAGE_PARTS = {"TextModel", "ButtonModel", "VBoxModel", "HTMLModel"}


@pytest.fixture
def kernel() -> Iterator[Any]:
    manager, client = start_new_kernel(kernel_name="python3", startup_timeout=120,
                                       env={**os.environ, SERVED_PAGE_VARIABLE: "1"})
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def until_idle(client: Any, msg_id: str) -> list[dict[str, Any]]:
    """The iopub messages the request ``msg_id`` caused, until the kernel is idle again."""
    messages = []
    while True:
        message = client.get_iopub_msg(timeout=60)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        messages.append(message)
        if (message["msg_type"] == "status"
                and message["content"]["execution_state"] == "idle"):
            return messages


def run(client: Any, code: str) -> tuple[list[dict[str, Any]], str]:
    """Run ``code``; its iopub messages and its result's text."""
    messages = until_idle(client, client.execute(code))
    results = [m["content"]["data"]["text/plain"] for m in messages
               if m["msg_type"] == "execute_result"]
    errors = [m["content"] for m in messages if m["msg_type"] == "error"]
    assert not errors, errors
    return messages, results[-1] if results else ""


def comm_message(client: Any, msg_type: str, content: dict[str, Any],
                 metadata: dict[str, Any] | None = None) -> str:
    message = client.session.msg(msg_type, content, metadata=metadata)
    client.shell_channel.send(message)
    return message["header"]["msg_id"]


def test_a_served_page_is_announced_at_the_request_and_speaks_both_ways(kernel: Any) -> None:
    messages, _ = run(kernel, "from mathgames.pages.join import JoinPage\n"
                              "page = JoinPage()\npage")
    opened = [m["content"]["data"]["state"]["_model_name"] for m in messages
              if m["msg_type"] == "comm_open"]
    assert not PAGE_PARTS & set(opened), opened  # only the server would have read them
    _, name_id = run(kernel, "page.name_input.model_id")
    name_id = name_id.strip("'")
    # the page's browser asks for every state, as ipywidgets' front end does
    control = uuid.uuid4().hex
    comm_message(kernel, "comm_open", {"comm_id": control, "target_name":
                                       "jupyter.widget.control", "data": {}},
                 {"version": "1.0.0"})
    asked = comm_message(kernel, "comm_msg", {"comm_id": control,
                                              "data": {"method": "request_states"}})
    answer = [m for m in until_idle(kernel, asked) if m["msg_type"] == "comm_msg"]
    states = answer[0]["content"]["data"]["states"]
    assert states[name_id]["model_name"] == "TextModel"
    # the kernel's change reaches the page
    messages, _ = run(kernel, "page.name_input.value = 'Ann'")
    updates = [m["content"] for m in messages if m["msg_type"] == "comm_msg"]
    assert {"comm_id": name_id, "method": "update", "value": "Ann"} in [
        {"comm_id": u["comm_id"], "method": u["data"]["method"],
         "value": u["data"].get("state", {}).get("value")} for u in updates]
    # and the page's change reaches the kernel
    typed = comm_message(kernel, "comm_msg", {"comm_id": name_id, "data": {
        "method": "update", "state": {"value": "Ben"}, "buffer_paths": []}})
    until_idle(kernel, typed)
    assert run(kernel, "page.name_input.value")[1] == "'Ben'"
    # a widget made after the page asked is announced as usual
    messages, _ = run(kernel, "import ipywidgets as w\nw.Text('later')")
    assert "TextModel" in [m["content"]["data"]["state"]["_model_name"] for m in messages
                           if m["msg_type"] == "comm_open"]
