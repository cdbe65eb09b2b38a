import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

@Suite struct EditingAndRangeTests {
    @Test func editingModeIsPerViewer() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        #expect(hub.inspect.viewStateCount == 1)
        let on = hub.send(#"{"type":"editing","on":true}"#, from: 1)
        #expect(messages(on, to: 1) == [.editing(on: true)])
        #expect(messages(on, to: 2).isEmpty)
        // Editing is this viewer's own state: it no longer shares viewer 2's view state.
        #expect(hub.inspect.viewStateCount == 2)
        // While editing, clicks toggle: two items selected.
        _ = hub.send(#"{"type":"select","item":"a0","selected":true}"#, from: 1)
        _ = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 1)
        #expect(hub.inspect.selection(of: 1) == ["a0", "a1"])
        let off = hub.send(#"{"type":"editing","on":false}"#, from: 1)
        #expect(messages(off, to: 1) == [.editing(on: false)])
        #expect(hub.inspect.selection(of: 1) == ["a0", "a1"])
        #expect(errorCode(hub.send(#"{"type":"editing"}"#, from: 1)) == .badMessage)
    }

    @Test func aRangeSelectsAcrossSectionsInOneMessage() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        _ = hub.send(#"{"type":"select","item":"b20","selected":true}"#, from: 1)
        // From a28 (far below the window) to b2, replacing the selection.
        let out = hub.send(#"{"type":"selectRange","from":"b2","to":"a28","replace":true}"#, from: 1)
        let expected = ["a28", "a29", "b0", "b1", "b2"]
        #expect(hub.inspect.selection(of: 1) == Set(expected))
        #expect(messages(out, to: 2) == [.selections(viewer: "v1", items: ["b20"], selected: false),
                                         .selections(viewer: "v1", items: expected, selected: true)])
        // Deselecting part of it.
        let less = hub.send(#"{"type":"selectRange","from":"a29","to":"b0","selected":false}"#, from: 1)
        #expect(messages(less, to: 2) == [.selections(viewer: "v1", items: ["a29", "b0"], selected: false)])
        #expect(hub.inspect.selection(of: 1) == ["a28", "b1", "b2"])
        // The same range again changes nothing and says nothing.
        #expect(hub.send(#"{"type":"selectRange","from":"a29","to":"b0","selected":false}"#, from: 1).isEmpty)
    }

    @Test func tooLongARangeIsRefused() throws {
        var limits = HubLimits()
        limits.maxRangeSelection = 10
        let hub = makeHub()
        hub.limits = limits
        _ = hub.hello(1)
        let out = hub.send(#"{"type":"selectRange","from":"a0","to":"a10"}"#, from: 1)
        guard case .error(let code, let message, _)? = messages(out, to: 1).first else { Issue.record("expected error"); return }
        #expect(code == .refused && message.contains("at most 10"))
        #expect(hub.inspect.selection(of: 1).isEmpty)
        #expect(errorCode(hub.send(#"{"type":"selectRange","from":"a0","to":"zz"}"#, from: 1)) == .unknownItem)
        // Ten is fine.
        _ = hub.send(#"{"type":"selectRange","from":"a0","to":"a9"}"#, from: 1)
        #expect(hub.inspect.selection(of: 1).count == 10)
    }

    private func errorCode(_ out: [Outgoing]) -> ErrorCode? {
        for o in out { if case .error(let code, _, _) = o.message { return code } }
        return nil
    }
}
