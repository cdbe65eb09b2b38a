import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import StorefrontExample
import Testing

/// The settings sidebar: groups are sections headed by their first row; entries
/// open as outlines; choosing a switch or a choice moves checkmarks for everyone.
@Suite(.tags(.integration)) struct SettingsExampleTests {
    func accessories(_ viewer: TestViewer, _ item: String) -> String? {
        viewer.mirror.element(item: item).map { $0.content["accessories"] ?? "" }
    }

    @Test func choosingASettingChangesItForEveryViewer() async throws {
        let server = CollectionServer(configuration: .testing)
        try await SettingsExample.add(to: server)
        let port = try server.start()
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(width: 340, height: 900, wantOrder: true, collection: "settings")
        let ben = try await TestViewer.connect(port: port)
        try await ben.hello(width: 320, height: 900, wantOrder: true, collection: "settings")
        // Each group shows its header and its entries; the entries' rows are closed.
        #expect(ana.mirror.order == [["account", "profile", "password", "devices"], ["notifications", "email", "push"],
                                     ["appearance", "theme", "text"], ["privacy", "cookies", "export"]])
        #expect(ana.mirror.element(item: "notifications")?.content["listHeader"] == "true")
        #expect(ana.mirror.element(item: "notifications")?.content["listAppearance"] == "sidebar")
        #expect(accessories(ana, "email") == "outlineDisclosure:collapsed")
        // Ana opens E-mail: its switches show under it, for Ben too, the one that is on checked.
        var seq = ana.mirror.seq
        ana.send(#"{"type":"outline","item":"email","expanded":true}"#)
        try await ben.wait(forSeq: seq + 1)
        try await ana.wait(forSeq: seq + 1)
        #expect(ben.mirror.order?[1] == ["notifications", "email", "email-orders", "email-offers", "email-news", "push"])
        #expect(accessories(ben, "email") == "outlineDisclosure:expanded")
        #expect(accessories(ben, "email-orders") == "checkmark" && accessories(ben, "email-offers") == "")
        #expect(ben.mirror.element(item: "email-offers")?.content["indentationLevel"] == "2")
        // Ana chooses Offers: it switches on for Ben.
        seq = ana.mirror.seq
        ana.send(#"{"type":"select","item":"email-offers","selected":true}"#)
        try await ben.wait(forSeq: seq + 1)
        #expect(accessories(ben, "email-offers") == "checkmark" && accessories(ben, "email-orders") == "checkmark")
        // A theme is a choice: Ben picks Dark, Automatic loses its checkmark.
        ben.send(#"{"type":"outline","item":"theme","expanded":true}"#)
        try await ana.wait(forSeq: seq + 2)
        try await ben.wait(forSeq: seq + 2)
        #expect(accessories(ana, "theme-auto") == "checkmark" && accessories(ana, "theme-dark") == "")
        ben.send(#"{"type":"select","item":"theme-dark","selected":true}"#)
        try await ana.wait(forSeq: seq + 3)
        #expect(accessories(ana, "theme-dark") == "checkmark" && accessories(ana, "theme-auto") == "")
        // Choosing the checked one again changes nothing (Ana hears only the selection).
        ben.send(#"{"type":"select","item":"theme-dark","selected":false}"#)
        ben.send(#"{"type":"select","item":"theme-dark","selected":true}"#)
        _ = try await ana.next(where: { if case .selection(_, "theme-dark", true) = $0 { true } else { false } })
        try await Task.sleep(for: .milliseconds(300))
        #expect(ana.mirror.seq == seq + 3)
    }
}
