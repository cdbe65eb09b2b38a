import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import StorefrontExample
import Testing

/// Measured sizes outlive a layout made anew for a viewport of the same width: the
/// page, seeing the same widths, does not measure again.
@Suite(.tags(.integration)) struct MeasuredSizesTests {
    @Test func aTallerOrShorterViewportKeepsTheMeasuredRows() async throws {
        let server = CollectionServer(configuration: .testing)
        try await StorefrontExample.add(to: server)
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        // The basket's rows (inset 20 each side of 945) are in the window from the start, estimated 44 high.
        try await v.hello(width: 945, height: 689, collection: "store")
        #expect(v.mirror.element(item: "b1")?.frame == [20, 1274, 905, 44])
        v.send(#"{"type":"measure","sizes":[{"item":"b1","width":905,"height":60},{"item":"b2","width":905,"height":60}]}"#)
        try await v.next("window")
        #expect(v.mirror.element(item: "b1")?.frame == [20, 1274, 905, 60] && v.mirror.element(item: "b2")?.frame == [20, 1334, 905, 60])
        // The page's toolbar wraps: the viewport is 7 points shorter, the layout is made again.
        v.send(#"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":945,"height":682}}"#)
        try await v.next("window")
        #expect(v.mirror.element(item: "b1")?.frame == [20, 1274, 905, 60] && v.mirror.element(item: "b2")?.frame == [20, 1334, 905, 60])
        // Another width: the rows are estimated again, for the page to measure.
        v.send(#"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":700,"height":682}}"#)
        try await v.next("window")
        #expect(v.mirror.element(item: "b1")?.frame.last == 44)
    }
}
