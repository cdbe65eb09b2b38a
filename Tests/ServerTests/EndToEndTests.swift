import Foundation
import Testing
import WebSocketTransport

/// The real server, driven through the protocol by two clients.
@Suite(.serialized, .tags(.process)) struct EndToEndTests {
    @Test func twoViewersHelloScrollEditAndSelect() async throws {
        let server = try ServerProcess(["--demo", "photos"])
        let a = try await ProtocolClient.connect(server)
        let b = try await ProtocolClient.connect(server)

        let welcomeA = try await a.hello(width: 1200, height: 800)
        let welcomeB = try await b.hello(width: 375, height: 700)
        #expect(welcomeA["protocol"] as? Int == 1)
        #expect(welcomeA.sectionCounts == [640, 560, 520, 480])
        let cellsA = welcomeA.elements.filter { $0["kind"] as? String == "cell" }
        let cellsB = welcomeB.elements.filter { $0["kind"] as? String == "cell" }
        #expect(cellsA.count > 20 && cellsA.count < 200)
        // Each viewer has its own layout: the same item gets different frames.
        let frameA = cellsA.first { $0["key"] as? String == "i:p2" }?["frame"] as? [Double]
        let frameB = cellsB.first { $0["key"] as? String == "i:p2" }?["frame"] as? [Double]
        #expect(frameA != nil && frameB != nil && frameA != frameB)
        #expect(((cellsA.first?["content"] as? [String: String])?["title"]) == "IMG_0001")

        // Scrolling: elements come in and the keys of those that leave go.
        a.send(#"{"type":"scroll","offset":{"x":0,"y":6000}}"#)
        let window = try await a.next("window")
        let added = window["add"] as? [[String: Any]] ?? []
        let removed = window["remove"] as? [String] ?? []
        #expect(!added.isEmpty && removed.contains("i:p1"))
        #expect(added.allSatisfy { (($0["frame"] as? [Double])?[1] ?? 0) > 6000 - 800 - 400 })

        // An edit: ack to the sender, the same numbered batch to both.
        a.send(#"{"type":"insert","op":"op-1","section":"summer","count":3}"#)
        let ack = try await a.next("ack")
        #expect(ack["op"] as? String == "op-1" && ack["seq"] as? Int == 1)
        let batchA = try await a.next("batch")
        let batchB = try await b.next("batch")
        for batch in [batchA, batchB] {
            #expect(batch["seq"] as? Int == 1)
            #expect(batch["inserts"] as? [[Int]] == [[0, 0], [0, 1], [0, 2]])
            #expect(batch.sectionCounts == [643, 560, 520, 480])
        }
        // B is at the top: the new items are in its window, in B's layout.
        #expect(batchB.elements.contains { $0["key"] as? String == "i:p2201" && $0["item"] as? Int == 0 })

        // Shuffle: a batch of moves to both.
        b.send(#"{"type":"shuffle","section":"mountains"}"#)
        let shuffleA = try await a.next("batch")
        _ = try await b.next("batch")
        #expect(shuffleA["seq"] as? Int == 2 && !((shuffleA["moves"] as? [Any])?.isEmpty ?? true))

        // Selection by B shows up at A.
        b.send(#"{"type":"select","item":"p5","selected":true}"#)
        let selection = try await a.next("selection")
        #expect(selection["item"] as? String == "p5" && selection["selected"] as? Bool == true)
        #expect(selection["viewer"] as? String == welcomeB["viewer"].flatMap { ($0 as? [String: Any])?["id"] as? String })
    }

    /// Each malformed or refused input, the answer PROTOCOL.md gives it: (message type, code).
    static let badInputs: [(String, String, String)] = [
        (#"{"type":"insert","section":"summer","count":"#, "error", "bad_json"),
        ("", "error", "bad_json"),
        (#"[1,2]"#, "error", "bad_message"),
        (#""hello""#, "error", "bad_message"),
        (#"{"section":"summer"}"#, "error", "bad_message"),
        (#"{"type":7}"#, "error", "bad_message"),
        (#"{"type":"teleport"}"#, "error", "unknown_type"),
        (#"{"type":"select","item":42,"selected":true}"#, "error", "bad_message"),
        (#"{"type":"select","item":"p1","selected":"yes"}"#, "error", "bad_message"),
        (#"{"type":"select","item":"p1","selected":true,"color":"red"}"#, "error", "bad_message"),
        (#"{"type":"select","item":"no-such-item","selected":true}"#, "error", "unknown_item"),
        (#"{"type":"delete","op":"d1","items":["p1","no-such-item"]}"#, "reject", "unknown_item"),
        (#"{"type":"insert","section":"no-such-album","count":1}"#, "error", "unknown_section"),
        (#"{"type":"move","op":"m1","item":"p1","section":"summer","after":"p20"}"#, "reject", "bad_message"),
        (#"{"type":"insert","section":"summer","count":1e300}"#, "error", "bad_message"),
        (#"{"type":"insert","section":"summer","count":NaN}"#, "error", "bad_json"),
        (#"{"type":"insert","section":"summer","count":Infinity}"#, "error", "bad_json"),
        (#"{"type":"insert","section":"summer","count":-3}"#, "error", "bad_message"),
        (#"{"type":"insert","section":"summer","count":2.5}"#, "error", "bad_message"),
        (#"{"type":"scroll","offset":{"x":0,"y":0},"z":"#.appending(String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"), "error", "bad_json"),
        (#"{"type":"delete","items":["# + (0..<1001).map { "\"p\($0)\"" }.joined(separator: ",") + "]}", "error", "bad_message"),
        (#"{"type":"shuffle","op":""# + String(repeating: "o", count: 65) + #"","section":"summer"}"#, "error", "bad_message"),
        (#"{"type":"shuffle","op":"s1","section":"summer","ifSeq":999}"#, "reject", "stale"),
        (#"{"type":"delete","op":"d2","items":["p1","p1"]}"#, "reject", "bad_message"),
        (#"{"type":"hello","protocol":2,"viewport":{"width":10,"height":10}}"#, "error", "unsupported_version"),
        // A refused edit with a readable op is answered by op, however it was refused.
        (#"{"type":"insert","op":"i0","section":"summer","count":0}"#, "reject", "bad_message"),
        (#"{"type":"insert","op":"i1","section":"summer","count":1,"colour":"red"}"#, "reject", "bad_message"),
        (#"{"type":"move","op":"m2","item":"p1","section":"summer","after":"p1"}"#, "reject", "bad_message"),
        (#"{"type":"drop","op":"j1","x":10,"y":10,"items":[{"kind":"url","value":"javascript:alert(1)"}]}"#, "reject", "bad_message"),
        (#"{"type":"drop","op":"j2","x":10,"y":10}"#, "reject", "bad_message"),
        (#"{"type":"hello","viewport":{"width":10,"height":10},"collection":"elsewhere"}"#, "error", "unknown_collection"),
    ]

    @Test func theLargeDemoHoldsTheItemLimitAndAReusedOpIsRefused() async throws {
        let server = try ServerProcess(["--demo", "large"])
        let a = try await ProtocolClient.connect(server)
        let b = try await ProtocolClient.connect(server)
        let welcome = try await a.hello()
        _ = try await b.hello()
        #expect(welcome.sectionCounts.reduce(0, +) == 100_000)
        a.send(#"{"type":"insert","op":"full","section":"summer","count":1}"#)
        let refused = try await a.next("reject")
        #expect(refused["code"] as? String == "refused" && (refused["message"] as? String)?.contains("100000") == true)
        // Room for one: a's delete is op "x1"; b's insert under the same op id is refused, not taken for a's.
        a.send(#"{"type":"delete","op":"x1","items":["p1"]}"#)
        #expect(try await a.next("ack")["seq"] as? Int == 1)
        b.send(#"{"type":"insert","op":"x1","section":"summer","count":1}"#)
        let clash = try await b.next("reject")
        #expect(clash["code"] as? String == "op_reused" && clash["op"] as? String == "x1")
        b.send(#"{"type":"insert","op":"x2","section":"summer","count":1}"#)
        #expect(try await b.next("ack")["seq"] as? Int == 2)
        b.send(#"{"type":"insert","op":"x3","section":"summer","count":1}"#)
        #expect(try await b.next("reject")["code"] as? String == "refused")
    }

    @Test func malformedInputGetsTheDocumentedAnswerAndChangesNothing() async throws {
        let server = try ServerProcess(["--demo", "small"])
        let a = try await ProtocolClient.connect(server)
        let b = try await ProtocolClient.connect(server)
        let before = try await a.hello()
        _ = try await b.hello()
        _ = try await a.next("presenceChange")
        #expect(Self.badInputs.count >= 25)
        for (input, type, code) in Self.badInputs {
            a.send(input)
            let answer = try await a.next()
            #expect(answer["type"] as? String == type, "\(input.prefix(60))")
            #expect(answer["code"] as? String == code, "\(input.prefix(60)): \(answer)")
            #expect(!((answer["message"] as? String) ?? "").isEmpty)
        }
        a.socket.send(bytes: [1, 2, 3], binary: true)
        #expect(try await a.next()["code"] as? String == "binary_unsupported")
        // Before hello, on a fresh connection: not_ready.
        let c = try await ProtocolClient.connect(server)
        c.send(#"{"type":"select","item":"p1","selected":true}"#)
        #expect(try await c.next()["code"] as? String == "not_ready")
        // Nobody else heard anything, and nothing changed.
        #expect(await b.staysQuiet())
        let d = try await ProtocolClient.connect(server)
        let after = try await d.hello()
        #expect(after.sectionCounts == before.sectionCounts && after["seq"] as? Int == 0)
        #expect((after["sections"] as? [[String: Any]])?.map { $0["checksum"] as? String } == (before["sections"] as? [[String: Any]])?.map { $0["checksum"] as? String })
        // And the connection that sent all that still works.
        a.send(#"{"type":"scroll","offset":{"x":0,"y":10}}"#)
        #expect(try await a.next("window")["type"] as? String == "window")
    }

    @Test func invalidUTF8AndOversizeMessagesCloseWithTheirCodes() async throws {
        let server = try ServerProcess(["--demo", "small"])
        let a = try await ProtocolClient.connect(server)
        _ = try await a.hello()
        a.socket.send(bytes: [0x7B, 0xFF, 0xFE, 0x7D], binary: false)
        #expect(try await a.socket.waitForClose() == 1007)

        let b = try await ProtocolClient.connect(server)
        b.send(String(repeating: " ", count: 70_000) + "{}")
        #expect(try await b.socket.waitForClose() == 1009)

        let c = try await ProtocolClient.connect(server)
        #expect(try await c.hello()["seq"] as? Int == 0)
    }

    @Test func clientsOfferingNoSubprotocolAreServedAndOtherPathsRefused() async throws {
        let server = try ServerProcess(["--demo", "small"])
        let plain = try await ProtocolClient.connect(server, subprotocol: nil)
        #expect(try await plain.hello().sectionCounts == [12, 12, 12])
        await #expect(throws: (any Error).self) {
            _ = try await WebSocketClient.connect(port: server.port, path: "/elsewhere", timeout: .seconds(3))
        }
    }

    @Test func staticFilesAndPathTraversal() throws {
        let server = try ServerProcess(["--demo", "small"])
        let index = try rawGET(port: server.port, path: "/")
        #expect(index.status == 200)
        #expect(index.headers.lowercased().contains("content-type: text/html"))
        #expect(index.body.contains("<template id=\"tpl-photo\">"))
        let js = try rawGET(port: server.port, path: "/js/app.js")
        #expect(js.status == 200 && js.headers.lowercased().contains("content-type: text/javascript"))
        let css = try rawGET(port: server.port, path: "/style.css")
        #expect(css.status == 200 && css.headers.lowercased().contains("content-type: text/css"))
        #expect(try rawGET(port: server.port, path: "/missing.html").status == 404)
        for path in ["/../Package.swift", "/%2e%2e/Package.swift", "/js/%2e%2e/%2e%2e/Package.swift",
                     "/..%2fPackage.swift", "/js/..%2f..%2fPackage.swift", "/%252e%252e/Package.swift", "/../../../../etc/passwd"] {
            let answer = try rawGET(port: server.port, path: path)
            #expect(answer.status == 403 || answer.status == 404, "\(path) → \(answer.status)")
            #expect(!answer.body.contains("PackageDescription") && !answer.body.contains("root:"), "\(path)")
        }
    }

    @Test func tlsServesHttpsAndWss() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.appendingPathComponent("key.pem").path,
                             "-out", dir.appendingPathComponent("cert.pem").path, "-days", "2", "-subj", "/CN=localhost",
                             "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        #expect(openssl.terminationStatus == 0)
        let cert = dir.appendingPathComponent("cert.pem").path
        let server = try ServerProcess(["--demo", "small", "--tls-cert", cert, "--tls-key", dir.appendingPathComponent("key.pem").path])
        #expect(server.scheme == "https")
        let a = try await ProtocolClient.connect(server, caFile: cert)
        let b = try await ProtocolClient.connect(server, caFile: cert)
        #expect(try await a.hello().sectionCounts == [12, 12, 12])
        _ = try await b.hello()
        a.send(#"{"type":"delete","op":"d1","items":["p1"]}"#)
        #expect(try await b.next("batch")["deletes"] as? [[Int]] == [[0, 0]])
        // Plain ws to the TLS port does not get a session.
        await #expect(throws: (any Error).self) {
            _ = try await WebSocketClient.connect(port: server.port, tls: false, timeout: .seconds(3))
        }
    }

    @Test func sigtermStopsTheServerCleanly() async throws {
        let server = try ServerProcess(["--demo", "small"])
        let a = try await ProtocolClient.connect(server)
        _ = try await a.hello()
        #expect(server.stop() == 0)
    }
}

/// `--host 127.0.0.1` must listen on 127.0.0.1 only: lws silently listens on every
/// interface while IPv6 is enabled, so the server turns IPv6 off for IPv4 hosts.
@Suite(.tags(.process)) struct ListeningAddressTests {
    @Test func ipv4HostListensOnThatAddressOnly() throws {
        let server = try ServerProcess(["--demo", "small"])
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ss.arguments = ["ss", "-ltnH"]
        let pipe = Pipe()
        ss.standardOutput = pipe
        try ss.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ss.waitUntilExit()
        let locals = output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 4, fields[3].hasSuffix(":\(server.port)") else { return nil }
            return String(fields[3])
        }
        #expect(locals == ["127.0.0.1:\(server.port)"], "\(output)")
    }
}
