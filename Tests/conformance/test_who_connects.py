"""Who may open a WebSocket, against the real server: a page of another site cannot
(403 before the upgrade), the server's own pages can, by any of the loopback names, a
handshake with no Origin (a tool) can, --allow-origin adds origins; and one address
holds at most --max-connections-per-address connections."""
import subprocess
import time

import pytest

from rawws import RawSocket, http, upgrade_request
from server_fixture import BINARY, Server


@pytest.fixture(scope="module")
def server():
    s = Server("--demo", "small", "--ticket-interval", "0", "--allow-origin", "https://app.example.com")
    yield s
    s.stop()


def upgrade(server, origin):
    extra = f"Origin: {origin}\r\n" if origin is not None else ""
    # A 101 keeps the socket open: the answer is read until a short silence.
    return http(server.port, upgrade_request("/ws", protocol="collection.v1", extra=extra), timeout=0.5)


@pytest.mark.parametrize("origin", [
    "http://evil.example", "https://127.0.0.1.evil.example", "http://127.0.0.1:1", "null",
    "https://127.0.0.1:{port}",    # the right host and port, the wrong scheme
    "http://app.example.com",      # allowed only over https
    "file://", "http://127.0.0.1:{port}/page",
    "", "   ",                         # empty or blank: an Origin, not a missing one
])
def test_a_foreign_origin_is_refused_before_the_upgrade(server, origin):
    status, headers, body = upgrade(server, origin.format(port=server.port))
    assert status == 403, (origin, status)
    assert b"may not open a WebSocket here" in body
    assert "sec-websocket-accept" not in headers


@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:{port}", "http://localhost:{port}", "http://[::1]:{port}", "HTTP://LOCALHOST:{port}",
    "https://app.example.com", "https://app.example.com:443", None,
])
def test_own_allowed_and_absent_origins_upgrade(server, origin):
    status, headers, _ = upgrade(server, origin.format(port=server.port) if origin else None)
    assert status == 101, (origin, status)
    assert headers["sec-websocket-protocol"] == "collection.v1"


def test_a_bad_allow_origin_flag_is_named():
    run = subprocess.run([str(BINARY), "--port", "0", "--allow-origin", "app.example.com"], capture_output=True, text=True, timeout=30)
    assert run.returncode != 0
    assert "--allow-origin 'app.example.com' is not an origin" in run.stderr


def test_connections_from_one_address_are_limited():
    s = Server("--demo", "small", "--ticket-interval", "0", "--max-connections-per-address", "3")
    try:
        held = [RawSocket(s.port) for _ in range(3)]
        extra = RawSocket(s.port)   # the handshake completes, then the close says why
        opcode, payload = extra.read_frame()
        assert opcode == 8 and int.from_bytes(payload[:2], "big") == 1008
        assert payload[2:] == b"too many connections from your address"
        extra.close()
        # One leaves: the next one stays.
        held.pop().close()
        time.sleep(0.3)
        again = RawSocket(s.port, timeout=1.0)
        again.send_json({"type": "hello", "protocol": 1, "viewport": {"width": 400, "height": 300}})
        opcode, payload = again.read_frame()
        assert opcode == 1 and b'"welcome"' in payload
        for sock in held + [again]:
            sock.close()
    finally:
        s.stop()
