"""docs/API.md's "Testing an app" example is run: each of its statements that drive the
viewers (hello, send, next, wait, #expect) is one of TestingSetupTests' test body,
which `make test` runs in process and live. An example that drifts from the harness
(a hello without `wantOrder` whose mirror has no order, say) fails here."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def statements(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        # A comment after the statement goes (after a raw string's end when there is one).
        end = line.rfind('"#)')
        line = line[:end + 3] if end >= 0 else re.sub(r"\s*//.*$", "", line)
        line = re.sub(r"^(let \w+ = |_ = )", "", line)
        if re.search(r"\.(hello|send|next|wait)\(|#expect\(", line):
            out.append(line)
    return out


def test_the_testing_example_is_what_the_harness_test_runs():
    api = (ROOT / "docs" / "API.md").read_text()
    section = api.split("## Testing an app", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"```swift\n(.*?)```", section, re.S).group(1)
    shown = statements(example)
    assert len(shown) >= 6, shown
    test = (ROOT / "Tests" / "CollectionServerTests" / "TestingSetupTests.swift").read_text()
    body = test.split("func oneBodyRunsInProcessAndLive", 1)[1].split("\n    @Test", 1)[0]
    run = statements(body)
    missing = [line for line in shown if line not in run]
    assert not missing, f"docs/API.md's example does what TestingSetupTests does not: {missing}"
