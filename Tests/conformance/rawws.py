"""A raw WebSocket client over a plain socket, for tests that must misbehave:
never answer pings, stop reading, flood fragments, send odd upgrades."""
import base64
import json
import os
import socket
import struct


def http(port, request: bytes, timeout=5.0):
    """Sends raw HTTP bytes; returns (status, headers dict, body bytes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep:
                # An answer to HEAD, a 101, 204 or 304 has no body (RFC 9112, 6.3):
                # waiting for one that never comes took the whole timeout.
                if request.startswith(b"HEAD ") or head.split(b" ")[1] in (b"101", b"204", b"304"):
                    break
                headers = parse_headers(head)
                length = int(headers.get("content-length", "-1"))
                if length >= 0 and len(body) >= length:
                    break
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return None, {}, b""
    return int(head.split(b" ")[1]), parse_headers(head), body


def parse_headers(head: bytes):
    headers = {}
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return headers


def upgrade_request(path="/ws", protocol=None, extra=""):
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
             f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if protocol:
        lines.append(f"Sec-WebSocket-Protocol: {protocol}")
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode()


def frame(opcode, payload=b"", fin=True, mask=True):
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126:
        head += bytes([bit | n])
    elif n < 65536:
        head += bytes([bit | 126]) + struct.pack(">H", n)
    else:
        head += bytes([bit | 127]) + struct.pack(">Q", n)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


class RawSocket:
    """A WebSocket connection that does only what the test says."""

    def __init__(self, port, rcvbuf=None, timeout=5.0, path="/ws", extra=""):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(upgrade_request(path, extra=extra))
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            data += chunk
        assert data.startswith(b"HTTP/1.1 101"), data
        self.buffer = b""

    def next_json(self, *types):
        """The next text message whose type is one of `types` (any, when none)."""
        while True:
            got = self.read_frame()
            if got is None:
                raise ConnectionError("closed")
            if got[0] == 1:
                message = json.loads(got[1])
                if not types or message["type"] in types:
                    return message

    def send_json(self, message):
        self.sock.sendall(frame(1, json.dumps(message).encode()))

    def read_frame(self):
        """One whole message as (opcode, payload), fragments joined; control frames
        come as they are. None once the peer closed the TCP connection."""
        first = self.read_single()
        if first is None or first[0] >= 8 or first[2]:
            return first and first[:2]
        opcode, payload = first[0], first[1]
        while True:
            more = self.read_single()
            if more is None:
                return None
            payload += more[1]
            if more[2]:
                return opcode, payload

    def read_single(self):
        """(opcode, payload, fin) of one frame, or None once the peer closed."""
        def need(n):
            while len(self.buffer) < n:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return False
                self.buffer += chunk
            return True
        if not need(2):
            return None
        fin, opcode, n = bool(self.buffer[0] & 0x80), self.buffer[0] & 0x0F, self.buffer[1] & 0x7F
        offset = 2
        if n == 126:
            if not need(4):
                return None
            n, offset = struct.unpack(">H", self.buffer[2:4])[0], 4
        elif n == 127:
            if not need(10):
                return None
            n, offset = struct.unpack(">Q", self.buffer[2:10])[0], 10
        if not need(offset + n):
            return None
        payload, self.buffer = self.buffer[offset:offset + n], self.buffer[offset + n:]
        return opcode, payload, fin

    def close(self):
        self.sock.close()
