"""Two nodes sharing PostgreSQL behind nginx, configured with the very file
docs/DEPLOYMENT.md shows (its ports and folders replaced): two browsers load the
page through nginx, land on different nodes, and stay in sync; when one node is
killed, its viewer reconnects through nginx to the other and resumes."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from server_fixture import ROOT, Server, artifacts_dir
from test_two_viewers import browser, js, seq, wait

POSTGRES = os.environ.get("COLLECTION_TEST_POSTGRES")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
pytestmark = pytest.mark.skipif(not POSTGRES or not Path(NGINX).exists(),
                                reason="needs the private PostgreSQL of `make test` and Debian's nginx")


def deployment_config():
    text = (ROOT / "docs" / "DEPLOYMENT.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/DEPLOYMENT.md shows one nginx configuration"
    return blocks[0]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database():
    host = re.search(r"host=([^&]+)", POSTGRES).group(1)
    name = f"nginx_{os.getpid()}_{int(time.time() * 1000) % 100000}"
    subprocess.run(["psql", "-X", "-q", "-h", host, "-U", "collections", "-d", "postgres", "-c", f"CREATE DATABASE {name}"], check=True)
    return f"postgres:///{name}?host={host}&user=collections"


@pytest.fixture
def cluster():
    url = database()
    port = free_port()
    # The public origin is the balancer's, which the nodes are told (DEPLOYMENT.md).
    nodes = [Server("--postgres", url, "--node-id", f"n{i}", "--demo", "small", "--ticket-interval", "0",
                    "--max-connections-per-address", "1024", "--allow-origin", f"http://127.0.0.1:{port}") for i in range(2)]
    folder = Path(tempfile.mkdtemp(prefix="nginx-"))
    config = deployment_config()
    # The document's ports become the nodes' and a free one; nginx's files go in the folder.
    config = config.replace("server 127.0.0.1:8081", f"server 127.0.0.1:{nodes[0].port}")
    config = config.replace("server 127.0.0.1:8082", f"server 127.0.0.1:{nodes[1].port}")
    config = config.replace("listen 8080;", f"listen 127.0.0.1:{port};")
    assert str(nodes[0].port) in config and str(nodes[1].port) in config and f":{port};" in config
    temp = "".join(f"    {d}_temp_path {folder}/{d};\n" for d in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    config = config.replace("http {\n", "http {\n" + temp + f"    access_log {folder}/access.log;\n", 1)
    (folder / "nginx.conf").write_text(config)
    proc = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"),
                             "-g", f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;"])
    base = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 10
    while True:
        try:
            urllib.request.urlopen(base + "healthz", timeout=1).read()
            break
        except Exception:
            if time.time() > deadline or proc.poll() is not None:
                raise RuntimeError(f"nginx did not start: {(folder / 'error.log').read_text() if (folder / 'error.log').exists() else ''}")
            time.sleep(0.05)
    yield base, nodes
    proc.terminate()
    proc.wait(timeout=10)
    for n in nodes:
        n.stop()
    shutil.rmtree(folder, ignore_errors=True)


# Records the type of every message the page receives, to tell a resume from a reload.
RECORD_TYPES = """
const Native = window.WebSocket;
window.__received = [];
window.WebSocket = class extends Native {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => { try { window.__received.push(JSON.parse(event.data).type); } catch (e) {} });
  }
};
"""


def viewer(width, height):
    driver = browser(width, height)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_TYPES})
    return driver


def node_of(driver):
    return js(driver, "return window.__collection.state.me.id").split("-")[0]


def load(driver, url):
    driver.get(url)
    try:
        wait(driver, lambda d: js(d, "return document.body.dataset.status") == "connected"
             and js(d, "return document.querySelectorAll('.cell:not([hidden])').length") > 8)
    except Exception:
        raise AssertionError(f"viewer did not load through nginx: status {js(driver, 'return document.body.dataset.status')!r}, "
                             f"received {js(driver, 'return window.__received')}, log {driver.get_log('browser')[-5:]}")


def test_two_viewers_through_nginx_on_two_nodes(cluster):
    base, nodes = cluster
    # Round robin, no sticky sessions: every node answers its health check through nginx.
    seen = {urllib.request.urlopen(base + "healthz").read().decode().split("\n")[1] for _ in range(4)}
    assert seen == {"node n0", "node n1"}, seen
    a, b = viewer(1000, 700), viewer(420, 700)
    try:
        load(a, base)
        load(b, base)
        # Reload B until it is on the other node (each request may go to either).
        for _ in range(10):
            if node_of(b) != node_of(a):
                break
            load(b, base)
        assert node_of(a) != node_of(b), "both viewers landed on one node ten times"
        # A shuffle in A reaches B on the other node; an insert in B reaches A.
        js(a, "document.getElementById('shuffle').click()")
        for d in (a, b):
            wait(d, lambda d: seq(d) == 1, message="the shuffle did not reach both nodes' viewers")
        js(b, "document.getElementById('insert').click()")
        for d in (a, b):
            wait(d, lambda d: seq(d) == 2, message="the insert did not reach both nodes' viewers")
        order = "return window.__collection.state.order"
        assert js(a, order) == js(b, order)
        a.save_screenshot(str(artifacts_dir() / "nginx-viewer-a.png"))
        # The node behind B dies: B reconnects through nginx to the other and resumes.
        victim = next(n for n in nodes if f"n{nodes.index(n)}" == node_of(b))
        victim.proc.kill()
        wait(b, lambda d: js(d, "return document.body.dataset.status") == "connected" and node_of(d) == node_of(a),
             timeout=20, message="B did not reconnect to the surviving node")
        js(a, "document.getElementById('shuffle').click()")
        for d in (a, b):
            wait(d, lambda d: seq(d) == 3, message="an edit after the failover did not reach both")
        assert js(a, order) == js(b, order)
        hellos = [t for t in js(b, "return window.__received") if t in ("welcome", "resume")]
        assert hellos[-1] == "resume", f"B resumed on the other node rather than reloading: {hellos}"
        b.save_screenshot(str(artifacts_dir() / "nginx-viewer-b-after-failover.png"))
    finally:
        a.quit()
        b.quit()
