"""The transport under hostile or careless clients, through real sockets:
wrong upgrades and methods get HTTP answers, static files revalidate, readers
that stop reading and connections that stop answering are cut off, floods of
frames are stopped, TLS offers modern suites only, and bad certificates are
named at start."""
import select
import socket
import ssl
import subprocess
import threading
import time

import pytest

from rawws import RawSocket, frame, http, upgrade_request
from server_fixture import BINARY, ROOT, Server


@pytest.fixture(scope="module")
def server():
    s = Server("--demo", "photos")
    yield s
    s.stop()


def test_wrong_upgrades_get_an_http_answer(server):
    status, _, body = http(server.port, upgrade_request("/elsewhere"))
    assert status == 404 and b"connect to /ws" in body
    status, _, body = http(server.port, upgrade_request("/ws", protocol="chat, superchat"))
    assert status == 400 and b"offer collection.v1" in body
    status, headers, _ = http(server.port, upgrade_request("/ws", protocol="chat, collection.v1"))
    assert status == 101 and headers["sec-websocket-protocol"] == "collection.v1"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND"])
def test_static_files_take_only_get_and_head(server, method):
    # (CONNECT once held its socket open for minutes: lws made it a raw tunnel.)
    status, headers, _ = http(server.port, f"{method} /index.html HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode(), timeout=3)
    assert status == 405 and headers["allow"] == "GET, HEAD", (method, status)
    status, headers, body = http(server.port, b"HEAD /index.html HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status == 200


def test_long_uris_and_headers_get_414_and_431(server):
    status, _, _ = http(server.port, f"GET /{'a' * 9000} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 414
    # The whole target counts: a long query string, and a long token on an upgrade.
    status, _, _ = http(server.port, f"GET /?q={'a' * 12000} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 414
    status, _, _ = http(server.port, upgrade_request(f"/ws?token={'a' * 9000}", protocol="collection.v1"), timeout=1)
    assert status == 414
    cookies = "".join(f"Cookie: c{i}={'v' * 900}\r\n" for i in range(20))
    status, _, _ = http(server.port, f"GET / HTTP/1.1\r\nHost: x\r\n{cookies}\r\n".encode())
    assert status == 431
    # Any header counts, one lws does not know too.
    status, _, _ = http(server.port, f"GET / HTTP/1.1\r\nHost: x\r\nX-Padding: {'p' * 20000}\r\n\r\n".encode())
    assert status == 431


def test_http11_needs_a_host_and_keep_alive_requests_are_counted_apart(server):
    status, _, body = http(server.port, b"GET / HTTP/1.1\r\n\r\n")
    assert status == 400 and b"Host" in body
    status, _, _ = http(server.port, upgrade_request("/ws", protocol="collection.v1").replace(b"Host: 127.0.0.1\r\n", b""), timeout=1)
    assert status == 400
    status, _, _ = http(server.port, b"GET / HTTP/1.0\r\n\r\n")
    assert status == 200
    # Forty requests of 1 KiB of headers on one connection: each is measured alone.
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        for _ in range(40):
            s.sendall(f"GET /style.css HTTP/1.1\r\nHost: x\r\nX-Pad: {'a' * 1000}\r\n\r\n".encode())
            data = b""
            while b"\r\n\r\n" not in data:
                data += s.recv(65536)
            head, _, body = data.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200"), head[:40]
            length = int(next(l.split(b":")[1] for l in head.split(b"\r\n") if l.lower().startswith(b"content-length")))
            while len(body) < length:
                body += s.recv(65536)


def test_static_files_carry_validators_and_a_strict_csp(server):
    status, headers, body = http(server.port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
    assert status == 200 and b"<html" in body
    etag, modified = headers["etag"], headers["last-modified"]
    assert etag.startswith('"') and modified.endswith(" GMT")
    csp = headers["content-security-policy"]
    connect = next(d for d in csp.split(";") if d.strip().startswith("connect-src")).split()[1:]
    assert connect == ["'self'", f"ws://127.0.0.1:{server.port}"], csp
    assert headers["x-content-type-options"] == "nosniff"
    for condition in (f"If-None-Match: {etag}", f"If-Modified-Since: {modified}"):
        status, again, body = http(server.port, f"GET / HTTP/1.1\r\nHost: x\r\n{condition}\r\nConnection: close\r\n\r\n".encode())
        assert status == 304 and body == b"" and again["etag"] == etag and "content-length" not in again
    status, _, _ = http(server.port, b'GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: "stale"\r\n\r\n')
    assert status == 200


def closed_while_not_reading(sock, seconds):
    """True once the peer closes the TCP connection, with data still unread."""
    poller = select.poll()
    poller.register(sock, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if poller.poll(100):
            return True
    return False


def test_a_reader_that_stops_reading_is_cut_off_at_once():
    server = Server("--demo", "photos", "--max-backlog-bytes", "200000", "--rate-limit", "2000")
    try:
        slow = RawSocket(server.port, rcvbuf=4096)
        slow.send_json({"type": "hello", "viewport": {"width": 1920, "height": 2000}})
        # Never read again: every scroll's window piles up on the server.
        for k in range(600):
            try:
                slow.send_json({"type": "scroll", "offset": {"x": 0, "y": (k % 2) * 40000}})
            except OSError:
                break
        assert closed_while_not_reading(slow.sock, 10), "the server kept a reader that stopped reading"
        # The others go on.
        other = RawSocket(server.port)
        other.send_json({"type": "hello", "viewport": {"width": 300, "height": 300}})
        opcode, payload = other.read_frame()
        assert opcode == 1 and b'"welcome"' in payload
    finally:
        server.stop()


def test_a_silent_connection_is_closed_by_the_heartbeat():
    server = Server("--demo", "small", "--ping-interval", "1", "--ping-timeout", "1")
    try:
        silent = RawSocket(server.port, timeout=10)
        silent.send_json({"type": "hello", "viewport": {"width": 300, "height": 300}})
        answering = RawSocket(server.port, timeout=10)
        answering.send_json({"type": "hello", "viewport": {"width": 300, "height": 300}})
        outcome = {"answered": 0, "closed": False}

        def answer_pings(seconds):
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                answering.sock.settimeout(max(0.05, deadline - time.monotonic()))
                try:
                    f = answering.read_frame()
                except socket.timeout:
                    return
                if f is None:
                    outcome["closed"] = True
                    return
                if f[0] == 9:
                    answering.sock.sendall(frame(0xA, f[1]))
                    outcome["answered"] += 1

        helper = threading.Thread(target=answer_pings, args=(7,))
        helper.start()
        start = time.monotonic()
        pings = 0
        # The silent one reads (it is not a slow reader) but never answers a ping.
        while True:
            f = silent.read_frame()
            if f is None:
                break
            if f[0] == 9:
                pings += 1
        silent_for = time.monotonic() - start
        helper.join()
        assert pings >= 1 and silent_for < 6, (pings, silent_for)
        # One that answers stays, well past that time.
        assert not outcome["closed"] and outcome["answered"] >= 3, outcome
    finally:
        server.stop()


def test_a_flood_of_empty_fragments_is_stopped():
    server = Server("--demo", "small")
    try:
        flood = RawSocket(server.port, timeout=10)
        flood.send_json({"type": "hello", "viewport": {"width": 300, "height": 300}})
        # One message begun, then only empty continuation frames: one message, endless frames.
        burst = frame(0, b"", fin=False) * 2000
        closed_by = None
        try:
            flood.sock.sendall(frame(1, b"", fin=False))
            for _ in range(200):
                flood.sock.sendall(burst)
        except OSError:
            pass
        flood.sock.settimeout(5)
        while True:
            try:
                f = flood.read_frame()
            except (OSError, socket.timeout):
                break
            if f is None:
                break
            if f[0] == 8:
                closed_by = int.from_bytes(f[1][:2], "big")
                break
        assert closed_by == 1008
        # A well-behaved client is unaffected.
        other = RawSocket(server.port)
        other.send_json({"type": "hello", "viewport": {"width": 300, "height": 300}})
        assert b'"welcome"' in other.read_frame()[1]
    finally:
        server.stop()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    for name in ("a", "b"):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", folder / f"{name}.key", "-out",
                        folder / f"{name}.pem", "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1"],
                       check=True, capture_output=True)
    return folder


def tls_handshake(port, cafile, configure):
    context = ssl.create_default_context(cafile=str(cafile))
    context.set_ciphers("ALL:@SECLEVEL=0")
    configure(context)
    with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
        with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return tls.version(), tls.cipher()[0]


def test_tls_offers_modern_suites_only_and_sends_hsts(certificate):
    server = Server("--demo", "small", "--tls-cert", str(certificate / "a.pem"), "--tls-key", str(certificate / "a.key"))
    try:
        def tls12(suite):
            def configure(c):
                c.minimum_version = c.maximum_version = ssl.TLSVersion.TLSv1_2
                c.set_ciphers(suite + ":@SECLEVEL=0")
            return configure
        assert tls_handshake(server.port, certificate / "a.pem", tls12("ECDHE-RSA-AES128-GCM-SHA256")) == ("TLSv1.2", "ECDHE-RSA-AES128-GCM-SHA256")
        for weak in ("AES128-SHA", "AES256-GCM-SHA384", "ECDHE-RSA-AES128-SHA"):   # static RSA, CBC
            with pytest.raises(ssl.SSLError):
                tls_handshake(server.port, certificate / "a.pem", tls12(weak))
        def tls11(c):
            c.minimum_version = ssl.TLSVersion.TLSv1
            c.maximum_version = ssl.TLSVersion.TLSv1_1
        with pytest.raises(ssl.SSLError):
            tls_handshake(server.port, certificate / "a.pem", tls11)
        assert tls_handshake(server.port, certificate / "a.pem", lambda c: None)[0] == "TLSv1.3"
        context = ssl.create_default_context(cafile=str(certificate / "a.pem"))
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as raw:
            with context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
                tls.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                head = tls.recv(65536).decode("latin-1").lower()
        assert "strict-transport-security: max-age=31536000" in head
    finally:
        server.stop()


@pytest.mark.parametrize("files, expected", [
    (("missing.pem", "a.key"), "cannot read the certificate {dir}/missing.pem"),
    (("a.pem", "missing.key"), "cannot read the private key {dir}/missing.key"),
    (("a.key", "a.key"), "no PEM certificate in {dir}/a.key"),
    (("a.pem", "b.key"), "the private key {dir}/b.key does not belong to the certificate {dir}/a.pem"),
])
def test_certificate_problems_name_the_file(certificate, files, expected):
    cert, key = (str(certificate / f) for f in files)
    run = subprocess.run([str(BINARY), "--host", "127.0.0.1", "--port", "0", "--tls-cert", cert, "--tls-key", key],
                         capture_output=True, text=True, timeout=30, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert run.returncode != 0
    assert expected.format(dir=certificate) in run.stderr, run.stderr
    assert "listening" not in run.stdout
