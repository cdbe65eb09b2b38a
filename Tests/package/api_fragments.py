"""docs/API.md's Swift fragments, and the README's "Writing against the engine", as one
file an app compiles (never runs). API.md's: each in a
function whose parameters give the names the fragment takes for granted (`collection`,
`board`, `dataSource`…), the types it names beside them, the types a fragment declares
lifted out of its function. The testing example is left out: TestingSetupTests runs it
(test_api_examples.py). The README's example is whole (its types and statements, in an
enum of its own). Used by test_readme_example.py, whose app build compiles it."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = '''import CollectionServer
import Foundation

// docs/API.md's fragments, each compiled as written in a context that gives the names
// it takes for granted (compiled, never run).
enum DocFragments {
    struct TicketCell: Encodable, Sendable { var title: String; var owner: String }
    final class PhotoCell: CollectionViewCell {}
    final class Photos: CollectionViewDataSource, @unchecked Sendable {   // as API.md says a classic data source is declared
        var albums: [[String]] = [[]]
        func numberOfSections(in collectionView: CollectionView) -> Int { albums.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { albums[section].count }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath)
        }
    }
    struct Accounts { func check(_ name: String, _ password: String) async throws -> Bool { false } }
    static func nextId() -> Int { 0 }
'''

def fragments():
    api = (ROOT / "docs" / "API.md").read_text()
    return re.findall(r"```swift\n(.*?)```", api, re.S)

def split_types(body):
    """Top-level type declarations (struct/class/enum at column 0) and the rest."""
    lines = body.splitlines()
    types, rest, i = [], [], 0
    while i < len(lines):
        if re.match(r"(final class|class|struct|enum) \w+", lines[i]):
            depth, j = 0, i
            while True:
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0 and "{" in "".join(lines[i:j + 1]): break
                j += 1
            types.append("\n".join(lines[i:j + 1])); i = j + 1
        else:
            rest.append(lines[i]); i += 1
    return types, "\n".join(rest)

def generate():
    out = [PRELUDE]
    for n, body in enumerate(fragments()):
        if body.lstrip().startswith("@Test"):
            continue   # the testing example: run by TestingSetupTests (test_api_examples.py)
        body = body.replace("…", "")
        types, rest = split_types(body)
        for t in types:
            out.append("    " + t.replace("\n", "\n    "))
        out.append(f"""    static func fragment{n}(server: CollectionServer, collection: LiveCollection, board: LiveCollection,
                            dataSource: LiveDiffableDataSource<String, Ticket>, tickets: [Ticket], photos: Photos,
                            secret: String, accounts: Accounts) async throws {{""")
        out.append("        " + rest.replace("\n", "\n        "))
        # What a fragment declares and leaves to the reader's code is used here (no warning).
        for name in re.findall(r"^(?:let|var) (\w+)", rest, re.M):
            out.append(f"        _ = {name}")
        out.append("    }")
    out.append("}")
    return "\n".join(out) + "\n"


def readme_engine_example():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Writing against the engine", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```swift\n(.*?)```", section, re.S).group(1)


def generate_all():
    """API.md's fragments and the README's engine example, one file."""
    types, rest = split_types(readme_engine_example().replace("import CollectionCore\n", ""))
    body = "\n".join(["", "enum ReadmeEngineExample {"] + ["    " + t.replace("\n", "\n    ") for t in types]
                     + ["    static func run() {", "        " + rest.replace("\n", "\n        ").rstrip(), "    }", "}"])
    return generate() + body + "\n"

