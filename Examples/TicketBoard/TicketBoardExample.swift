import CollectionServer
import Synchronization

/// The ticket board, written as a newcomer would on `CollectionServer`: its items
/// come from an array of ``Ticket`` structs, a background task adds a ticket every
/// few seconds, each ticket's height follows its title (a flow-layout delegate),
/// and only a ticket's owner may move it (a delegate rule, by viewer).
public final class TicketBoardExample: Sendable {
    /// The "tickets" collection.
    public let collection: LiveCollection
    /// Its data source, over the tickets.
    public let dataSource: LiveDiffableDataSource<Ticket.Status, Ticket>
    private let rules: TicketRules
    private let nextId: Mutex<Int>
    private let adder = Mutex<Task<Void, Never>?>(nil)
    private static let owners = ["Ana", "Ben", "Chloé"]

    /// Adds the "tickets" collection to `server`, filled with `tickets`.
    @discardableResult
    public static func add(to server: CollectionServer, tickets: [Ticket] = Ticket.samples) async throws(ProtocolError) -> TicketBoardExample {
        let board = TicketBoardExample(collection: server.addCollection(named: "tickets"), tickets: tickets)
        var snapshot = NSDiffableDataSourceSnapshot<Ticket.Status, Ticket>()
        snapshot.appendSections(Ticket.Status.allCases)
        for status in Ticket.Status.allCases { snapshot.appendItems(tickets.filter { $0.status == status }, toSection: status) }
        try await board.dataSource.apply(snapshot)
        return board
    }

    private init(collection: LiveCollection, tickets: [Ticket]) {
        self.collection = collection
        nextId = Mutex((tickets.map(\.id).max() ?? 0) + 1)
        let cells = CellRegistration<Ticket>(template: "ticket") { ticket in
            TicketCell(title: ticket.title, owner: ticket.owner, number: "#\(ticket.id)")
        }
        dataSource = LiveDiffableDataSource(collection: collection, cellRegistration: cells) { status in ["title": status.rawValue] }
        rules = TicketRules(dataSource: dataSource)
        collection.delegate = rules
        collection.setLayoutProvider(modes: ["board"]) { environment in
            let layout = CollectionViewFlowLayout()
            let inset = environment.horizontalSizeClass == .compact ? 8.0 : 24.0
            layout.itemSize = CGSize(width: max(1, environment.container.width - 2 * inset), height: 64)
            layout.minimumLineSpacing = 8
            layout.sectionInset = EdgeInsets(top: 4, left: inset, bottom: 20, right: inset)
            layout.headerReferenceSize = CGSize(width: 0, height: 40)
            return layout
        }
    }

    /// Adds one ticket at the top of "To do"; returns its batch's sequence number.
    @discardableResult
    public func addTicket(title: String? = nil) async throws(ProtocolError) -> Int {
        let id = nextId.withLock { n in
            defer { n += 1 }
            return n
        }
        let ticket = Ticket(id: id, title: title ?? "Ticket \(id)", owner: Self.owners[id % Self.owners.count])
        var snapshot = dataSource.snapshot()
        if let first = snapshot.itemIdentifiers(inSection: .todo).first {
            snapshot.insertItems([ticket], beforeItem: first)
        } else {
            snapshot.appendItems([ticket], toSection: .todo)
        }
        return try await dataSource.apply(snapshot)
    }

    /// Starts a background task that adds a ticket every `seconds` (one task; a
    /// second call replaces the first). The board stops growing at 200 tickets.
    public func startAddingTickets(every seconds: Double) {
        let task = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
                if Task.isCancelled || dataSource.snapshot().numberOfItems >= 200 { continue }
                _ = try? await addTicket()
            }
        }
        adder.withLock { old in
            old?.cancel()
            old = task
        }
    }

    /// Stops adding tickets.
    public func stopAddingTickets() { adder.withLock { $0?.cancel() } }
}

/// The board's rules: a ticket moves only for its owner; a ticket is as tall as
/// its title needs (a line per 8 points of width); the → button ("advance")
/// moves a ticket to the next column, for anyone.
final class TicketRules: LiveCollectionDelegateFlowLayout {
    let dataSource: LiveDiffableDataSource<Ticket.Status, Ticket>

    init(dataSource: LiveDiffableDataSource<Ticket.Status, Ticket>) { self.dataSource = dataSource }

    func collectionView(_ collectionView: LiveCollection, resultOfAction action: String, forItemAt indexPath: IndexPath?,
                        payload: [String: String], by viewer: Viewer) -> ActionResult {
        guard action == "advance", let indexPath, let ticket = dataSource.itemIdentifier(for: indexPath) else { return .refused("nothing to do") }
        guard let status = dataSource.snapshot().sectionIdentifier(containingItem: ticket),
              let next = Ticket.Status.allCases.drop(while: { $0 != status }).dropFirst().first else {
            return .refused("“\(ticket.title)” is done already")
        }
        // Callbacks run while the collection is locked: the change goes in a task of
        // its own, made on the board as it is then.
        let dataSource = self.dataSource
        Task {
            _ = try? await dataSource.update { snapshot in
                guard snapshot.sectionIdentifier(containingItem: ticket) == status else { return }
                snapshot.deleteItems([ticket])
                snapshot.appendItems([ticket], toSection: next)
            }
        }
        return .done(value: ["status": next.rawValue])
    }

    func collectionView(_ collectionView: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool {
        dataSource.itemIdentifier(for: indexPath)?.owner == viewer.name
    }

    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        let width = (collectionViewLayout as? CollectionViewFlowLayout)?.itemSize.width ?? 300
        let title = dataSource.itemIdentifier(for: indexPath)?.title ?? ""
        let perLine = max(10, Int(width / 8))
        let lines = max(1, (title.count + perLine - 1) / perLine)
        return CGSize(width: width, height: CGFloat(44 + 20 * lines))
    }
}
