import CollectionCore
import CollectionProtocol

/// The shared collection: identifiers in order, plus what each cell and header shows.
public struct CollectionModel: Sendable, Equatable {
    /// Sections and items by identifier.
    public var snapshot = Snapshot<String, String>()
    /// Content fields of each item, by item identifier.
    public var itemContent: [String: [String: String]] = [:]
    /// Title of each section, by section identifier.
    public var sectionTitles: [String: String] = [:]
    /// Template used for cells.
    public var cellReuseIdentifier = "cell"
    /// Template used for section headers.
    public var headerReuseIdentifier = "header"

    /// An empty model.
    public init() {}

    /// Section identities and counts, in order.
    public var sectionInfos: [SectionInfo] {
        snapshot.sectionIdentifiers.map {
            SectionInfo(id: $0, title: sectionTitles[$0] ?? $0, count: snapshot.numberOfItems(inSection: $0))
        }
    }

    /// Checks that every item has content and every identifier is unique (for tests).
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        let ids = snapshot.itemIdentifiers
        if Set(ids).count != ids.count { problems.append("duplicate item identifiers") }
        for id in ids where itemContent[id] == nil { problems.append("item \(id) has no content") }
        if itemContent.count != ids.count { problems.append("content for \(itemContent.count) items, snapshot has \(ids.count)") }
        return problems
    }
}

/// Makes new items for inserts: the data source's job.
public protocol ItemFactory: Sendable {
    /// Content for a new item numbered `serial` (unique for the life of the hub).
    func makeItem(serial: Int, section: String) -> (id: String, content: [String: String])
}

/// How a viewer's layout follows its viewport: the delegate-flow-layout's job.
public protocol LayoutPolicy: Sendable {
    /// Configures `layout` for a viewport of `size`.
    func configure(_ layout: CollectionViewFlowLayout, for size: Size)
}
