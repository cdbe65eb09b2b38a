"""Every module a target imports from this package is among its declared dependencies
(directly or through them). An incremental build can hide a missing one (the module
was already built for another product), a clean clone cannot: this catches it before CI."""
import glob
import json
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IMPORT = re.compile(r"^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)


def package():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def module(name: str) -> str:
    return name.replace("-", "_")


def test_every_imported_package_module_is_a_declared_dependency():
    targets = package()["targets"]
    deps = {}
    folders = {}
    for target in targets:
        names = []
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            names.append(value[0])
        deps[target["name"]] = names
        base = "Tests" if target["type"] == "test" else "Sources"
        folders[target["name"]] = target.get("path") or f"{base}/{target['name']}"
    local = {module(name) for name in deps}

    def reachable(name, seen):
        for dependency in deps.get(name, []):
            if dependency not in seen:
                seen.add(dependency)
                reachable(dependency, seen)
        return seen

    missing = {}
    for name, folder in folders.items():
        imported = set()
        for path in glob.glob(str(ROOT / folder / "**" / "*.swift"), recursive=True):
            imported |= set(IMPORT.findall(Path(path).read_text()))
        allowed = {module(d) for d in reachable(name, set())} | {module(name)}
        wrong = sorted(m for m in imported & local if m not in allowed)
        if wrong:
            missing[name] = wrong
    assert len(folders) > 10, folders
    assert not missing, f"targets import package modules they do not depend on: {missing}"
