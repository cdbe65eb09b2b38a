"""Starts the real collection-server on 127.0.0.1 with a kernel-picked port.

The server's stdin is a pipe held by the test process: when the test process
ends, for whatever reason, the server sees EOF and stops by itself.
"""
import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BINARY = Path(os.environ.get("COLLECTION_SERVER_BIN") or next(
    (p for p in (ROOT / ".build" / c / "collection-server" for c in ("release", "debug")) if p.exists()),
    ROOT / ".build" / "release" / "collection-server"))
ARTIFACTS = ROOT / ".build" / "test-artifacts"


class Server:
    def __init__(self, *args, env=None):
        if not BINARY.exists():
            raise RuntimeError(f"{BINARY} is not built: run `make test`")
        # Nothing is kept on disk unless the test gives a data folder.
        keep = [] if "--data" in args else ["--in-memory"]
        self.proc = subprocess.Popen(
            [str(BINARY), "--host", "127.0.0.1", "--port", "0", "--exit-on-stdin-eof", "--log-level", "warning", *keep, *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
            env=None if env is None else {**os.environ, **env})
        line = self.proc.stdout.readline()
        match = re.fullmatch(r"listening on (https?)://127\.0\.0\.1:(\d+)/\n", line)
        if not match:
            self.stop()
            raise RuntimeError(f"unexpected first line from server: {line!r}")
        self.scheme, self.port = match.group(1), int(match.group(2))
        self.url = f"{self.scheme}://127.0.0.1:{self.port}/"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.returncode


def artifacts_dir():
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
