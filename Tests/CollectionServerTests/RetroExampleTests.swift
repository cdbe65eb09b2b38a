import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Foundation
import RetroExample
import Testing

/// The retro board, through the protocol as its page uses it: votes as actions
/// answered to the voter, guests refused with the reason, cards added and moved by
/// editors, three columns side by side on a wide screen and one on a phone, the
/// countdown pushed every second, and the board back from its own file after a
/// restart.
@Suite(.tags(.integration)) struct RetroExampleTests {
    struct Board {
        let server: CollectionServer
        let retro: RetroExample
        let port: Int
    }

    func board(file: URL? = nil) async throws -> Board {
        var configuration = CollectionServer.Configuration.testing
        configuration.tokens = try TokenSigner(secret: testSecret)
        let server = CollectionServer(configuration: configuration)
        let retro = try await RetroExample.add(to: server, file: file)
        return Board(server: server, retro: retro, port: try server.start())
    }

    /// The socket path of `user` signed in with `roles` (nil: a guest).
    func path(_ user: String?, roles: Set<String> = ["editor"]) throws -> String {
        guard let user else { return "/ws" }
        let token = try TokenSigner(secret: testSecret).token(for: Identity(id: user.lowercased(), name: user, roles: roles),
                                                              expiresAt: Date().addingTimeInterval(600))
        return "/ws?token=\(token)"
    }

    func viewer(_ board: Board, _ user: String?, roles: Set<String> = ["editor"], collection: String = "retro", width: Double = 1200) async throws -> TestViewer {
        let v = try await TestViewer.connect(port: board.port, path: try path(user, roles: roles))
        try await v.hello(width: width, height: 700, wantOrder: true, name: user == nil ? "Guest" : nil, collection: collection)
        return v
    }

    func answer(_ v: TestViewer, _ json: String) async throws -> ServerMessage.ActionResult {
        v.send(json)
        guard case .actionResult(let result) = try await v.next("actionResult") else { throw CocoaError(.featureUnsupported) }
        return result
    }

    @Test func votesAreActionsAnsweredToTheVoterWithinTheirBudget() async throws {
        let board = try await board()
        defer { board.server.stop() }
        let ana = try await viewer(board, "Ana")
        let guest = try await viewer(board, nil)
        // A guest is told why not.
        let refused = try await answer(guest, #"{"type":"action","op":"g1","name":"vote","item":"c2"}"#)
        #expect(refused.status == "refused" && refused.message?.hasPrefix("Sign in to vote") == true)
        // Ana's vote counts, reaches everyone, and is answered to her alone.
        let first = try await answer(ana, #"{"type":"action","op":"v1","name":"vote","item":"c2"}"#)
        #expect(first.status == "done" && first.value == ["votes": "1", "voted": "true"])
        _ = try await guest.next(where: { _ in guest.mirror.element(item: "c2")?.content["votes"] == "1" })
        #expect(guest.mirror.element(item: "c2")?.content["voteLabel"]?.contains("(1 vote)") == true)
        // Three votes each: a fourth is refused, saying so; taking one back frees it.
        _ = try await answer(ana, #"{"type":"action","op":"v2","name":"vote","item":"c3"}"#)
        _ = try await answer(ana, #"{"type":"action","op":"v3","name":"vote","item":"c1"}"#)
        let fourth = try await answer(ana, #"{"type":"action","op":"v4","name":"vote","item":"c1"}"#)
        #expect(fourth.status == "done" && fourth.value?["voted"] == "false", "a second vote on a card takes the first back")
        _ = try await ana.next(where: { _ in ana.mirror.element(item: "c1")?.content["votes"] == "1" })
        let added = try await answer(ana, #"{"type":"action","op":"a1","name":"add","payload":{"column":"actions","text":"Pair on reviews"}}"#)
        let id = try #require(added.value?["id"])
        _ = try await ana.next(where: { _ in ana.mirror.order?[2] == [id] })
        _ = try await answer(ana, #"{"type":"action","op":"v5","name":"vote","item":"\#(id)"}"#)
        // (At once: the budget is the app's decision, not the board's, which follows.)
        let over = try await answer(ana, #"{"type":"action","op":"v6","name":"vote","item":"c1"}"#)
        #expect(over.status == "refused" && over.message == "You have used your 3 votes: take one back first.")
        // The board follows: once Ana sees her vote on the new card, it holds her three.
        if ana.mirror.element(item: id)?.content["votes"] != "1" {
            _ = try await ana.next(where: { _ in ana.mirror.element(item: id)?.content["votes"] == "1" })
        }
        #expect(board.retro.dataSource.snapshot().itemIdentifiers.filter { $0.voters.contains("ana") }.count == 3)
    }

    @Test func onlyEditorsAddAndMoveAndTheColumnsSitSideBySideUnlessOnAPhone() async throws {
        let board = try await board()
        defer { board.server.stop() }
        let ana = try await viewer(board, "Ana")
        let vic = try await viewer(board, "Vic", roles: ["viewer"])
        let phone = try await viewer(board, "Pia", width: 390)
        // A viewer may vote but not add, nor move.
        let add = try await answer(vic, #"{"type":"action","op":"x1","name":"add","payload":{"column":"well","text":"Hello"}}"#)
        #expect(add.status == "refused" && add.message == "Only editors add cards; you may vote.")
        vic.send(#"{"type":"move","op":"m1","item":"c2","section":"Actions"}"#)
        guard case .reject(_, let code, _) = try await vic.next("reject") else { Issue.record("the move was not refused"); return }
        #expect(code == .notMovable || code == .forbidden)
        // An editor's move is taken.
        ana.send(#"{"type":"move","op":"m2","item":"c2","section":"Actions"}"#)
        try await ana.next("ack")
        #expect(board.retro.dataSource.snapshot().itemIdentifiers(inSection: .actions).map(\.id) == ["c2"])
        // Wide: three columns, each card at its column's x; a phone: one column.
        func x(_ v: TestViewer, _ item: String) -> Double? { v.mirror.element(item: item)?.frame[0] }
        _ = try await ana.next(where: { _ in x(ana, "c2") != nil })
        let wide = try #require([x(ana, "c1"), x(ana, "c3"), x(ana, "c2")] as? [Double])
        #expect(wide[0] < wide[1] && wide[1] < wide[2], "columns side by side: \(wide)")
        _ = try await phone.next(where: { _ in x(phone, "c2") != nil && x(phone, "c1") != nil })
        #expect(x(phone, "c1") == x(phone, "c2"))
        #expect(phone.mirror.element(item: "c2")!.frame[1] > phone.mirror.element(item: "c1")!.frame[1])
    }

    @Test func theCountdownIsPushedEverySecondToEveryoneAndEndsOver() async throws {
        let board = try await board()
        defer { board.server.stop() }
        let ana = try await viewer(board, "Ana", collection: "retro-timer")
        let vic = try await viewer(board, "Vic", roles: ["viewer"], collection: "retro-timer")
        #expect(vic.mirror.element(item: "timer")?.content == ["remaining": "5:00", "state": "stopped"])
        let refused = try await answer(vic, #"{"type":"action","op":"t0","name":"start","item":"timer"}"#)
        #expect(refused.status == "refused" && refused.message == "Only an editor runs the timer.")
        let started = try await answer(ana, #"{"type":"action","op":"t1","name":"start","item":"timer","payload":{"seconds":"3"}}"#)
        #expect(started.status == "done")
        // Vic sees it count down, second by second, to its end.
        var seen: [String] = []
        while vic.mirror.element(item: "timer")?.content["state"] != "over" {
            _ = try await vic.next("batch", timeout: .seconds(10))
            if let shown = vic.mirror.element(item: "timer")?.content["remaining"], seen.last != shown { seen.append(shown) }
        }
        // Each second on an idle machine: "0:03", "0:02", "0:01", "0:00". On a busy one the
        // first push may come a second late, or a tick be skipped: never a time going up,
        // never one past the start, and it ends at "0:00".
        #expect(seen.count >= 2 && seen.first! <= "0:03" && seen.last == "0:00", "\(seen)")
        #expect(seen == seen.sorted(by: >) && Set(seen).count == seen.count, "\(seen)")
        #expect(vic.mirror.element(item: "timer")?.content["state"] == "over")
    }

    @Test func theBoardComesBackFromItsOwnFileAfterARestartAndPagesResume() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("retro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("retro.json")
        var configuration = CollectionServer.Configuration.testing
        configuration.tokens = try TokenSigner(secret: testSecret)
        configuration.storage = .sqlite(directory: folder.path)
        let first = CollectionServer(configuration: configuration)
        let retro = try await RetroExample.add(to: first, file: file)
        let port = try first.start()
        let ana = try await viewer(Board(server: first, retro: retro, port: port), "Ana")
        let added = try await answer(ana, #"{"type":"action","op":"a1","name":"add","payload":{"column":"well","text":"Kept"}}"#)
        let id = try #require(added.value?["id"])
        _ = try await ana.next(where: { _ in ana.mirror.order?[0].contains(id) == true })
        _ = try await answer(ana, #"{"type":"action","op":"v1","name":"vote","item":"\#(id)"}"#)
        _ = try await ana.next(where: { _ in ana.mirror.element(item: id)?.content["votes"] == "1" })
        let (seq, epoch) = (ana.mirror.seq, ana.mirror.epoch)
        first.stop()
        // The file holds the board as the page last saw it.
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(((saved["columns"] as? [String: Any])?["well"] as? [[String: Any]])?.last?["text"] as? String == "Kept")
        // Started again on the same folder and file: the same board, and the page resumes.
        let second = CollectionServer(configuration: configuration)
        let again = try await RetroExample.add(to: second, file: file)
        let port2 = try second.start()
        defer { second.stop() }
        let kept = again.dataSource.snapshot().itemIdentifiers(inSection: .well).last
        #expect(kept?.text == "Kept" && kept?.voters == ["ana"])
        let back = try await TestViewer.connect(port: port2, path: try path("Ana"), mirror: ana.mirror)
        guard case .resume = try await back.hello(width: 1200, height: 700, wantOrder: true, lastSeq: seq, epoch: epoch, collection: "retro") else {
            Issue.record("the page did not resume")
            return
        }
        #expect(back.mirror.element(item: id)?.content["text"] == "Kept")
        // A new card gets a new number.
        let next = try await answer(back, #"{"type":"action","op":"a2","name":"add","payload":{"column":"well","text":"After"}}"#)
        #expect(next.status == "done" && next.value?["id"] != nil && next.value?["id"] != id)
    }
}
