"""Messages the server sends arrive whole and in the order sent, whether the server
writes them at once (a small message with nothing waiting before it), or queues them
(a message past one fragment, or one sent while the socket is full and lws holds the
rest of an earlier write)."""
import hashlib
import json

from rawws import RawSocket, frame
from server_fixture import Server


def test_echoes_to_a_slow_reader_arrive_whole_and_in_order():
    # Echoes answer the connection being read, so they always queue (the next test
    # covers messages written at once).
    server = Server("--echo", "--demo", "small")
    try:
        # A tiny receive buffer: the server's writes soon find the socket full.
        client = RawSocket(server.port, rcvbuf=4096, path="/echo", timeout=20)
        sizes = [60, 3_000, 20_000, 700, 40_000, 5, 16_384, 16_385, 9_000, 120]
        sent = []
        for k in range(160):
            n = sizes[k % len(sizes)]
            body = (hashlib.sha256(str(k).encode()).hexdigest() * (n // 64 + 1))[:n]
            message = f"{k}:{body}".encode()
            sent.append(message)
            # Nothing is read until everything is sent.
            client.sock.sendall(frame(1, message))
        for k, expected in enumerate(sent):
            got = client.read_frame()
            assert got is not None, f"closed before echo {k}"
            opcode, payload = got
            assert opcode == 1 and payload == expected, f"echo {k} differs: {payload[:40]!r}… ({len(payload)} bytes)"
        client.close()
    finally:
        server.stop()


def test_batches_to_a_slow_reader_arrive_whole_and_in_order():
    # Another viewer's edits reach this one while its socket is full: written at once
    # while the socket takes them, then held by lws, then queued behind what it holds.
    server = Server("--demo", "small", "--rate-limit", "100000", "--output-rate", "100000000", "--time-share", "1")
    try:
        slow = RawSocket(server.port, rcvbuf=4096, timeout=20)
        slow.send_json({"type": "hello", "viewport": {"width": 1200, "height": 2000}})
        welcome = slow.next_json("welcome")
        editor = RawSocket(server.port, timeout=20)
        editor.send_json({"type": "hello", "viewport": {"width": 300, "height": 300}})
        editor.next_json("welcome")
        # About 3 MB to the slow viewer: past what the kernel holds for it.
        edits = 1_200
        for k in range(edits):
            editor.send_json({"type": "shuffle", "section": "summer", "op": f"op-{k}"})
        acked = 0
        while acked < edits:
            message = editor.next_json("ack", "reject", "error")
            assert message["type"] == "ack", message
            acked += 1
        seqs = []
        while len(seqs) < edits:
            opcode, payload = slow.read_frame()
            assert opcode == 1
            message = json.loads(payload)
            if message["type"] == "batch":
                seqs.append(message["seq"])
        assert seqs == list(range(welcome["seq"] + 1, welcome["seq"] + 1 + edits))
        slow.close()
        editor.close()
    finally:
        server.stop()
