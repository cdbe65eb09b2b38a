import CollectionServer
import ProjectTestSupport
import Synchronization

/// A server of one typed collection "t" (once filled: items "a"…"f" in section
/// "s1", 100 × 50 cells), started on a kernel-picked port, with a delegate that records every call.
final class LibraryHarness: Sendable {
    let server: CollectionServer
    let collection: LiveCollection
    let dataSource: LiveDiffableDataSource<String, String>
    let delegate = RecordingDelegate()
    let port: Int

    init() throws {
        server = CollectionServer(configuration: .testing)
        collection = server.addCollection(named: "t")
        dataSource = LiveDiffableDataSource(collection: collection, cellRegistration: CellRegistration(template: "card") { ["title": $0.uppercased()] })
        collection.setLayoutProvider { _ in
            let layout = CollectionViewFlowLayout()
            layout.itemSize = CGSize(width: 100, height: 50)
            return layout
        }
        collection.delegate = delegate
        port = try server.start()
    }

    /// Applies the starting snapshot (batch 1).
    func fill(_ items: [String] = ["a", "b", "c", "d", "e", "f"]) async throws {
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s1"])
        snapshot.appendItems(items)
        try await dataSource.apply(snapshot)
    }

    /// A viewer named `name`, welcomed.
    func viewer(_ name: String, width: Double = 800) async throws -> TestViewer {
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: width, height: 600, wantOrder: true, name: name, collection: "t")
        return v
    }

    deinit { server.stop() }
}

/// One delegate call: what it was, about which index path, by whom.
struct Call: Equatable, Sendable, CustomStringConvertible {
    var method: String
    var indexPath: IndexPath
    var viewer: String
    var description: String { "\(method)(\(indexPath.section).\(indexPath.item)) by \(viewer)" }
}

/// Records every call; refuses to select "f" and lets only "Ana" move items.
final class RecordingDelegate: LiveCollectionDelegate {
    private let log = Mutex<[Call]>([])
    var calls: [Call] { log.withLock { $0 } }
    func calls(_ method: String) -> [Call] { calls.filter { $0.method == method } }
    private func record(_ method: String, _ indexPath: IndexPath, _ viewer: Viewer) {
        log.withLock { $0.append(Call(method: method, indexPath: indexPath, viewer: viewer.name)) }
    }

    func collectionView(_ collectionView: LiveCollection, shouldSelectItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool {
        record("shouldSelect", indexPath, viewer)
        return indexPath.item != 5
    }
    func collectionView(_ collectionView: LiveCollection, didSelectItemAt indexPath: IndexPath, by viewer: Viewer) {
        record("didSelect", indexPath, viewer)
    }
    func collectionView(_ collectionView: LiveCollection, didDeselectItemAt indexPath: IndexPath, by viewer: Viewer) {
        record("didDeselect", indexPath, viewer)
    }
    func collectionView(_ collectionView: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool {
        record("canMove", indexPath, viewer)
        return viewer.name == "Ana"
    }
    func collectionView(_ collectionView: LiveCollection, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath, by viewer: Viewer) {
        record("moveFrom", sourceIndexPath, viewer)
        record("moveTo", destinationIndexPath, viewer)
    }
    private let actionLog = Mutex<[(name: String, indexPath: IndexPath?, payload: [String: String], viewer: String)]>([])
    var actions: [(name: String, indexPath: IndexPath?, payload: [String: String], viewer: String)] { actionLog.withLock { $0 } }
    /// Set by tests: called (under the collection's lock) for each action.
    let onAction = Mutex<(@Sendable (LiveCollection) -> Void)?>(nil)

    func collectionView(_ collectionView: LiveCollection, performAction action: String, forItemAt indexPath: IndexPath?,
                        payload: [String: String], by viewer: Viewer) {
        actionLog.withLock { $0.append((action, indexPath, payload, viewer.name)) }
        onAction.withLock { $0 }?(collectionView)
    }

    func collectionView(_ collectionView: LiveCollection, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
                        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath, by viewer: Viewer) -> IndexPath {
        record("target", proposedIndexPath, viewer)
        return proposedIndexPath
    }
}

extension CollectionServer.Configuration {
    /// 127.0.0.1, a kernel-picked port, errors only, nothing kept on disk, and a
    /// minute for a viewer's hello (as ServerProcess gives): the tests start at once,
    /// and on 2 busy cores a test's next step can wait behind the others' work for
    /// longer than the 10 s default; the servers closed them unwelcomed.
    static var testing: Self {
        var configuration = Self(host: "127.0.0.1", port: 0, logLevel: .error)
        configuration.helloTimeout = 60
        configuration.storage = .inMemory
        return configuration
    }
}
