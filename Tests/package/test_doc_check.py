"""The doc-comment check (Tests/api/check-docs.py, `make test-api`) passes on the tree
with its list of gaps, fails naming a gap the list leaves out and a listed one that was
mended, and its rules pass what DocC shows documented and nothing else."""
import importlib.util
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "Tests" / "api" / "check-docs.py"
GAPS = ROOT / "Tests" / "api" / "doc-gaps"
spec = importlib.util.spec_from_file_location("check_docs", CHECK)
check_docs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_docs)


def run(*args):
    return subprocess.run([str(CHECK), *map(str, args)], cwd=ROOT, capture_output=True, text=True, timeout=300)


def listed():
    return [l for l in GAPS.read_text().splitlines() if l.strip() and not l.startswith("#")] if GAPS.exists() else []


def test_the_tree_has_no_gap_beyond_its_list():
    result = run()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "docs: CollectionServer:" in result.stdout


def test_a_gap_the_list_leaves_out_fails_and_is_named(tmp_path):
    # The tree's own symbol graphs, with the comment of one public method taken out
    # and the fields of another: both must be named.
    graphs = tmp_path / "graphs"
    graphs.mkdir()
    check_docs.symbol_graphs(str(graphs))
    path = graphs / "CollectionCore.symbols.json"
    graph = json.loads(path.read_text())
    by_path = {".".join(s["pathComponents"]): s for s in graph["symbols"]}
    del by_path["CollectionView.cellForItem(at:)"]["docComment"]
    by_path["CollectionView.numberOfItems(inSection:)"]["docComment"]["lines"] = [{"text": "A count."}]
    path.write_text(json.dumps(graph))
    result = run("--graphs", graphs)
    assert result.returncode == 1, result.stdout
    assert "without their docs" in result.stdout
    assert "CollectionCore CollectionView.cellForItem(at:): no doc comment" in result.stdout
    assert "CollectionCore CollectionView.numberOfItems(inSection:): no - Parameters, - Returns" in result.stdout


def test_a_listed_gap_that_was_mended_fails_and_is_named(tmp_path):
    mended = "CollectionServer CollectionServer.imaginary(_:): no - Parameters"
    (tmp_path / "gaps").write_text("\n".join(listed() + [mended]) + "\n")
    result = run("--gaps", tmp_path / "gaps")
    assert result.returncode == 1, result.stdout
    assert "take these lines out" in result.stdout and mended in result.stdout


def symbol(key, path, kind, doc="", params=(), returns="", throws=False):
    s = {"identifier": {"precise": key}, "kind": {"identifier": "swift." + kind}, "pathComponents": path,
         "functionSignature": {"parameters": [{"name": p} for p in params], "returns": [{"spelling": returns}] if returns else []},
         "declarationFragments": [{"kind": "keyword", "spelling": "func"}, {"kind": "text", "spelling": "("},
                                  {"kind": "keyword", "spelling": "throws"}, {"kind": "text", "spelling": ") "}]
                                 + ([{"kind": "keyword", "spelling": "throws"}] if throws else [])}
    if doc:
        s["docComment"] = {"lines": [{"text": l} for l in doc.split("\n")]}
    return s


def test_the_rules():
    graph = {"symbols": [
        symbol("p", ["Source"], "protocol", "A source."),
        symbol("p.count", ["Source", "items(in:)"], "method", "The items.\n- Parameter section: Its index.\n- Returns: Them.", ["section"], "Int"),
        symbol("p.ext", ["Source", "items(in:)"], "method", "By default none.", ["section"], "Int"),
        symbol("c", ["Shelf"], "class", "A shelf."),
        symbol("c.items", ["Shelf", "items(in:)"], "method", "", ["section"], "Int"),
        symbol("c.hash", ["Shelf", "hash(into:)"], "method", "", ["hasher"]),
        symbol("c.put", ["Shelf", "put(_:)"], "method", "Puts a book.", ["book"], "", True),
        symbol("c.take", ["Shelf", "take(_:)"], "method", "Takes a book.\n- Parameter book: The book.\n- Returns: It.", ["book"], "Book"),
        symbol("c.all", ["Shelf", "all()"], "method", "Every book.", (), "[Book]"),
        symbol("c.made", ["Shelf", "init(size:)"], "init", "A shelf.\n- Parameter size: Its size.", ["size"], "Shelf"),
        symbol("c.name", ["Shelf", "name"], "property"),
        symbol("c.s::SYNTHESIZED::", ["Shelf", "x"], "property"),
        symbol("t", ["Tag"], "struct", "A tag."),
        symbol("t.id", ["Tag", "id"], "property"),
        symbol("t.eq", ["Tag", "==(_:_:)"], "func.op", "Equal tags.", ["a", "b"], "Bool"),
    ], "relationships": [
        {"kind": "requirementOf", "source": "p.count", "target": "p"},
        {"kind": "defaultImplementationOf", "source": "p.ext", "target": "p.count"},
        {"kind": "conformsTo", "source": "c", "target": "p"},
        {"kind": "memberOf", "source": "c.items", "target": "c"},
        {"kind": "conformsTo", "source": "c", "target": "s:SH"},
        {"kind": "memberOf", "source": "c.hash", "target": "c"},
        {"kind": "memberOf", "source": "t.id", "target": "t"},
    ]}
    assert check_docs.gaps("M", graph) == [
        "M Shelf.all(): no - Returns",
        "M Shelf.name: no doc comment",
        "M Shelf.put(_:): no - Parameters, - Throws",
        "M Tag.==(_:_:): no - Parameters, - Returns",
        "M Tag.id: no doc comment",
    ]
    assert check_docs.gaps("M", graph, only={"Source"}) == []
    # A Standard-library name passes only in a type that conforms to another module's protocol.
    assert "M Shelf.hash(into:): no doc comment" not in check_docs.gaps("M", graph)
