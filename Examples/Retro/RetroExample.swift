import CollectionServer
import Foundation
import Synchronization

/// A team retrospective, built as an app author would on `CollectionServer`: three
/// columns of typed cards (side by side on wide screens, one under the other on
/// phones), people signed in with roles (editors add and move cards, viewers vote,
/// guests watch), votes as actions whose answers reach the voter ("you have used
/// your 3 votes"), a countdown the server pushes every second (a second, one-item
/// collection, "retro-timer"), and the app's own storage (a JSON file kept in step
/// with every change, from which the board comes back after a restart).
public final class RetroExample: Sendable {
    /// The "retro" collection: the cards.
    public let collection: LiveCollection
    /// Its data source, over the cards.
    public let dataSource: LiveDiffableDataSource<RetroColumn, RetroCard>
    /// The "retro-timer" collection: one item, the countdown.
    public let timer: RetroTimer
    private let nextID: RetroCounter
    private let file: RetroFile?
    private let rules: RetroRules

    /// Votes each person has.
    public static let votesPerPerson = 3

    /// The first cards of a board that has no file yet.
    public static let samples: [RetroColumn: [RetroCard]] = [
        .well: [RetroCard(id: "c1", text: "The release went out on the day we said", author: "ana", authorName: "Ana", voters: ["ben"])],
        .improve: [RetroCard(id: "c2", text: "Reviews waited two days for a second reader", author: "ben", authorName: "Ben"),
                   RetroCard(id: "c3", text: "The flaky upload test", author: "chloé", authorName: "Chloé")],
        .actions: [],
    ]

    /// Adds "retro" and "retro-timer" to `server`, the board read from `file` when it
    /// holds one (else the samples), and kept there after every change.
    @discardableResult
    public static func add(to server: CollectionServer, file: URL? = nil) async throws(ProtocolError) -> RetroExample {
        let store = file.map(RetroFile.init(url:))
        let saved = store?.load()
        let columns = saved.map { saved in
            Dictionary(uniqueKeysWithValues: RetroColumn.allCases.map { ($0, saved.columns[$0.key] ?? []) })
        } ?? samples
        let retro = RetroExample(server: server, file: store, nextID: saved?.nextID ?? 4)
        var snapshot = NSDiffableDataSourceSnapshot<RetroColumn, RetroCard>()
        snapshot.appendSections(RetroColumn.allCases)
        for column in RetroColumn.allCases { snapshot.appendItems(columns[column] ?? [], toSection: column) }
        try await retro.dataSource.apply(snapshot)
        try await retro.timer.show()
        return retro
    }

    private init(server: CollectionServer, file: RetroFile?, nextID: Int) {
        collection = server.addCollection(named: "retro")
        let cells = CellRegistration<RetroCard>(template: "card") { card in
            let votes = card.voters.count
            let name = "“\(card.text.prefix(60))”"
            return RetroCardCell(text: card.text, author: card.authorName, votes: "\(votes)",
                                 voteLabel: "Vote for \(name) (\(votes) vote\(votes == 1 ? "" : "s"))", removeLabel: "Remove \(name)")
        }
        dataSource = LiveDiffableDataSource(collection: collection, cellRegistration: cells) { column in ["title": column.rawValue] }
        self.file = file
        self.nextID = RetroCounter(nextID)
        timer = RetroTimer(collection: server.addCollection(named: "retro-timer"))
        rules = RetroRules(dataSource: dataSource, nextID: self.nextID)
        collection.delegate = rules
        collection.setLayoutProvider(modes: ["board"]) { environment in
            environment.horizontalSizeClass == .compact ? Self.oneColumn() : Self.columns(width: environment.container.width)
        }
        // The app's own copy, written after every change, whoever made it.
        if let file {
            let counter = self.nextID
            dataSource.onChange { snapshot, _ in file.save(snapshot, nextID: counter.next.withLock { $0 }) }
        }
    }

    /// Wide screens: the columns side by side (a horizontal compositional layout,
    /// each section one column as tall as the viewport, its header on top).
    static func columns(width: Double) -> CollectionViewLayout {
        let configuration = CollectionViewCompositionalLayoutConfiguration()
        configuration.scrollDirection = .horizontal
        configuration.interSectionSpacing = 16
        // Three columns and four gaps of 16 (before each and after the last) fill the width.
        let columnWidth = max(260, ((width - 6 * 16) / 3).rounded(.down))
        return CollectionViewCompositionalLayout(sectionProvider: { _, _ in
            let item = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(104)))
            let column = NSCollectionLayoutGroup.vertical(layoutSize: NSCollectionLayoutSize(widthDimension: .absolute(columnWidth),
                                                                                             heightDimension: .fractionalHeight(1)), subitems: [item])
            column.interItemSpacing = .fixed(10)
            let section = NSCollectionLayoutSection(group: column)
            section.contentInsets = NSDirectionalEdgeInsets(top: 0, leading: 16, bottom: 16, trailing: 0)
            section.boundarySupplementaryItems = [header(width: .absolute(columnWidth))]
            return section
        }, configuration: configuration)
    }

    /// Phones: one column, the sections one under the other.
    static func oneColumn() -> CollectionViewLayout {
        let item = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(104)))
        let row = NSCollectionLayoutGroup.horizontal(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(104)),
                                                     subitems: [item])
        let section = NSCollectionLayoutSection(group: row)
        section.interGroupSpacing = 10
        section.contentInsets = NSDirectionalEdgeInsets(top: 0, leading: 12, bottom: 20, trailing: 12)
        section.boundarySupplementaryItems = [header(width: .fractionalWidth(1))]
        return CollectionViewCompositionalLayout(section: section)
    }

    private static func header(width: NSCollectionLayoutDimension) -> NSCollectionLayoutBoundarySupplementaryItem {
        NSCollectionLayoutBoundarySupplementaryItem(layoutSize: NSCollectionLayoutSize(widthDimension: width, heightDimension: .absolute(44)),
                                                    elementKind: CollectionView.elementKindSectionHeader, alignment: .top)
    }
}

extension NSDiffableDataSourceSnapshot {
    /// Puts `new` where `old` is (an `Identifiable` item with other fields: the same item, configured again).
    mutating func replace(_ old: ItemIdentifierType, with new: ItemIdentifierType) {
        insertItems([new], beforeItem: old)
        deleteItems([old])
    }
}
