"""The public API break check (Tests/api/check-api, `make test-api`) passes on the tree
as it is, and fails, naming the declaration, when the API loses one: run against a copy
of the baseline with a declaration that the modules no longer have."""
import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "Tests" / "api" / "check-api"
BASELINE = ROOT / "Tests" / "api" / ("baseline-" + (ROOT / "Tests" / "api" / "TAG").read_text().strip())


def run(baseline):
    return subprocess.run([str(CHECK), str(baseline)], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_tree_keeps_the_api_of_its_last_tag():
    result = run(BASELINE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "CollectionServer keeps the API" in result.stdout


def test_a_removed_public_method_is_reported(tmp_path):
    copy = tmp_path / "baseline"
    shutil.copytree(BASELINE, copy)
    path = copy / "CollectionTesting.json"
    tree = json.loads(path.read_text())

    def rename(node, inside):
        for child in node.get("children", []):
            if child.get("kind") == "Function" and inside == "TestViewer":
                child["name"] = "goneInThisTree"
                child["printedName"] = "goneInThisTree()"
                child["usr"] = child.get("usr", "") + "_gone"
                return True
            if rename(child, child.get("name", inside) if child.get("kind") == "TypeDecl" else inside):
                return True
        return False

    assert rename(tree["ABIRoot"], "")
    path.write_text(json.dumps(tree))
    result = run(copy)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "TestViewer.goneInThisTree() has been removed" in result.stdout
