#!/usr/bin/env python3
"""The doc-comment check (`make test-api`, part of `make test`): every public
declaration an app sees has a `///` comment, and every public function, initializer
and subscript says what it takes, gives and throws (`- Parameter(s)`, `- Returns`,
`- Throws`), as Xcode's Quick Help and DocC show them.

It reads the symbol graphs `swift-symbolgraph-extract` makes of the modules the API
check covers and of the types CollectionServer re-exports from the modules below it
(Sources/CollectionServer/Exports.swift), from the release build (seconds, nothing
is built). A declaration
without a comment of its own passes when it inherits one, as DocC shows it: a
default implementation of a documented requirement, an override of a documented
member, the member of a type that implements a documented requirement of the same
name, or a standard library requirement (`hash(into:)`, `==`, `description`...).
A default implementation or an override with a comment of its own (what it does by
default) is not asked for the fields again: the member it implements has them.

The gaps not yet mended are listed in Tests/api/doc-gaps (one `Module symbol: what`
a line): a gap that is not listed fails the check, and so does a listed one that is
mended (take its line out), so that the list only shrinks.

    Tests/api/check-docs.py                 check
    Tests/api/check-docs.py --gaps FILE     check against another list
    Tests/api/check-docs.py --graphs DIR    check symbol graphs made before (tests)
    Tests/api/check-docs.py --list          print every gap (to rewrite the list)
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULES = ["CollectionCore", "CollectionServer", "CollectionServerPostgres", "CollectionTesting"]
EXPORTS = os.path.join(ROOT, "Sources", "CollectionServer", "Exports.swift")


def reexported():
    """The types CollectionServer re-exports one by one from the modules below it: {module: {type}}."""
    types = {}
    with open(EXPORTS) as f:
        for line in f:
            words = line.split()
            if len(words) == 4 and words[0] == "@_exported" and "." in words[3]:
                module, name = words[3].split(".", 1)
                if module not in MODULES and module != "Foundation" and module != "Logging":
                    types.setdefault(module, set()).add(name)
    return types
GAPS = os.path.join(ROOT, "Tests", "api", "doc-gaps")
FUNCTIONS = {"func", "method", "init", "subscript", "type.method", "type.subscript", "func.op"}
# Requirements of the standard library's and Foundation's protocols (their docs are
# theirs), passed in a type that conforms to a protocol of another module.
STANDARD = {"hash(into:)", "==(_:_:)", "<(_:_:)", "description", "debugDescription", "hashValue",
            "encode(to:)", "init(from:)", "init(rawValue:)", "rawValue", "id", "makeIterator()", "next()",
            "startIndex", "endIndex", "index(after:)", "index(before:)", "subscript(_:)", "count", "isEmpty",
            "init(arrayLiteral:)", "init(stringLiteral:)", "init(integerLiteral:)", "init(floatLiteral:)",
            "init(dictionaryLiteral:)", "init(nilLiteral:)", "init(extendedGraphemeClusterLiteral:)",
            "init(unicodeScalarLiteral:)", "init()", "allCases", "errorDescription", "localizedDescription",
            "init(_:)", "union(_:)", "intersection(_:)", "symmetricDifference(_:)", "formUnion(_:)",
            "formIntersection(_:)", "formSymmetricDifference(_:)", "contains(_:)", "insert(_:)", "remove(_:)",
            "update(with:)", "subtract(_:)", "subtracting(_:)", "isSubset(of:)", "isSuperset(of:)",
            "isDisjoint(with:)", "isStrictSubset(of:)", "isStrictSuperset(of:)", "RawValue", "Element",
            "Index", "Iterator", "AllCases", "ArrayLiteralElement", "ID"}


def symbol_graphs(out):
    """Runs swift-symbolgraph-extract on each module; returns {module: graph}."""
    swift = subprocess.run(["bash", "-c", "readlink -f \"$(command -v swift)\""], capture_output=True, text=True).stdout.strip()
    tool = os.path.join(os.path.dirname(swift), "swift-symbolgraph-extract")
    found = subprocess.run([os.path.join(ROOT, "Tests", "api", "module-search-paths")], capture_output=True, text=True, check=True).stdout.split("\n")
    args = [a for d in found if d for a in ("-I", os.path.join(ROOT, d))]
    triple = subprocess.run(["bash", "-c", "swiftc -print-target-info | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"target\"][\"triple\"])'"],
                            capture_output=True, text=True).stdout.strip()
    graphs = {}
    for module in MODULES + sorted(reexported()):
        r = subprocess.run([tool, "-module-name", module, "-target", triple, "-minimum-access-level", "public",
                            "-output-dir", out] + args, capture_output=True, text=True)
        path = os.path.join(out, f"{module}.symbols.json")
        if r.returncode != 0 or not os.path.exists(path):
            sys.exit(f"docs: could not read module {module} (build it with `swift build -c release` first):\n{r.stderr}")
        with open(path) as f:
            graphs[module] = json.load(f)
    return graphs


def throws_itself(fragments):
    """Whether the declaration throws (not a closure among its parameters): a `throws`
    or `rethrows` after its parameter list, outside every parenthesis."""
    depth, opened = 0, False
    for f in fragments:
        if f["kind"] == "keyword" and f["spelling"] in ("throws", "rethrows") and depth == 0 and opened:
            return True
        for c in f["spelling"] if f["kind"] == "text" else "":
            if c == "(":
                depth, opened = depth + 1, True
            elif c == ")":
                depth -= 1
    return False


def gaps(module, graph, only=None):
    """The module's undocumented declarations (of the types `only` names, when it
    names them), as `Module path: what`."""
    symbols = {s["identifier"]["precise"]: s for s in graph["symbols"]}
    doc = {k: "\n".join(l["text"] for l in s.get("docComment", {}).get("lines", [])).strip() for k, s in symbols.items()}
    inherited = set()
    requirements = {}  # protocol id -> {name: documented}
    conforms = {}
    for r in graph["relationships"]:
        if r["kind"] in ("defaultImplementationOf", "overrides"):
            # Documented where it is declared (another module's requirement counts as documented).
            if r["target"] not in symbols or doc.get(r["target"]):
                inherited.add(r["source"])
        elif r["kind"] == "requirementOf" and r["source"] in symbols:
            requirements.setdefault(r["target"], {})[symbols[r["source"]]["pathComponents"][-1]] = bool(doc[r["source"]])
        elif r["kind"] == "conformsTo":
            conforms.setdefault(r["source"], set()).add(r["target"])
    members = {}
    for r in graph["relationships"]:
        if r["kind"] == "memberOf":
            members[r["source"]] = r["target"]
    out = []
    for key, s in symbols.items():
        if "::SYNTHESIZED::" in key or only is not None and s["pathComponents"][0] not in only:
            continue
        kind = s["kind"]["identifier"].split(".", 1)[-1]
        name = s["pathComponents"][-1]
        path = ".".join(s["pathComponents"])
        text = doc[key]
        if s.get("docComment", {}).get("module", module) != module:
            continue  # the documentation of another module's requirement, shown as DocC shows it
        owner = members.get(key)
        implements = any(requirements.get(p, {}).get(name) for p in conforms.get(owner, ()))
        if not text:
            external = any(p not in symbols for p in conforms.get(owner, ()))
            if key in inherited or implements or name in STANDARD and external:
                continue
            out.append(f"{module} {path}: no doc comment")
            continue
        if kind not in FUNCTIONS or key in inherited or implements:
            continue  # a default implementation or an override: the requirement says what it takes
        signature = s.get("functionSignature", {})
        need = []
        if signature.get("parameters") and "- Parameter" not in text:
            need.append("Parameters")
        returns = "".join(r.get("spelling", "") for r in signature.get("returns", []))
        if returns not in ("", "()", "Void", "Self") and kind != "init" and "- Returns" not in text:
            need.append("Returns")
        throws = throws_itself(s.get("declarationFragments", []))
        if throws and "- Throws" not in text:
            need.append("Throws")
        if need:
            out.append(f"{module} {path}: no - {', - '.join(need)}")
    return sorted(set(out))


def read_graphs(folder):
    """Symbol graphs kept in `folder` (``symbol_graphs``' files): {module: graph}."""
    graphs = {}
    for module in MODULES + sorted(reexported()):
        with open(os.path.join(folder, f"{module}.symbols.json")) as f:
            graphs[module] = json.load(f)
    return graphs


def main():
    if "--graphs" in sys.argv:
        graphs = read_graphs(sys.argv[sys.argv.index("--graphs") + 1])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            graphs = symbol_graphs(tmp)
    found = [g for m in MODULES for g in gaps(m, graphs[m])]
    found += [g for m, names in sorted(reexported().items()) for g in gaps(m, graphs[m], names)]
    if "--list" in sys.argv:
        print("\n".join(found))
        return 0
    listed = []
    gaps_file = sys.argv[sys.argv.index("--gaps") + 1] if "--gaps" in sys.argv else GAPS
    if os.path.exists(gaps_file):
        with open(gaps_file) as f:
            listed = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    new = sorted(set(found) - set(listed))
    mended = sorted(set(listed) - set(found))
    for module in MODULES + sorted(reexported()):
        n = sum(1 for g in found if g.startswith(module + " "))
        print(f"docs: {module}: {n} gaps listed in Tests/api/doc-gaps" if n else f"docs: {module}: every public declaration documented")
    if new:
        print("docs: public declarations without their docs (write them; the list only shrinks):")
        print("\n".join("  " + g for g in new))
    if mended:
        print("docs: mended, take these lines out of Tests/api/doc-gaps:")
        print("\n".join("  " + g for g in mended))
    return 1 if new or mended else 0


if __name__ == "__main__":
    sys.exit(main())
