import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

/// Replays the fuzzing corpus and every kept crash input through the same harness
/// the fuzzer runs: decode → apply, with invariant checks.
@Suite struct CorpusReplayTests {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FuzzTesting")
    }

    static func inputs(_ folder: String) -> [URL] {
        let dir = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted().map { dir.appendingPathComponent($0) }
    }

    @Test func theCorpusIsThere() {
        #expect(Self.inputs("Corpus").count >= 8)
    }

    @Test func corpusAndCrashInputsKeepEveryInvariant() throws {
        for url in Self.inputs("Corpus") + Self.inputs("Crashes") {
            let bytes = [UInt8](try Data(contentsOf: url))
            let problems = FuzzHarness.run(bytes)
            #expect(problems.isEmpty, "\(url.lastPathComponent): \(problems)")
        }
    }

    /// The harness's checks must be able to fail: feed them outputs with one thing broken.
    @Test func theHarnessCatchesBrokenOutputs() {
        let hub = FuzzHarness.makeHub()
        hub.connect(1)
        hub.connect(2)
        for key in [UInt64(1), 2] {
            _ = hub.receive(Array(#"{"type":"hello","viewport":{"width":200,"height":90}}"#.utf8), from: key)
        }
        let before = (hub.model, hub.sequence)
        let out = hub.receive(Array(#"{"type":"insert","section":"a","count":1}"#.utf8), from: 1)
        #expect(FuzzHarness.check(hub, out: out, before: before, from: 1).isEmpty)
        // The batch to viewer 2 lost: caught.
        func isBatch(_ o: Outgoing) -> Bool { if case .batch = o.message { true } else { false } }
        let dropped = out.filter { $0.viewer == 1 || !isBatch($0) }
        #expect(FuzzHarness.check(hub, out: dropped, before: before, from: 1).contains("a batch did not reach every viewer"))
        // A batch for a message that changed nothing: caught.
        let after = (hub.model, hub.sequence)
        let stray = out.filter(isBatch)
        #expect(FuzzHarness.check(hub, out: stray, before: after, from: 1).contains("a batch was sent without a new sequence number"))
        // The model changed without a number: caught.
        #expect(FuzzHarness.check(hub, out: [], before: (before.0, after.1), from: 1).contains("the model changed without a sequence number"))
    }
}
