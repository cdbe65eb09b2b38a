import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import PhotoLibraryExample
import Synchronization
import Testing
import TicketBoardExample

/// The ticket board (Examples/TicketBoard) and the layout provider, through the protocol.
@Suite(.tags(.integration)) struct ExampleAppTests {
    /// A server with only the ticket board.
    static func ticketServer() async throws -> (CollectionServer, TicketBoardExample, Int) {
        let server = CollectionServer(configuration: .testing)
        let board = try await TicketBoardExample.add(to: server)
        return (server, board, try server.start())
    }

    static func viewer(_ name: String, port: Int, width: Double = 800) async throws -> TestViewer {
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: width, height: 2000, wantOrder: true, name: name, collection: "tickets")
        return v
    }

    @Test func onlyATicketsOwnerMovesIt() async throws {
        let (server, board, port) = try await Self.ticketServer()
        defer { server.stop() }
        let ana = try await Self.viewer("Ana", port: port)
        let ben = try await Self.viewer("Ben", port: port)
        let wire = ana.mirror.order ?? []
        // Ticket 1 is Ana's: Ben may not move it, Ana may.
        #expect(wire.first?.first == "1")
        ben.send(#"{"type":"move","op":"b","item":"1","section":"Doing","after":null}"#)
        guard case .reject(_, let code, _) = try await ben.next("reject") else { Issue.record("no reject"); return }
        #expect(code == .notMovable)
        ana.send(#"{"type":"move","op":"a","item":"1","section":"Doing"}"#)
        try await ana.next("ack")
        try await ben.wait(forSeq: 2)
        #expect(board.dataSource.snapshot().itemIdentifiers(inSection: .doing).map(\.id) == [1, 3, 4])
        // Viewers may not insert into the app's collection.
        ana.send(#"{"type":"insert","op":"i","section":"To do","count":1}"#)
        guard case .reject(_, let refused, _) = try await ana.next("reject") else { Issue.record("no reject"); return }
        #expect(refused == .refused)
    }

    /// A drop into another collection cannot do what a move could not: Ben's ticket
    /// dropped into the photos by Ana (who may edit the photos) stays on the board.
    @Test func aTicketLeavesTheBoardByADropOnlyWhenItsOwnerMovesIt() async throws {
        let server = CollectionServer(configuration: .testing)
        let board = try await TicketBoardExample.add(to: server)
        PhotoLibraryExample.add(to: server, size: "small")
        let port = try server.start()
        defer { server.stop() }
        let owners = Dictionary(uniqueKeysWithValues: board.dataSource.snapshot().itemIdentifiers.map { ("\($0.id)", $0.owner) })
        let (bens, anas) = try (#require(owners.first { $0.value == "Ben" }?.key), #require(owners.first { $0.value == "Ana" }?.key))
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true, name: "Ana", collection: "photos")
        ana.send(#"{"type":"dropUpdate","x":20,"y":20,"source":{"collection":"tickets","item":"\#(bens)"}}"#)
        guard case .dropProposal(let hover) = try await ana.next("dropProposal") else { return }
        #expect(hover.operation == "forbidden")
        ana.send(#"{"type":"drop","op":"d1","x":20,"y":20,"source":{"collection":"tickets","item":"\#(bens)"}}"#)
        guard case .reject(_, let code, let message) = try await ana.next("reject") else { Issue.record("the drop was not refused"); return }
        #expect(code == .dropForbidden && message.contains("cannot be moved"), "\(message)")
        #expect(board.dataSource.snapshot().itemIdentifiers.contains { "\($0.id)" == bens })
        // Her own ticket goes.
        ana.send(#"{"type":"drop","op":"d2","x":20,"y":20,"source":{"collection":"tickets","item":"\#(anas)"}}"#)
        _ = try await ana.next("ack")
        #expect(!board.dataSource.snapshot().itemIdentifiers.contains { "\($0.id)" == anas })
    }

    @Test func ticketsAreAsTallAsTheirTitles() async throws {
        let (server, _, port) = try await Self.ticketServer()
        defer { server.stop() }
        let ana = try await Self.viewer("Ana", port: port, width: 400)
        // At 400 points: ticket 1's short title takes one line, ticket 2's long one two.
        let short = try #require(ana.mirror.element(item: "1"))
        let long = try #require(ana.mirror.element(item: "2"))
        #expect(short.frame[3] == 64)
        #expect(long.frame[3] == 44 + 20 * 2)   // 88 characters, 48 a line at 384 points
        #expect(long.frame[1] == short.frame[1] + 64 + 8)
    }

    @Test func aBackgroundTaskAddsTicketsThatEveryViewerSees() async throws {
        let (server, board, port) = try await Self.ticketServer()
        defer { server.stop() }
        let ana = try await Self.viewer("Ana", port: port)
        let ben = try await Self.viewer("Ben", port: port)
        board.startAddingTickets(every: 0.05)
        try await ana.wait(forSeq: 3)
        board.stopAddingTickets()
        try await Task.sleep(for: .milliseconds(100))
        let last = board.collection.sequence
        try await ben.wait(forSeq: last)
        try await ana.wait(forSeq: last)
        // Newest first at the top of "To do", every one numbered in turn.
        let added = (6..<(6 + last - 1)).reversed().map(String.init)
        #expect(ana.mirror.order?.first == added + ["1", "2"])
        #expect(ben.mirror.order == ana.mirror.order)
        #expect(ben.mirror.element(item: "6")?.content["number"] == "#6")
        let batches = ben.received.compactMap { m -> ServerMessage.Batch? in if case .batch(let b) = m { b } else { nil } }
        #expect(batches.map(\.seq) == Array(2...last))
        #expect(batches.allSatisfy { $0.by == "server" })
    }

    @Test func eachViewerGetsTheLayoutOfItsEnvironment() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "grid")
        let seen = EnvironmentLog()
        collection.setLayoutProvider(modes: ["cards", "rows"]) { environment in
            seen.add(environment)
            let layout = CollectionViewFlowLayout()
            let columns = environment.horizontalSizeClass == .compact ? 1.0 : 3.0
            let height = environment.mode == "rows" ? 30.0 : 80.0
            layout.itemSize = CGSize(width: (environment.container.width - 10 * (columns - 1)) / columns, height: height)
            return layout
        }
        var model = CollectionModel()
        model.snapshot.appendSections(["s"])
        model.snapshot.appendItems(["a", "b", "c"], toSection: "s")
        for id in ["a", "b", "c"] { model.itemContent[id] = ["title": id] }
        collection.load(model)
        let port = try server.start()
        defer { server.stop() }
        let phone = try await TestViewer.connect(port: port)
        try await phone.hello(width: 390, height: 800)
        let desk = try await TestViewer.connect(port: port)
        try await desk.hello(width: 1200, height: 800)
        #expect(phone.mirror.element(item: "b")?.frame == [0, 90, 390, 80])
        // Regular: three columns, "b" beside "a" in the first row.
        let b = try #require(desk.mirror.element(item: "b"))
        #expect(b.frame[1] == 0 && b.frame[3] == 80)
        #expect(abs(b.frame[2] - 1180.0 / 3) < 0.01)
        #expect(seen.all.contains(LayoutEnvironment(container: Size(width: 390, height: 800), mode: "cards")))
        #expect(seen.all.first { $0.container.width == 1200 }?.horizontalSizeClass == .regular)
        // The mode switch reaches every viewer, each in its own environment.
        phone.send(#"{"type":"layout","name":"rows"}"#)
        try await desk.next("layout")
        try await phone.next("layout")
        #expect(phone.mirror.element(item: "b")?.frame[3] == 30)
        #expect(desk.mirror.element(item: "b")?.frame[3] == 30)
    }

    @Test func theAppNamesViewers() async throws {
        let h = try LibraryHarness()
        h.collection.setViewerIdentity { proposed in
            Viewer(id: "ignored", name: proposed.name == "Ana" ? "Ana (owner)" : proposed.name, color: proposed.name == "Ana" ? "#112233" : "url(x)")
        }
        let ana = try await h.viewer("Ana")
        let ben = try await h.viewer("Ben")
        #expect(ana.mirror.viewer?.name == "Ana (owner)")
        #expect(ana.mirror.viewer?.color == "#112233")
        #expect(ana.mirror.viewer?.id.hasPrefix("v") == true)
        // A colour that is not a plain CSS colour is not taken.
        #expect(ben.mirror.viewer?.color.hasPrefix("#") == true)
        #expect(h.collection.viewers.map(\.name) == ["Ana (owner)", "Ben"])
    }
}

/// Environments the provider was called with.
final class EnvironmentLog: Sendable {
    private let log = Mutex<[LayoutEnvironment]>([])
    func add(_ e: LayoutEnvironment) { log.withLock { $0.append(e) } }
    var all: [LayoutEnvironment] { log.withLock { $0 } }
}

/// A layout of the app's own: items down a diagonal, 50 × 50, 60 apart each way.
final class DiagonalLayout: CollectionViewLayout {
    private var frames: [IndexPath: CGRect] = [:]

    override func prepare() {
        frames = [:]
        guard let cv = collectionView else { return }
        var n = 0
        for s in 0..<cv.numberOfSections {
            for i in 0..<cv.numberOfItems(inSection: s) {
                frames[IndexPath(item: i, section: s)] = CGRect(x: CGFloat(n * 60), y: CGFloat(n * 60), width: 50, height: 50)
                n += 1
            }
        }
    }
    override var collectionViewContentSize: CGSize {
        let n = CGFloat(frames.count)
        return CGSize(width: n * 60, height: n * 60)
    }
    override func layoutAttributesForElements(in rect: CGRect) -> [CollectionViewLayoutAttributes]? {
        frames.filter { $0.value.intersects(rect) }.map { layoutAttributesForItem(at: $0.key)! }
    }
    override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard let frame = frames[indexPath] else { return nil }
        var a = CollectionViewLayoutAttributes(forCellWith: indexPath)
        a.frame = frame
        return a
    }
}

@Suite(.tags(.integration)) struct CustomLayoutTests {
    @Test func aLayoutSubclassOfTheAppsOwnPlacesTheCells() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "d")
        collection.setLayoutProvider { _ in DiagonalLayout() }
        collection.load(DragDropDelegateTests.model(["a", "b", "c"]))
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: 400, height: 400)
        #expect(v.mirror.element(item: "c")?.frame == [120, 120, 50, 50])
        #expect(v.mirror.contentSize == Size(width: 180, height: 180))
    }
}

@Suite(.tags(.integration)) struct CompositionalLayoutEndToEndTests {
    @Test func aCompositionalLayoutReachesTheViewerWithItsHeaders() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "c")
        collection.setLayoutProvider { _ in
            CollectionViewCompositionalLayout { _, environment in
                // Two columns of square cells under a 30-point header.
                let columns = environment.traitCollection.horizontalSizeClass == .compact ? 2 : 4
                let item = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1 / CGFloat(columns)), heightDimension: .fractionalHeight(1)))
                let side = environment.container.effectiveContentSize.width / CGFloat(columns)
                let group = NSCollectionLayoutGroup.horizontal(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(side)), subitems: [item])
                let section = NSCollectionLayoutSection(group: group)
                section.boundarySupplementaryItems = [NSCollectionLayoutBoundarySupplementaryItem(
                    layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(30)),
                    elementKind: CollectionView.elementKindSectionHeader, alignment: .top)]
                return section
            }
        }
        collection.load(DragDropDelegateTests.model(["a", "b", "c"]))
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: 400, height: 600)
        #expect(v.mirror.element(item: "a")?.frame == [0, 30, 200, 200])
        #expect(v.mirror.element(item: "c")?.frame == [0, 230, 200, 200])
        #expect(v.mirror.elements.values.contains { $0.kind == "header" && $0.frame == [0, 0, 400, 30] })
        #expect(v.mirror.contentSize == Size(width: 400, height: 430))
    }
}

@Suite(.tags(.integration)) struct SupplementaryAndDecorationElementTests {
    @Test func footersBadgesAndBackgroundsReachTheViewer() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "c")
        collection.setLayoutProvider { _ in
            let layout = CollectionViewCompositionalLayout { _, _ in
                let badge = NSCollectionLayoutSupplementaryItem(
                    layoutSize: NSCollectionLayoutSize(widthDimension: .absolute(20), heightDimension: .absolute(20)), elementKind: "badge",
                    containerAnchor: NSCollectionLayoutAnchor(edges: [.top, .trailing]))
                let item = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.5), heightDimension: .fractionalHeight(1)),
                                                  supplementaryItems: [badge])
                let section = NSCollectionLayoutSection(group: .horizontal(
                    layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(100)), subitems: [item]))
                section.contentInsets = NSDirectionalEdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10)
                section.boundarySupplementaryItems = [NSCollectionLayoutBoundarySupplementaryItem(
                    layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(24)),
                    elementKind: CollectionView.elementKindSectionFooter, alignment: .bottom)]
                section.decorationItems = [.background(elementKind: "card")]
                return section
            }
            layout.register(CollectionReusableView.self, forDecorationViewOfKind: "card")
            return layout
        }
        collection.load(DragDropDelegateTests.model(["a", "b", "c"]))
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: 400, height: 600)
        let elements = v.mirror.elements
        // Items 190 wide from x 10; a badge on each item's top-trailing corner.
        #expect(v.mirror.element(item: "b")?.frame == [200, 10, 190, 100])
        let badge = try #require(elements["s:badge:b"])
        #expect(badge.kind == "supplementary" && badge.reuse == "badge" && badge.frame == [370, 10, 20, 20] && badge.item == 1)
        #expect(badge.content["title"] == "b")
        // The footer under the two rows and the bottom inset; the background behind it all.
        let section = try #require(v.mirror.sections.first?.id)
        let footer = try #require(elements["s:\(CollectionView.elementKindSectionFooter):\(section)"])
        #expect(footer.frame == [10, 220, 380, 24] && footer.item == nil && footer.content["count"] == "3")
        let background = try #require(elements["d:card:\(section)"])
        #expect(background.kind == "decoration" && background.reuse == "card" && background.frame == [0, 0, 400, 244] && background.zIndex == -1)

        // A batch moves the badges with their items: after a delete, b's badge is item 0's.
        _ = try await collection.update { model in
            model.snapshot.deleteItems(["a"])
            model.itemContent["a"] = nil
            return []
        }
        try await v.wait(forSeq: 1)
        #expect(v.mirror.elements["s:badge:b"]?.frame == [180, 10, 20, 20])
        #expect(v.mirror.elements["s:badge:a"] == nil)
        #expect(v.mirror.elements["s:badge:c"]?.frame == [370, 10, 20, 20])
    }
}
