"""The README's "Build your own" app, built cold as a newcomer builds it: its files
in a fresh package next to a copy of this repository (as Tests/package does), then
`swift build` timed from nothing (no .build of its own). Prints a Markdown table:
the time, and the modules compiled."""
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests"))
sys.path.insert(0, str(ROOT / "Tests" / "package"))
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
from test_readme_example import copy_repository, readme_files  # noqa: E402


def main():
    files = readme_files()
    with tempfile.TemporaryDirectory(prefix="readme-build-") as tmp:
        tmp = Path(tmp)
        match = re.search(r'\.package\(path: "\.\./([^"]+)"\)', files["Package.swift"])
        copy_repository(tmp / match.group(1))
        app = tmp / "MyBoard"
        for name, body in files.items():
            (app / name).parent.mkdir(parents=True, exist_ok=True)
            (app / name).write_text(body)
        # Resolving (cloning the mirror's packages) is not building: done first, untimed.
        subprocess.run(["swift", "package", "resolve"], cwd=app, check=True, capture_output=True, timeout=900)
        start = time.monotonic()
        build = subprocess.run(["swift", "build", "--product", "MyBoard"], cwd=app, capture_output=True, text=True, timeout=1800)
        seconds = time.monotonic() - start
        if build.returncode != 0:
            print(build.stdout[-3000:], build.stderr[-3000:])
            sys.exit(1)
        built = sorted({m for m in re.findall(r"Compiling (\w+) ", build.stdout)})
        heavy = [m for m in built if m.startswith(("NIO", "Postgres", "CNIOBoringSSL", "Crypto", "CCryptoBoringSSL", "_Crypto"))]
    print("### The README's app, built cold (`swift build`, debug)\n")
    print("| figure | goal | result |")
    print("| --- | ---: | ---: |")
    print(f"| cold build of the README's app (its package resolved first) | ≤ 4 min | {seconds / 60:.1f} min ({seconds:.0f} s) |")
    print(f"| modules compiled; of them NIO, PostgreSQL or BoringSSL | none of those | {len(built)}; {', '.join(heavy) if heavy else 'none'} |")


if __name__ == "__main__":
    main()
