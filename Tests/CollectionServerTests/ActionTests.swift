import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Synchronization
import Testing

/// App actions (`data-action` controls) and scrolling to an item.
@Suite(.tags(.integration)) struct ActionTests {
    @Test func anActionReachesTheAppWithItsViewerItemAndPayload() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        // Inside the callback the app may read its collection (the lock is its own).
        let seen = Mutex<[String]>([])
        h.delegate.onAction.withLock { $0 = { collection in seen.withLock { $0.append(collection.model.snapshot.itemIdentifiers.joined()) } } }
        ben.send(#"{"type":"action","name":"vote","item":"c","payload":{"value":"3","kind":"stars"}}"#)
        ana.send(#"{"type":"action","name":"refresh","item":null}"#)
        try await Task.sleep(for: .milliseconds(200))
        let actions = h.delegate.actions
        #expect(actions.count == 2)
        let vote = try #require(actions.first { $0.name == "vote" })
        #expect(vote.viewer == "Ben" && vote.indexPath == IndexPath(item: 2, section: 0) && vote.payload == ["value": "3", "kind": "stars"])
        let refresh = try #require(actions.first { $0.name == "refresh" })
        #expect(refresh.viewer == "Ana" && refresh.indexPath == nil && refresh.payload.isEmpty)
        #expect(seen.withLock { $0 } == ["abcdef", "abcdef"])
    }

    @Test func badActionsAreRefusedAndReachNobody() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        let ana = try await h.viewer("Ana")
        ana.send(#"{"type":"action","name":"vote","item":"zz"}"#)
        guard case .error(let code, _, _) = try await ana.next("error") else { Issue.record("no error"); return }
        #expect(code == .unknownItem)
        let big = String(repeating: "x", count: 1_025)
        ana.send(#"{"type":"action","name":"vote","item":"a","payload":{"value":"\#(big)"}}"#)
        guard case .error(let tooBig, _, _) = try await ana.next("error") else { Issue.record("no error"); return }
        #expect(tooBig == .badMessage)
        ana.send(#"{"type":"action","name":"vote","payload":{"n":3}}"#)
        try await ana.next("error")
        #expect(h.delegate.actions.isEmpty)
        // Without a delegate, a collection takes no actions.
        h.collection.delegate = nil
        ana.send(#"{"type":"action","name":"vote","item":"a"}"#)
        guard case .error(let refused, _, _) = try await ana.next("error") else { Issue.record("no error"); return }
        #expect(refused == .refused)
    }

    /// A delegate that answers: votes are counted and the count sent back, a vote on
    /// "f" is refused (voting on it closed), "crash" fails.
    final class Voting: LiveCollectionDelegate {
        let votes = Mutex<[String: Int]>([:])
        func collectionView(_ collectionView: LiveCollection, resultOfAction action: String, forItemAt indexPath: IndexPath?,
                            payload: [String: String], by viewer: Viewer) -> ActionResult {
            switch action {
            case "vote" where indexPath?.item == 5: return .refused("voting on this card has closed")
            case "vote":
                let key = "\(indexPath?.item ?? -1)"
                let count = votes.withLock { $0[key, default: 0] += 1; return $0[key]! }
                return .done(value: ["votes": "\(count)"])
            case "crash": return .failed("the vote could not be kept")
            default: return .done()
            }
        }
    }

    @Test func anActionIsAnsweredToItsViewerAlone() async throws {
        let h = try LibraryHarness()
        try await h.fill()
        h.collection.delegate = Voting()
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        ana.send(#"{"type":"action","op":"a1","name":"vote","item":"c"}"#)
        guard case .actionResult(let done) = try await ana.next("actionResult") else { Issue.record("no answer"); return }
        #expect(done == ServerMessage.ActionResult(op: "a1", name: "vote", item: "c", status: "done", value: ["votes": "1"]))
        ana.send(#"{"type":"action","op":"a2","name":"vote","item":"f"}"#)
        guard case .actionResult(let refused) = try await ana.next("actionResult") else { Issue.record("no answer"); return }
        #expect(refused.op == "a2" && refused.status == "refused" && refused.message == "voting on this card has closed")
        ana.send(#"{"type":"action","op":"a3","name":"crash"}"#)
        guard case .actionResult(let failed) = try await ana.next("actionResult") else { Issue.record("no answer"); return }
        #expect(failed.status == "failed" && failed.item == nil && failed.message == "the vote could not be kept")
        // Refused before the app sees it: by op, as an edit is.
        ana.send(#"{"type":"action","op":"a4","name":"vote","item":"zz"}"#)
        #expect(try await ana.next("reject") == .reject(op: "a4", code: .unknownItem, message: "no item with id 'zz'"))
        // Ben heard none of it.
        #expect(await ben.staysQuiet())
    }

    @Test func scrollToItemAnswersWithTheWindowThere() async throws {
        let h = try LibraryHarness()
        try await h.fill((0..<400).map { "n\($0)" })
        let ana = try await TestViewer.connect(port: h.port)
        try await ana.hello(width: 330, height: 300, collection: "t")   // 3 columns of 100 × 50, rows 60 apart
        #expect(ana.mirror.element(item: "n300") == nil)
        ana.send(#"{"type":"scrollToItem","item":"n300","position":"top"}"#)
        guard case .window(let w) = try await ana.next("window") else { Issue.record("no window"); return }
        #expect(w.offset == Point(x: 0, y: 100 * 60))
        #expect(ana.mirror.element(item: "n300")?.frame == [0, 6_000, 100, 50])
        // Nearest: an item in view does not scroll.
        ana.send(#"{"type":"scrollToItem","item":"n301"}"#)
        guard case .window(let same) = try await ana.next("window") else { Issue.record("no window"); return }
        #expect(same.offset == Point(x: 0, y: 6_000))
        ana.send(#"{"type":"scrollToItem","item":"n3","position":"middle"}"#)
        try await ana.next("error")
    }
}
