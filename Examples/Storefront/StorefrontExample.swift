import CollectionServer
import Foundation
import Synchronization

/// The storefront's sections, in order.
enum StoreSection: String, CaseIterable, Sendable {
    case featured, everything, departments, deals, basket, help

    var title: String {
        switch self {
        case .featured: "Featured"
        case .everything: "Every product"
        case .departments: "Departments"
        case .deals: "Deals of the day"
        case .basket: "Your basket"
        case .help: "Help"
        }
    }
}

/// One thing the shop shows: a product, a department, a deal.
struct StoreItem: Hashable, Sendable, Identifiable {
    let id: String
    let title: String
    let detail: String
    let hue: Int
    /// "New", "Sale" or "" (no badge).
    let badge: String
    /// The page's template: product, department (a list row: none).
    let template: String
    /// A list row's image (an emoji).
    var symbol = ""
}

/// The storefront example: a shop's front page as one live collection
/// ("store"), laid out by a compositional layout (`StorefrontLayout`), filled by a
/// diffable data source. Carousels scroll sideways on their own, each viewer at
/// its own offset; headers stay pinned; the featured cards carry badges; the
/// departments sit on a section background. Built on CollectionServer's public
/// API only. Its page is Examples/Public/store.html.
public enum StorefrontExample {
    /// The collection's name.
    public static let collectionName = "store"
    /// How many products the "Every product" carousel holds.
    public static let productCount = 10_000

    static let departments = ["Kitchen", "Garden", "Books", "Music", "Outdoors", "Toys", "Tools", "Lighting", "Bath", "Office", "Pets", "Travel"]
    static let adjectives = ["Linen", "Oak", "Copper", "Wool", "Stoneware", "Walnut", "Glass", "Cotton", "Brass", "Cork"]
    static let nouns = ["lamp", "chair", "bowl", "throw", "kettle", "stool", "vase", "tray", "clock", "basket", "mug", "shelf"]

    /// The items of each section.
    static func items(_ section: StoreSection) -> [StoreItem] {
        switch section {
        case .featured:
            return (1...8).map { n in
                StoreItem(id: "f\(n)", title: "\(adjectives[n % adjectives.count]) collection", detail: "Spring \(2026 + n / 8) · new arrivals",
                          hue: (n * 41) % 360, badge: n % 3 == 1 ? "New" : n % 3 == 2 ? "Sale" : "", template: "product")
            }
        case .everything:
            return (1...productCount).map(product)
        case .departments:
            return departments.enumerated().map { i, name in
                StoreItem(id: "d\(i + 1)", title: name, detail: "\(40 + i * 7) items", hue: (i * 30) % 360, badge: "", template: "department")
            }
        case .basket:
            return basketPicks.enumerated().map { i, p in
                StoreItem(id: "b\(i + 1)", title: p.title, detail: "€\(p.price) · \(p.quantity)", hue: 0, badge: "", template: "", symbol: p.symbol)
            }
        case .help:
            return helpTopics.flatMap { topic in
                [StoreItem(id: topic.id, title: topic.title, detail: "", hue: 0, badge: "", template: "", symbol: topic.symbol)]
                    + topic.answers.enumerated().map { i, answer in
                        StoreItem(id: "\(topic.id)-\(i + 1)", title: answer, detail: "", hue: 0, badge: "", template: "")
                    }
            }
        case .deals:
            return (1...30).map { n in
                StoreItem(id: "s\(n)", title: "\(adjectives[(n + 3) % adjectives.count]) \(nouns[n % nouns.count])",
                          detail: "−\(10 + n % 5 * 10)% today", hue: (n * 67) % 360, badge: "Sale", template: "product")
            }
        }
    }

    /// What the basket holds at first: each pick's price and how many.
    static let basketPicks: [(symbol: String, title: String, price: Int, quantity: Int)] = [
        ("🫖", "Stoneware teapot", 38, 1), ("🕯️", "Beeswax candles", 12, 3), ("🧺", "Willow basket", 45, 1),
        ("📚", "Bookends, walnut", 29, 2), ("🪴", "Terracotta pot", 16, 1),
    ]

    /// The help outline: topics, each with answers under it (collapsed at first).
    static let helpTopics: [(id: String, symbol: String, title: String, answers: [String])] = [
        ("h-delivery", "🚚", "Delivery", ["Delivery times", "Delivery costs", "Tracking a parcel"]),
        ("h-returns", "↩️", "Returns", ["How to return an item", "Refunds"]),
        ("h-payment", "💳", "Payment", ["Cards we take", "Gift cards"]),
    ]

    /// The help section's outline, collapsed.
    static func helpOutline() -> NSDiffableDataSourceSectionSnapshot<String> {
        var outline = NSDiffableDataSourceSectionSnapshot<String>()
        for topic in helpTopics {
            outline.append([topic.id])
            outline.append(topic.answers.indices.map { "\(topic.id)-\($0 + 1)" }, to: topic.id)
        }
        return outline
    }

    static func product(_ n: Int) -> StoreItem {
        let price = 5 + (n * 37) % 195
        return StoreItem(id: "p\(n)", title: "\(adjectives[n % adjectives.count]) \(nouns[(n / adjectives.count) % nouns.count])",
                         detail: "€\(price)", hue: (n * 29) % 360, badge: "", template: "product")
    }

    /// Adds the store to `server`: its collection, layout and contents.
    @discardableResult
    public static func add(to server: CollectionServer) async throws(ProtocolError) -> LiveDiffableDataSource<String, String> {
        let collection = server.addCollection(named: collectionName, persistence: .appManaged)
        collection.headerTemplate = "store-header"
        collection.allowedEdits = []
        // Basket rows are dragged only within the basket.
        collection.delegate = BasketRules()
        var all: [String: StoreItem] = [:]
        for section in StoreSection.allCases { for item in items(section) { all[item.id] = item } }
        let byId = all
        let source = SourceRef()
        let quantities = Quantities(items(.basket).enumerated().map { ($1.id, basketPicks[$0].quantity) })
        let dataSource = LiveDiffableDataSource<String, String>(collection: collection, headerProvider: { id in
            ["title": StoreSection(rawValue: id)?.title ?? id]
        }) { _, id in
            guard let item = byId[id] else { return CellContent(template: "product", fields: ["title": id]) }
            if item.template.isEmpty {
                // A list row: UIKit's list cell with its default content configuration.
                var row = ListContentConfiguration.cell()
                row.text = item.title
                row.secondaryText = item.detail.isEmpty ? nil : item.detail
                row.image = Image(named: item.symbol)
                if id.hasPrefix("h-") {
                    // A help topic has an outline disclosure; its answers are indented under it.
                    let outline = source.dataSource?.snapshot(for: StoreSection.help.rawValue) ?? helpOutline()
                    let isTopic = outline.parent(of: id) == nil
                    return .list(row, accessories: isTopic ? [.outlineDisclosure(isExpanded: outline.isExpanded(id))] : [],
                                 indentationLevel: outline.level(of: id))
                }
                // A basket row: delete (revealing Remove) and insert (one more) before it, a
                // reorder handle after it.
                let count = quantities.count(of: id)
                row.secondaryText = item.detail.split(separator: "·").first.map { "\($0)· \(count)" } ?? item.detail
                let addOne = CellAccessory.insert(displayed: .always) {
                    quantities.add(1, to: id)
                    // Every viewer sees the new count, the batch naming the viewer who added it.
                    let viewer = collection.actingViewer ?? .server
                    Task {
                        guard let dataSource = source.dataSource else { return }
                        var next = dataSource.snapshot()
                        next.reconfigureItems([id])
                        _ = try? await dataSource.apply(next, by: viewer)
                    }
                }
                return .list(row, accessories: [.delete(displayed: .always), addOne, .disclosureIndicator(), .reorder(displayed: .always)])
            }
            var fields = ["title": item.title, "detail": item.detail, "color": "hsl(\(item.hue) 55% 62%)"]
            if !item.badge.isEmpty { fields["badge"] = item.badge }
            return CellContent(template: item.template, fields: fields)
        }
        // The basket's Remove swipe action takes the item out of the snapshot, for everyone.
        collection.setLayoutProvider(modes: ["store"]) { environment in
            StorefrontLayout.make(for: environment) { [dataSource] indexPath in
                guard let item = dataSource.itemIdentifier(for: indexPath) else { return }
                // The batch names the viewer who swiped.
                let viewer = collection.actingViewer ?? .server
                Task {
                    var next = dataSource.snapshot()
                    next.deleteItems([item])
                    _ = try? await dataSource.apply(next, by: viewer)
                }
            }
        }
        source.dataSource = dataSource
        // Viewers may reorder the basket (its rows' reorder handles), and nothing else (UIKit's reordering handlers).
        let basket = Set(items(.basket).map(\.id))
        dataSource.reorderingHandlers.canReorderItem = { basket.contains($0) }
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        for section in StoreSection.allCases where section != .help {
            snapshot.appendSections([section.rawValue])
            snapshot.appendItems(items(section).map(\.id), toSection: section.rawValue)
        }
        try await dataSource.apply(snapshot, animatingDifferences: false)
        // Help is an outline: a section snapshot, whose topics viewers expand and collapse.
        try await dataSource.apply(helpOutline(), to: StoreSection.help.rawValue, animatingDifferences: false)
        return dataSource
    }
}

/// The basket's rows move only within the basket (UIKit's
/// `targetIndexPathForMoveOfItemFromOriginalIndexPath`).
final class BasketRules: LiveCollectionDelegate {
    static let basket = StoreSection.allCases.firstIndex(of: .basket)!

    func collectionView(_ collectionView: LiveCollection, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath,
                        atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath, by viewer: Viewer) -> IndexPath {
        proposedIndexPath.section == Self.basket ? proposedIndexPath : currentIndexPath
    }
}

/// The data source, for the cell provider made before it (outline rows read their state from it).
/// How many of each basket row the basket holds (its insert accessory adds one).
final class Quantities: Sendable {
    private let counts: Mutex<[String: Int]>
    init(_ initial: [(String, Int)]) { counts = Mutex(Dictionary(uniqueKeysWithValues: initial)) }
    func count(of id: String) -> Int { counts.withLock { $0[id] ?? 1 } }
    func add(_ n: Int, to id: String) { counts.withLock { $0[id, default: 1] += n } }
}

final class SourceRef: @unchecked Sendable {
    private let lock = NSLock()
    private var value: LiveDiffableDataSource<String, String>?
    var dataSource: LiveDiffableDataSource<String, String>? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
