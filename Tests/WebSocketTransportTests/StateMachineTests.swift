import Foundation
import Testing
import WebSocketTransport

@Suite struct InboundAssemblerTests {
    @Test func reassemblesChunksIntoOneMessage() {
        var a = InboundAssembler(limit: 10)
        let first = a.append(Array("abc".utf8), binary: false, isFinal: false)
        let second = a.append(Array("def".utf8), binary: false, isFinal: true)
        #expect(first == .incomplete)
        #expect(second == .message(Array("abcdef".utf8), binary: false))
        // The next message starts fresh and keeps its own binary flag.
        let third = a.append([1, 2], binary: true, isFinal: true)
        #expect(third == .message([1, 2], binary: true))
    }

    @Test func refusesMessagesOverTheLimitAndRecovers() {
        var a = InboundAssembler(limit: 5)
        let outcomes = [
            a.append([1, 2, 3], binary: true, isFinal: false),
            a.append([4, 5, 6], binary: true, isFinal: true),
            a.append([7], binary: false, isFinal: true),
            a.append([1, 2, 3, 4, 5], binary: false, isFinal: true),
        ]
        #expect(outcomes == [.incomplete, .tooLarge(limit: 5), .message([7], binary: false), .message([1, 2, 3, 4, 5], binary: false)])
    }
}

@Suite struct OutboundQueueTests {
    @Test func fragmentsLargeMessagesInOrder() {
        var q = OutboundQueue(fragmentSize: 4, maxQueuedBytes: 100)
        let accepted = [q.enqueue(Array(0..<10), binary: true), q.enqueue([42], binary: false)]
        #expect(accepted == [true, true])
        #expect(q.queuedBytes == 11)
        var fragments: [OutboundFragment] = []
        while let f = q.nextFragment() { fragments.append(f) }
        #expect(fragments.map { Array($0.bytes) } == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9], [42]])
        #expect(fragments.map(\.isStart) == [true, false, false, true])
        #expect(fragments.map(\.isEnd) == [false, false, true, true])
        #expect(fragments.map(\.binary) == [true, true, true, false])
        #expect(q.isEmpty && q.queuedBytes == 0)
    }

    @Test func refusesPastTheBacklogBound() {
        var q = OutboundQueue(fragmentSize: 4, maxQueuedBytes: 8)
        let first = q.enqueue(Array(repeating: 1, count: 6), binary: false)
        let overBound = q.enqueue([1, 2, 3], binary: false)
        _ = q.nextFragment()
        let afterDrain = q.enqueue([1, 2, 3], binary: false)
        #expect(first && !overBound && afterDrain)
        #expect(q.count == 2)
    }

    @Test func manyMessagesKeepOrderWhileCompacting() {
        var q = OutboundQueue(fragmentSize: 1000, maxQueuedBytes: 1 << 20)
        var next: UInt8 = 0
        var expected: UInt8 = 0
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 1) {
                let ok = q.enqueue([next], binary: false)
                #expect(ok)
                next &+= 1
            }
            for _ in 0..<(round % 5 + 1) {
                guard let f = q.nextFragment() else { break }
                #expect(Array(f.bytes) == [expected])
                expected &+= 1
            }
            // What it says waits is what waits (each message one fragment here).
            #expect(q.count == Int(next &- expected) && q.isEmpty == (next == expected))
        }
        #expect(q.count > 0)
        while let f = q.nextFragment() {
            #expect(Array(f.bytes) == [expected])
            expected &+= 1
        }
        #expect(expected == next && q.isEmpty && q.count == 0)
    }
}

@Suite struct StaticFilesTests {
    @Test(arguments: [
        ("/", "index.html"), ("/index.html", "index.html"), ("/js/app.js?v=2", "js/app.js"),
        ("/a%20b.css", "a b.css"), ("/js/", "js/index.html"),
    ])
    func mapsPaths(request: String, relative: String) {
        #expect(StaticFiles.relativePath(for: request) == relative)
    }

    @Test(arguments: ["/../x", "/%2e%2e/x", "/a/..%2f..%2fx", "/.git/config", "/a/./b", "/%00", "/a\\..\\b", "/%zz", "relative"])
    func refusesEscapes(request: String) {
        #expect(StaticFiles.relativePath(for: request) == nil)
    }

    @Test func resolvesInsideTheRootOnly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("js"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try "<p>".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "x".write(to: root.appendingPathComponent("js/app.js"), atomically: true, encoding: .utf8)
        // A symlink pointing out of the root is refused.
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("out.txt").path, withDestinationPath: "/etc/hostname")
        let files = StaticFiles(root: root.path)
        guard case let .file(index, type, validators) = files.resolve("/") else { Issue.record("no index"); return }
        #expect(index == files.root + "/index.html" && type == "text/html; charset=utf-8")
        #expect(validators.etag.hasPrefix("\"3-"))   // 3 bytes
        guard case let .file(app, appType, _) = files.resolve("/js/app.js") else { Issue.record("no app.js"); return }
        #expect(app == files.root + "/js/app.js" && appType == "text/javascript; charset=utf-8")
        #expect(files.resolve("/missing.js") == .notFound)
        #expect(files.resolve("/js") == .notFound)
        #expect(files.resolve("/out.txt") == .forbidden)
        #expect(files.resolve("/../etc/passwd") == .forbidden)
    }
}
