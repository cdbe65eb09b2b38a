"""The Swift Testing tags (README, "Tests") say what each suite does: `integration`
for a server in the test process, `process` for the real binary, `postgres` for a
private PostgreSQL server. A tag nothing checks drifts (two pure suites carried
`integration` when they were tagged), so this reads every suite's source and asks
that its tags be exactly what it does. Reading the source, not running the tests:
Swift 6.3.1's `swift test` cannot filter by tag, so nothing else would notice."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECLARATION = re.compile(r"^(?P<suite>@Suite(?:\((?P<traits>.*)\))?\s+)?(?:final\s+)?(?:struct|class|enum|actor)\s+(?P<name>\w+)", re.M)
TAGS = re.compile(r"\.tags\(([^)]*)\)")
# What starts a server in the test process: a server made (`WebSocketServer(`,
# `CollectionServer(`, a helper such as `shelfServer(`), a harness that makes one,
# or a server started.
STARTS_SERVER = re.compile(r"(?<!func )\b\w*[Ss]erver\(|LibraryHarness\(")


def suites(path: Path):
    """Each top-level type with tests in `path`: its name, tags, source, and whether it has `@Suite`."""
    text = path.read_text()
    found = []
    for match in DECLARATION.finditer(text):
        end = re.compile(r"^}", re.M).search(text, match.end())
        source = text[match.start():end.end() if end else len(text)]
        declared = match.group("suite") is not None
        if not declared and "@Test" not in source:
            continue
        tags = set()
        for group in TAGS.findall(match.group("traits") or ""):
            tags |= {t.strip().lstrip(".") for t in group.split(",") if t.strip()}
        found.append((match.group("name"), tags, source, declared))
    return found


def expected(target: str, source: str) -> set:
    tags = set()
    if "TestPostgres.current" in source:
        tags.add("postgres")
    if target == "ServerTests":
        tags.add("process")
    elif STARTS_SERVER.search(source):
        tags.add("integration")
    return tags


def test_every_suite_carries_the_tags_of_what_it_does():
    wrong = []
    count = 0
    for path in sorted(ROOT.glob("Tests/*Tests/*.swift")):
        target = path.parent.name
        for name, tags, source, declared in suites(path):
            count += 1
            want = expected(target, source)
            if want and not declared:
                wrong.append(f"{target}/{path.name}: {name} has tests but no @Suite to carry {sorted(want)}")
            elif tags != want:
                wrong.append(f"{target}/{path.name}: {name} carries {sorted(tags)}, does {sorted(want)}")
    assert count > 100, f"only {count} suites found: the pattern no longer reads the tests"
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_a_missing_and_a_wrong_tag(tmp_path):
    suite = tmp_path / "ServerTests" / "X.swift"
    suite.parent.mkdir()
    suite.write_text("@Suite(.enabled(if: TestPostgres.current != nil), .tags(.integration)) struct X {\n"
                     "    @Test func t() {}\n}\n")
    (name, tags, source, declared), = suites(suite)
    assert name == "X" and declared and tags == {"integration"}
    assert expected("ServerTests", source) == {"process", "postgres"}
    pure = tmp_path / "P.swift"
    pure.write_text("struct P {\n    @Test func t() { _ = WebSocketServerConfiguration() }\n}\n")
    (name, tags, source, declared), = suites(pure)
    assert name == "P" and not declared and expected("CollectionCoreTests", source) == set()
