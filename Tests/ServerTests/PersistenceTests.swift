import CollectionCore
import CollectionProtocol
import ProjectTestSupport
import Foundation
import Testing

/// A data folder of its own, removed at the end (readable by everyone, so that a
/// server run as another user can open it).
final class DataFolder {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("data-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    var database: String { path + "/collections.sqlite" }
    func chmod(_ mode: Int) throws {
        for file in [path] + ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).map({ path + "/" + $0 }) {
            try FileManager.default.setAttributes([.posixPermissions: file == path ? mode | 0o111 : mode], ofItemAtPath: file)
        }
    }
    deinit {
        try? chmod(0o755)
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One client streaming edits to the photo library: moves and reloads of random
/// photos, one at a time, each waiting for its answer. What was acknowledged is
/// kept as op id → sequence number.
final class Editor: @unchecked Sendable {
    let name: String
    var viewer: TestViewer
    var acked: [String: Int] = [:]
    var ackedOrder: [String] = []
    var sent: [String: String] = [:]
    var serial = 0
    var rng: SplitMix64

    init(name: String, viewer: TestViewer, seed: UInt64) {
        self.name = name
        self.viewer = viewer
        rng = SplitMix64(seed: seed)
    }

    /// Edits until the connection fails (the server was killed) or `limit` edits were made.
    func stream(limit: Int = 100_000) async {
        for _ in 0..<limit {
            let ids = (viewer.mirror.order ?? []).flatMap { $0 }
            guard let item = ids.randomElement(using: &rng), let section = viewer.mirror.sections.map(\.id).randomElement(using: &rng) else { return }
            serial += 1
            let op = "\(name)-\(serial)"
            let json = Bool.random(using: &rng)
                ? #"{"type":"move","op":"\#(op)","item":"\#(item)","section":"\#(section)"}"#
                : #"{"type":"reload","op":"\#(op)","items":["\#(item)"]}"#
            sent[op] = json
            viewer.send(json)
            do {
                let answer = try await viewer.next(where: { message in
                    switch message {
                    case .ack(op, _), .reject(op, _, _): true
                    default: false
                    }
                }, timeout: .seconds(5))
                if case .ack(_, let seq) = answer {
                    acked[op] = seq
                    ackedOrder.append(op)
                }
            } catch {
                return
            }
            // A steady stream, not a busy loop: other tests share the machine.
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}

@Suite(.serialized, .tags(.process)) struct PersistenceTests {
    /// Five clients stream edits; the server is killed (SIGKILL) at 20 random
    /// moments and started again on the same data folder. After each restart every
    /// acknowledged edit is there at its sequence number, the sequence has no gap,
    /// and every client resumes rather than reloads.
    @Test func everyAcknowledgedEditSurvivesTwentyCrashes() async throws {
        let folder = try DataFolder()
        var rng = SplitMix64(seed: UInt64(Date().timeIntervalSince1970))
        var server = try ServerProcess(["--data", folder.path, "--demo", "small"])
        var editors: [Editor] = []
        for i in 0..<5 {
            let viewer = try await TestViewer.connect(port: server.port)
            try await viewer.hello(wantOrder: true, collection: "photos")
            editors.append(Editor(name: "e\(i)", viewer: viewer, seed: UInt64(i + 1) * 7919))
        }
        var totalAcked = 0
        var checkedUpTo = [Int](repeating: 0, count: editors.count)
        for round in 0..<20 {
            // Stream, and crash the server at a random moment.
            let delay = UInt64.random(in: 30...300, using: &rng)
            let streams = editors.map { editor in Task { await editor.stream() } }
            try await Task.sleep(for: .milliseconds(delay))
            server.crash()
            for s in streams { await s.value }

            server = try ServerProcess(["--data", folder.path, "--demo", "small"])
            for (i, editor) in editors.enumerated() {
                // Each client comes back with what it had: it resumes.
                let mirror = editor.viewer.mirror
                let viewer: TestViewer, first: ServerMessage
                do {
                    viewer = try await TestViewer.connect(port: server.port, mirror: mirror)
                } catch {
                    Issue.record("round \(round): \(editor.name) could not connect: \(error); \(server.state)")
                    return
                }
                do {
                    first = try await viewer.hello(wantOrder: true, lastSeq: mirror.seq, epoch: mirror.epoch, collection: "photos")
                } catch {
                    Issue.record("round \(round): \(editor.name) could not come back at \(mirror.seq): \(error), close code \(viewer.socket.closeCode.map(String.init) ?? "none"), received \(viewer.received.map(\.type)); \(server.state)")
                    return
                }
                guard case .resume(let resume) = first else {
                    Issue.record("round \(round): \(editor.name) was not resumed: \(first)")
                    return
                }
                #expect(resume.seq >= mirror.seq)
                editor.viewer = viewer
                // Every edit acknowledged since the last check is answered with its
                // first sequence number: it is in the log, where it was.
                for op in editor.ackedOrder[checkedUpTo[i]...] {
                    viewer.send(editor.sent[op]!)
                    do {
                        let answer = try await viewer.next(where: { if case .ack(op, _) = $0 { true } else if case .reject(op, _, _) = $0 { true } else { false } })
                        #expect(answer == .ack(op: op, seq: editor.acked[op]!), "round \(round): \(op)")
                    } catch {
                        Issue.record("round \(round): \(op) resent, no answer: \(error); received \(viewer.received.suffix(3))")
                        return
                    }
                }
                checkedUpTo[i] = editor.ackedOrder.count
            }
            totalAcked = editors.map(\.acked.count).reduce(0, +)
        }
        // The edits went on through the crashes, and a new viewer sees what the others do.
        #expect(totalAcked > 100)
        let fresh = try await TestViewer.connect(port: server.port)
        try await fresh.hello(wantOrder: true, collection: "photos")
        let last = try #require(editors.last?.viewer)
        try await fresh.wait(forSeq: last.mirror.seq)
        #expect(fresh.mirror.order == last.mirror.order)
        #expect(server.stop() == 0)
    }

    /// SIGTERM: every socket is closed with 1001, the process exits 0 within
    /// 5 s, and nothing acknowledged is lost.
    @Test func sigtermClosesEverySocketWith1001AndLosesNothing() async throws {
        let folder = try DataFolder()
        let server = try ServerProcess(["--data", folder.path, "--demo", "small"])
        var editors: [Editor] = []
        for i in 0..<3 {
            let viewer = try await TestViewer.connect(port: server.port)
            try await viewer.hello(wantOrder: true, collection: "photos")
            editors.append(Editor(name: "t\(i)", viewer: viewer, seed: UInt64(i + 11)))
        }
        let streams = editors.map { editor in Task { await editor.stream() } }
        try await Task.sleep(for: .milliseconds(300))
        let started = Date()
        server.terminate()
        for s in streams { await s.value }
        for editor in editors { #expect(try await editor.viewer.socket.waitForClose() == 1001) }
        #expect(server.waitForExit(within: 5) == 0)
        #expect(Date().timeIntervalSince(started) < 5)

        let again = try ServerProcess(["--data", folder.path, "--demo", "small"])
        for editor in editors {
            let mirror = editor.viewer.mirror
            let viewer = try await TestViewer.connect(port: again.port, mirror: mirror)
            let first = try await viewer.hello(wantOrder: true, lastSeq: mirror.seq, epoch: mirror.epoch, collection: "photos")
            guard case .resume = first else { Issue.record("\(editor.name) was not resumed: \(first)"); return }
            #expect(!editor.acked.isEmpty)
            for (op, seq) in editor.acked {
                viewer.send(editor.sent[op]!)
                #expect(try await viewer.next(where: { if case .ack(op, _) = $0 { true } else { false } }) == .ack(op: op, seq: seq))
            }
        }
    }

    /// A file that is not a database stops the server with a clear message, and is left as it was.
    @Test func aCorruptDatabaseStopsTheServerAndIsLeftAlone() throws {
        let folder = try DataFolder()
        let junk = Data(String(repeating: "this is not a database ", count: 400).utf8)
        try junk.write(to: URL(fileURLWithPath: folder.database))
        let (status, stderr) = try runToExit(["--data", folder.path, "--demo", "small"])
        #expect(status == 2)
        #expect(stderr.contains("collections.sqlite is not a collection database or is damaged"), "\(stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.database)) == junk)
    }

    /// A data folder that cannot be written: the server serves what it holds,
    /// refuses edits with storage_unavailable, and viewers keep watching.
    @Test func aReadOnlyDataFolderRejectsEditsWhileViewersWatch() async throws {
        let folder = try DataFolder()
        var seq = 0
        do {
            let first = try ServerProcess(["--data", folder.path, "--demo", "small"])
            let viewer = try await TestViewer.connect(port: first.port)
            try await viewer.hello(collection: "photos")
            viewer.send(#"{"type":"shuffle","op":"s1","section":"\#(viewer.mirror.sections[0].id)"}"#)
            try await viewer.wait(forSeq: 1)
            seq = viewer.mirror.seq
            #expect(first.stop() == 0)
        }
        try folder.chmod(0o444)
        let nobody: UInt32? = getuid() == 0 ? 65534 : nil
        let server = try ServerProcess(["--data", folder.path, "--demo", "small"], user: nobody)
        let editor = try await TestViewer.connect(port: server.port)
        guard case .welcome(let welcome) = try await editor.hello(wantOrder: true, collection: "photos") else { Issue.record("no welcome"); return }
        #expect(welcome.seq == seq)
        let watcher = try await TestViewer.connect(port: server.port)
        try await watcher.hello(collection: "photos")
        editor.send(#"{"type":"reload","op":"r1","items":["\#(editor.mirror.order?.first?.first ?? "")"]}"#)
        guard case .reject(_, let code, let message) = try await editor.next("reject") else { return }
        #expect(code == .storageUnavailable && message.contains("read-only"), "\(code): \(message)")
        watcher.send(#"{"type":"scroll","offset":{"x":0,"y":100}}"#)
        _ = try await watcher.next("window")
        #expect(await watcher.staysQuiet())
        #expect(server.stop() == 0)
    }
}

/// Runs the server until it exits by itself (within 10 s); its status and standard error.
func runToExit(_ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = ServerProcess.binaryURL
    process.arguments = ["--host", "127.0.0.1", "--port", "0", "--exit-on-stdin-eof"] + arguments
    let stderr = Pipe()
    process.standardError = stderr
    process.standardOutput = Pipe()
    process.standardInput = Pipe()
    try process.run()
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
}
