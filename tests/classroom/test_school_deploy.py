"""What a school installs: the proxy's configuration, the compose file and the Dockerfile.

No Docker daemon runs here, so the image is not built: its install and start commands,
read from the Dockerfile itself, run in a fresh virtual environment exactly as written
(with the image's folders moved to a temporary one), and the health check it names
answers from the server they started, which keeps its classes in the PostgreSQL named by
``MATHGAMES_STORE``. The proxy's configuration is checked by HAProxy itself
(``haproxy -c``); the compose file's structure is read with a YAML parser.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pgserver import PostgresServer
from school import HAPROXY_CFG, ROOT, Teacher, haproxy_env, haproxy_path
from school import LivePage as Page

from mathgames.classroom.store import open_store
from tests import prepared
from tests.conftest import ARTIFACTS, free_port
from tests.kernel_loop import in_own_loop
from tests.prepared import dockerfile, image_env, image_process_env, in_folder

pytestmark = [pytest.mark.slow]

DEPLOY = ROOT / "deploy"


def test_the_proxy_configuration_is_valid() -> None:
    if haproxy_path() is None:
        pytest.fail("HAProxy is not installed: run .ci/ensure-haproxy (apt-get install haproxy)")
    env = dict(os.environ, **haproxy_env("127.0.0.1:18080", ["127.0.0.1:18081",
                                                             "127.0.0.1:18082"]))
    check = subprocess.run([haproxy_path() or "haproxy", "-c", "-f", str(HAPROXY_CFG)],
                           env=env, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "Configuration file is valid" in check.stdout + check.stderr
    # without its addresses it is refused, not started on a default
    bare = {k: v for k, v in os.environ.items() if not k.startswith("MATHGAMES_")}
    refused = subprocess.run([haproxy_path() or "haproxy", "-c", "-f", str(HAPROXY_CFG)],
                             env=bare, capture_output=True, text=True)
    assert refused.returncode != 0


def test_the_compose_file_fits_the_proxy_and_the_image() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"proxy", "app1", "app2", "db"}
    config = HAPROXY_CFG.read_text()
    # the proxy gets every address its configuration asks for, and the file it mounts
    wanted = set(re.findall(r'"\$\{(\w+)\}"', config))
    proxy = services["proxy"]
    assert wanted == set(proxy["environment"]), (wanted, proxy["environment"])
    mounted = [v.split(":")[0] for v in proxy["volumes"]]
    assert all((DEPLOY / path).resolve().exists() for path in mounted), mounted
    assert (DEPLOY / mounted[0]).resolve() == HAPROXY_CFG
    published = proxy["ports"][0].split(":")[-1]
    assert proxy["environment"]["MATHGAMES_BIND"] == f":{published}"
    # each app server: the image of the Dockerfile, on the port the proxy sends to, over
    # the database service, started after the database answers
    image_port = image_env()["PORT"]
    for index, name in enumerate(("app1", "app2"), 1):
        app = services[name]
        assert (DEPLOY / app["build"]["context"] / app["build"]["dockerfile"]).resolve() == (
            ROOT / "Dockerfile")
        host, port = proxy["environment"][f"MATHGAMES_APP{index}"].split(":")
        assert host == name and port == app["environment"]["PORT"] == image_port
        assert app["environment"]["MATHGAMES_STORE"].startswith("postgresql://")
        assert "@db/" in app["environment"]["MATHGAMES_STORE"]
        assert app["depends_on"]["db"]["condition"] == "service_healthy"
        trusted = app["environment"]["MATHGAMES_ARGS"].split()
        proxy_address = proxy["networks"]["school"]["ipv4_address"]
        assert trusted[trusted.index("--trusted-proxy") + 1] == proxy_address
    # the database keeps its data in a named volume, and allows two connections a page
    db = services["db"]
    volume = db["volumes"][0].split(":")[0]
    assert volume in compose["volumes"]
    assert db["volumes"][0].endswith(":/var/lib/postgresql/data")
    assert "healthcheck" in db
    max_connections = int(db["command"][db["command"].index("-c") + 1].split("=")[1])
    assert max_connections >= 2 * 2 * 80


@pytest.fixture(scope="module")
def pg() -> Iterator[PostgresServer]:
    server = PostgresServer()
    try:
        yield server
    finally:
        server.stop()


def test_the_image_commands_install_and_serve(tmp_path_factory: pytest.TempPathFactory,
                                              pg: PostgresServer) -> None:
    """The Dockerfile's COPY, install RUN, HEALTHCHECK and CMD, run as written (the
    image's /app and /opt/venv moved under a temporary folder); its user is not root. The
    session starts the COPY and RUN steps in the background (``tests/prepared.py``)."""
    instructions = dockerfile()
    assert instructions[0][0] == "FROM" and re.fullmatch(r"python:3\.\d+-slim\S*",
                                                         instructions[0][1])
    users = [args for instruction, args in instructions if instruction == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert any(i == "RUN" and "useradd" in a and users[-1] in a for i, a in instructions)
    assert ("EXPOSE", image_env()["PORT"]) in instructions
    workdir = next(args for instruction, args in instructions if instruction == "WORKDIR")
    assert workdir == "/app"
    folder = prepared.wait("image", lambda: tmp_path_factory.mktemp("image"))
    app, venv = folder / "app", folder / "venv"
    assert (venv / "bin" / "python").exists()

    def here(text: str) -> str:
        return in_folder(text, folder)

    env = image_process_env(folder)
    # the server as the image starts it: its port and its store from the environment
    command = json.loads(next(a for i, a in instructions if i == "CMD"))
    health = json.loads(re.sub(r"^.*?CMD\s+", "", next(
        a for i, a in instructions if i == "HEALTHCHECK")))
    port = free_port()
    env.update(PORT=str(port), MATHGAMES_STORE=pg.url)
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "image-server.log").open("w")
    server = subprocess.Popen([here(part) for part in command], cwd=app, env=env, stdout=log,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        checks = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and server.poll() is None:
            checks.append(subprocess.run([here(part) for part in health], env=env,
                                         capture_output=True, text=True))
            if checks[-1].returncode == 0:
                break
            time.sleep(1)
        assert server.poll() is None, (ARTIFACTS / "image-server.log").read_text()[-3000:]
        assert checks[-1].returncode == 0 and "healthy" in checks[-1].stdout
        # no server on the port: unhealthy, and said so
        nobody = subprocess.run([here(part) for part in health],
                                env=dict(env, PORT=str(free_port())),
                                capture_output=True, text=True)
        assert nobody.returncode == 1 and "no answer" in nobody.stdout
        # a teacher's page on it opens a class in the database the environment names
        code = in_own_loop(_open_class(f"http://127.0.0.1:{port}"))
        store = open_store(pg.url)
        try:
            assert code in [info.code for info in store.sessions("class")]
        finally:
            store.close()
        # `docker stop` sends SIGTERM to the server (exec'd by the shell): it ends cleanly
        os.kill(server.pid, signal.SIGTERM)
        assert server.wait(timeout=60) in (0, -signal.SIGTERM)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        log.close()


async def _open_class(base: str) -> str:
    teacher = Teacher(await Page.open(base, "teacher.ipynb?lang=en"))
    try:
        return await teacher.open_class()
    finally:
        await teacher.page.close()
