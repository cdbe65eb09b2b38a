"""WebSocket conformance: kosoku runs Autobahn sections 1-10 against the
server's transport (the echo path, enabled only by the hidden --echo flag).

kosoku has no section 8. libwebsockets 4.1.6 keeps one ping in flight, so cases
2.10 and 2.11 (ten pings in a row, answered with one pong) fail by design: that
is the only allowed failure.
"""
import json
import subprocess
import sys
from pathlib import Path

from server_fixture import Server, artifacts_dir

SECTIONS = ["1", "2", "3", "4", "5", "6", "7", "9", "10"]
KNOWN_LWS_LIMITS = {"2.10", "2.11"}


def test_autobahn_sections_1_to_10():
    server = Server("--echo", "--demo", "small")
    out = artifacts_dir() / "autobahn"
    try:
        kosoku = Path(sys.executable).parent / "kosoku"
        args = [str(kosoku), f"ws://127.0.0.1:{server.port}/echo", "-o", str(out), "-p", "4"]
        for s in SECTIONS:
            args += ["-i", f"{s}.*"]
        run = subprocess.run(args, capture_output=True, text=True, timeout=600)
    finally:
        server.stop()
    results = {}
    for report in out.glob(f"*_{server.port}_case_*.json"):
        data = json.loads(report.read_text())
        results[data["id"]] = (data["behavior"], data["behaviorClose"])
    assert len(results) >= 300, run.stdout + run.stderr
    bad = {case: verdict for case, verdict in results.items()
           if verdict[0] not in ("OK", "NON-STRICT", "INFORMATIONAL") or verdict[1] not in ("OK", "INFORMATIONAL")}
    passed = len(results) - len(bad)
    summary = f"Autobahn (kosoku) sections 1-10: {passed} of {len(results)} passed; failed: {sorted(bad)}"
    (artifacts_dir() / "autobahn-summary.txt").write_text(summary + "\n")
    print(summary)
    assert set(bad) <= KNOWN_LWS_LIMITS, bad
    assert server.proc.returncode == 0
