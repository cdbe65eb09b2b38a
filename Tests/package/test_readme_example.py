"""The README's "Build your own" section, as a newcomer would use it: its four files
(Package.swift, Sources/MyBoard/main.swift, Public/index.html, Public/style.css) go
into a fresh package in a temporary folder, next to a copy of this repository named
as the README names it; the package is built, started with --port 0, and its page
opened in Chromium, where the cards appear and follow the server's background job.
docs/API.md's fragments and the README's engine example are compiled in the same
build (api_fragments.py): an app author who copies one gets no error and no warning."""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "browser"))
from test_two_viewers import browser, js, wait  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import api_fragments  # noqa: E402


def readme_files():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Build your own", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```(\w+)\n(.*?)```", section, re.S)
    files = {}
    for lang, body in blocks:
        if lang == "swift" and body.startswith("// swift-tools-version"):
            files["Package.swift"] = body
        elif lang == "swift" and body.startswith("import CollectionServer"):
            files["Sources/MyBoard/main.swift"] = body
        elif lang == "html":
            files["Public/index.html"] = body
        elif lang == "css":
            files["Public/style.css"] = body
    assert sorted(files) == ["Package.swift", "Public/index.html", "Public/style.css", "Sources/MyBoard/main.swift"], sorted(files)
    return files


def copy_repository(dest: Path):
    """The repository's files as a clone would have them (tracked and new, not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True).stdout.split(b"\0")
    for name in filter(None, listed):
        src = ROOT / name.decode()
        if src.is_file():
            (dest / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name.decode())


@pytest.fixture(scope="module")
def app():
    files = readme_files()
    with tempfile.TemporaryDirectory(prefix="readme-app-") as tmp:
        tmp = Path(tmp)
        # The dependency line names the folder: `.package(path: "../collection-server")`.
        match = re.search(r'\.package\(path: "\.\./([^"]+)"\)', files["Package.swift"])
        assert match, "the README's Package.swift depends on this repository by path"
        copy_repository(tmp / match.group(1))
        app_dir = tmp / "MyBoard"
        for name, body in files.items():
            (app_dir / name).parent.mkdir(parents=True, exist_ok=True)
            (app_dir / name).write_text(body)
        (app_dir / "Sources" / "MyBoard" / "DocFragments.swift").write_text(api_fragments.generate_all())
        build = subprocess.run(["swift", "build", "--product", "MyBoard"], cwd=app_dir, capture_output=True, text=True, timeout=900)
        errors = [line for line in build.stdout.splitlines() if "error:" in line]
        assert build.returncode == 0, "\n".join(errors[:20]) or build.stdout[-4000:] + build.stderr[-4000:]
        warnings = [line for line in build.stdout.splitlines() if "warning:" in line and "/MyBoard/" in line]
        assert not warnings, warnings
        binary = app_dir / ".build" / "debug" / "MyBoard"
        proc = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0"], cwd=app_dir,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = proc.stdout.readline()
            m = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)/\n", line)
            assert m, f"unexpected first line: {line!r}"
            yield f"http://127.0.0.1:{m.group(1)}/"
        finally:
            proc.terminate()
            try:
                assert proc.wait(timeout=10) == 0, "SIGTERM did not stop the app cleanly"
            except subprocess.TimeoutExpired:
                proc.kill()
                raise


def test_the_readme_example_builds_serves_and_shows_its_cards(app):
    ana = browser(600, 500)
    ben = browser(600, 500)
    try:
        ana.get(app + "?name=Ana")
        ben.get(app + "?name=Ben")
        for d in (ana, ben):
            wait(d, lambda d: js(d, "return document.querySelectorAll('collection-view .card:not([hidden])').length") >= 2,
                 timeout=15, message="the cards did not appear")
        titles = js(ana, "return [...document.querySelectorAll('collection-view .card:not([hidden]) b')].map(b => b.textContent)")
        assert titles[:2] == ["Write the docs", "Ship it"]
        assert js(ana, "return document.querySelector('collection-view').viewer.name") == "Ana"
        # The background job's card reaches both viewers.
        for d in (ana, ben):
            wait(d, lambda d: "Card 3" in js(d, "return document.querySelector('collection-view').state.elements.get('i:3')?.content.title ?? ''"),
                 timeout=15, message="the background job's card did not arrive")
    finally:
        ana.quit()
        ben.quit()
