"""The public API break check (Tests/api/check-api, `make test-api`) passes on the tree
as it is, and fails, naming the declaration, when the API loses one: run against a copy
of the baseline with a declaration that the modules no longer have, in a product's own
module and in CollectionCore, which CollectionServer re-exports whole."""
import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "Tests" / "api" / "check-api"
BASELINE = ROOT / "Tests" / "api" / ("baseline-" + (ROOT / "Tests" / "api" / "TAG").read_text().strip())


def run(*args):
    return subprocess.run([str(CHECK), *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_tree_keeps_the_api_of_its_last_version():
    result = run(BASELINE)
    assert result.returncode == 0, result.stdout + result.stderr
    for module in ["CollectionCore", "CollectionServer", "CollectionServerPostgres", "CollectionTesting"]:
        assert f"{module} keeps the API" in result.stdout


@pytest.mark.parametrize("module, owner, kind", [
    ("CollectionTesting", "TestViewer", "Function"),
    ("CollectionCore", "CollectionView", "Function"),
])
def test_a_removed_public_method_is_reported(tmp_path, module, owner, kind):
    copy = tmp_path / "baseline"
    shutil.copytree(BASELINE, copy)
    path = copy / f"{module}.json.gz"
    tree = json.loads(gzip.decompress(path.read_bytes()))

    def rename(node, inside):
        for child in node.get("children", []):
            if child.get("kind") == kind and inside == owner:
                child["name"] = "goneInThisTree"
                child["printedName"] = "goneInThisTree()"
                child["usr"] = child.get("usr", "") + "_gone"
                return True
            if rename(child, child.get("name", inside) if child.get("kind") == "TypeDecl" else inside):
                return True
        return False

    assert rename(tree["ABIRoot"], "")
    path.write_bytes(gzip.compress(json.dumps(tree).encode()))
    result = run(copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{owner}.goneInThisTree() has been removed" in result.stdout


def test_a_dump_of_the_tree_is_a_baseline_it_keeps(tmp_path):
    result = run("--dump", tmp_path / "dumped")
    assert result.returncode == 0, result.stdout + result.stderr
    assert sorted(p.name for p in (tmp_path / "dumped").iterdir()) == sorted(p.name for p in BASELINE.iterdir())
    result = run(tmp_path / "dumped")
    assert result.returncode == 0 and "CollectionCore keeps the API" in result.stdout, result.stdout + result.stderr
