import CollectionServer
import Foundation

/// The board's own storage: its columns of cards as one JSON file, written whole
/// (to a temporary file, then renamed over it) after every change the collection
/// commits. The app's data, apart from the server's store: after a restart the
/// board is loaded from it and given to the collection before the server starts,
/// so open pages resume where they were.
struct RetroFile: Sendable {
    let url: URL

    struct Contents: Codable {
        var columns: [String: [RetroCard]]
        var nextID: Int
    }

    /// The board as last written (nil: no file yet, or one that cannot be read).
    func load() -> Contents? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(Contents.self, from: data)
    }

    /// Writes the board; false when it could not.
    @discardableResult
    func save(_ snapshot: NSDiffableDataSourceSnapshot<RetroColumn, RetroCard>, nextID: Int) -> Bool {
        var columns: [String: [RetroCard]] = [:]
        for column in snapshot.sectionIdentifiers { columns[column.key] = snapshot.itemIdentifiers(inSection: column) }
        guard let data = try? JSONEncoder().encode(Contents(columns: columns, nextID: nextID)) else { return false }
        return (try? data.write(to: url, options: .atomic)) != nil
    }
}
