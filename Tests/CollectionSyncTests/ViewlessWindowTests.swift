import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// A grid whose cells grow in from half size and leave shrinking and half faded: its
/// batches carry poses, made from the attributes of the cells that came and went.
final class ShrinkingGridLayout: CollectionViewFlowLayout, @unchecked Sendable {
    override func initialLayoutAttributesForAppearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        var a = super.initialLayoutAttributesForAppearingItem(at: itemIndexPath)
        a?.transform = CGAffineTransform(scaleX: 0.5, y: 0.5)
        return a
    }
    override func finalLayoutAttributesForDisappearingItem(at itemIndexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        var a = super.finalLayoutAttributesForDisappearingItem(at: itemIndexPath)
        a?.transform = CGAffineTransform(scaleX: 0.25, y: 0.25)
        a?.alpha = 0.5
        return a
    }
}

/// ``GridOrList`` whose grid is a ``ShrinkingGridLayout``.
struct ShrinkingGridOrList: LayoutPolicy {
    var layoutNames: [String] { GridOrList().layoutNames }
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) { GridOrList().configure(layout, for: size) }
    func configure(_ layout: CollectionViewFlowLayout, for size: Size, named name: String) { GridOrList().configure(layout, for: size, named: name) }
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? {
        guard environment.mode == "grid" else { return nil }
        let grid = ShrinkingGridLayout()
        configure(grid, for: environment.container)
        return grid
    }
}

/// Viewers with no state of their own keep no views: their windows are read from
/// their layouts. The messages must be exactly those of a hub where every viewer's
/// collection view keeps views, as UIKit's does.
@Suite struct ViewlessWindowTests {
    func makePair(sharing: Bool, policy: any LayoutPolicy = GridOrList()) -> (viewless: CollectionHub, views: CollectionHub) {
        let sections = [(id: "a", count: 30), (id: "b", count: 30), (id: "c", count: 4)]
        func make(_ keepsViews: Bool) -> CollectionHub {
            sessionHub(sections, policy: policy) {
                $0.keepsViewsForEveryViewer = keepsViews
                $0.sharesViewStates = sharing
            }
        }
        return (make(false), make(true))
    }

    @Test func plainViewersKeepNoViewsUntilTheyHoldStateOfTheirOwn() throws {
        let (hub, views) = makePair(sharing: false)
        for key in UInt64(1)...3 {
            _ = hub.hello(key, width: 300 + Int(key) * 10)
            _ = views.hello(key, width: 300 + Int(key) * 10)
        }
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        _ = views.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.inspect.footprint.views == 0)
        #expect(views.inspect.footprint.views > 0)
        #expect(hub.inspect.footprint.windowElements == views.inspect.footprint.windowElements)
        // A selection is the viewer's own: its collection view keeps views again.
        _ = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 2)
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.inspect.footprint.views > 0)
        _ = hub.send(#"{"type":"select","item":"a1","selected":false}"#, from: 2)
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.inspect.footprint.views == 0)
    }

    /// An app that changes the header template while viewers watch: headers shown
    /// keep theirs, as header views already displayed do; a header that comes into
    /// a window after takes the new one. The same bytes with views and without.
    @Test func aNewHeaderTemplateReachesHeadersAsTheyComeIn() throws {
        let (hub, views) = makePair(sharing: false)
        var sent: [[[UInt8]]] = [[], []]
        for (k, h) in [hub, views].enumerated() {
            for key in UInt64(1)...3 { _ = h.hello(key, width: 300 + Int(key) * 10) }
            var model = h.model
            model.headerReuseIdentifier = "fancy-header"
            sent[k] += try h.apply(model).map(\.bytes)
            sent[k] += h.send(#"{"type":"shuffle","section":"a"}"#, from: 1).map(\.bytes)
            // Down past section a's header to section b's, and back up to a's.
            for y in [1_500, 3_000, 0] {
                for key in UInt64(1)...3 { sent[k] += h.send(#"{"type":"scroll","offset":{"x":0,"y":\#(y)}}"#, from: key).map(\.bytes) }
            }
        }
        let text = sent[0].map { String(decoding: $0, as: UTF8.self) }, withViews = sent[1].map { String(decoding: $0, as: UTF8.self) }
        let first = text.indices.first { $0 >= withViews.count || text[$0] != withViews[$0] }
        #expect(text.count == withViews.count && first == nil, "message \(first ?? -1) without views: \(first.map { text[$0] } ?? "")\nwith: \(first.map { withViews[$0] } ?? "")")
        // Shown before the change, a's header kept the old template; b's, and a's when it came back, the new.
        #expect(text.contains { $0.contains(#""key":"h:b","kind":"header","reuse":"fancy-header""#) })
        #expect(text.contains { $0.contains(#""key":"h:a","kind":"header","reuse":"fancy-header""#) })
        #expect(hub.inspect.footprint.views == 0)
    }

    /// A random session (``expectSameSession``: the list layout keeps views, the grid
    /// none) sent to two hubs: every message to every viewer is the same, byte for
    /// byte, with and without views; with a grid that animates, its poses too.
    @Test(arguments: [(UInt64(1), true), (2, false), (3, true), (4, false)])
    func viewsChangeNoMessage(seed: UInt64, sharing: Bool) throws {
        for policy: any LayoutPolicy in [GridOrList(), ShrinkingGridOrList()] {
            let (viewless, views) = makePair(sharing: sharing, policy: policy)
            var withoutViews = 0
            expectSameSession(viewless, views, seed: seed, viewers: 8, widths: { 300 + Int($0) * 7 }, offsets: [0, 90, 180, 270, 360, 450]) {
                if viewless.inspect.footprint.views < views.inspect.footprint.views { withoutViews += 1 }
            }
            #expect(withoutViews > 0)
        }
    }
}
