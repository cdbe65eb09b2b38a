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
    /// Items the data source will not let move (`canMoveItemAt` answers false).
    public var immovableItems: Set<String> = []
    /// Templates of items that do not use ``cellReuseIdentifier``, by item identifier.
    public var itemReuseIdentifiers: [String: String] = [:]

    /// The template an item's cell is drawn with.
    /// - Parameter id: The item's identifier.
    /// - Returns: Its template's name: its own, or ``cellReuseIdentifier``.
    public func reuseIdentifier(forItem id: String) -> String { itemReuseIdentifiers[id] ?? cellReuseIdentifier }

    /// An empty model.
    public init() {}

    /// Section identities, counts and order checksums, in order.
    public var sectionInfos: [SectionInfo] {
        snapshot.sectionIdentifiers.map { sectionInfo($0) }
    }

    /// One section's identity, count and order checksum.
    /// - Parameter id: The section's identifier.
    /// - Returns: Its identity, title, item count and order checksum.
    public func sectionInfo(_ id: String) -> SectionInfo {
        let items = snapshot.itemIdentifiers(inSection: id)
        return SectionInfo(id: id, title: sectionTitles[id] ?? id, count: items.count, checksum: orderChecksum(items))
    }

    /// Checks that every item has content and every identifier is unique (for tests).
    /// - Returns: What is wrong, for people (empty: nothing).
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
    /// - Parameters:
    ///   - serial: A number unique for the life of the hub (to make the identifier from).
    ///   - section: The section the item goes into.
    /// - Returns: The new item's identifier (unique in the collection) and content.
    func makeItem(serial: Int, section: String) -> (id: String, content: [String: String])
    /// New content for a reloaded item (`serial` is unique for the life of the hub).
    /// - Parameters:
    ///   - id: The reloaded item.
    ///   - current: Its content now.
    ///   - serial: A number unique for the life of the hub.
    /// - Returns: Its new content.
    func reloadedContent(for id: String, current: [String: String], serial: Int) -> [String: String]
}

extension ItemFactory {
    /// By default a reload keeps the content and counts the reloads in a `version` field.
    public func reloadedContent(for id: String, current: [String: String], serial: Int) -> [String: String] {
        var content = current
        content["version"] = String((Int(current["version"] ?? "0") ?? 0) + 1)
        return content
    }
}

/// How a viewer's layout follows its viewport: the delegate-flow-layout's job.
public protocol LayoutPolicy: Sendable {
    /// Configures `layout` for a viewport of `size`.
    /// - Parameters:
    ///   - layout: The viewer's flow layout.
    ///   - size: The viewer's viewport.
    func configure(_ layout: CollectionViewFlowLayout, for size: Size)
    /// The layouts viewers may switch between; the first is the initial one.
    var layoutNames: [String] { get }
    /// Configures `layout` as the layout called `name` for a viewport of `size`.
    /// - Parameters:
    ///   - layout: The viewer's flow layout.
    ///   - size: The viewer's viewport.
    ///   - name: One of ``layoutNames``.
    func configure(_ layout: CollectionViewFlowLayout, for size: Size, named name: String)
    /// A layout of any kind for `environment`; nil (the default) makes a flow layout
    /// configured by ``configure(_:for:named:)``.
    /// - Parameter environment: The viewer's viewport, size class and layout mode.
    /// - Returns: The viewer's layout, or nil for a configured flow layout.
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout?
}

extension LayoutPolicy {
    /// One layout, "grid".
    public var layoutNames: [String] { ["grid"] }
    /// The one layout.
    public func configure(_ layout: CollectionViewFlowLayout, for size: Size, named name: String) { configure(layout, for: size) }
    /// A flow layout configured by ``configure(_:for:named:)``.
    public func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? { nil }
}

extension CollectionModel {
    /// How a refusal names an item to the person: its title (or a list row's text)
    /// in quotes, else `item 'id'`.
    func quotedName(of item: String) -> String {
        let content = itemContent[item]
        if let name = content?["title"] ?? content?["text"], !name.isEmpty {
            return name.count > 80 ? "“\(name.prefix(79))…”" : "“\(name)”"
        }
        return "item '\(item.prefix(80))'"
    }
}
