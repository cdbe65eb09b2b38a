import CollectionTesting
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

    @Test func theHarnessCatchesABrokenInvariant() {
        // A check that cannot fail is no check: an input whose edit is accepted must
        // produce a batch for both viewers; the harness sees the model move with it.
        let hub = FuzzHarness.makeHub()
        #expect(hub.model.checkInvariants().isEmpty)
        var broken = hub.model
        broken.itemContent["a1"] = nil
        #expect(!broken.checkInvariants().isEmpty)
    }
}
