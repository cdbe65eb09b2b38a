import CollectionServer
import Foundation

/// The settings example: a settings-style sidebar (UIKit's sidebar list, as in a
/// split view's primary column) as one live collection, "settings". Each group is
/// a section whose first row is its header; groups and their entries expand and
/// collapse as outlines (section snapshots). Choosing a theme or a text size moves
/// its checkmark, and choosing a notification switches it, for every viewer.
/// Built on CollectionServer's public API only. Its page is Examples/Public/settings.html.
public enum SettingsExample {
    /// The collection's name.
    public static let collectionName = "settings"

    /// One row: a group's header, an entry with rows under it, or a leaf.
    struct Row: Sendable {
        let id: String
        let title: String
        var symbol = ""
        var detail = ""
        var children: [Row] = []
        /// A leaf whose choosing picks it among its siblings (one of them checked).
        var isChoice = false
        /// A leaf whose choosing switches it on and off.
        var isSwitch = false
        /// Its detail is a value, shown at the trailing edge of its line (UIKit's value cell).
        var isValue = false
    }

    /// The groups, each a section: its header row and the rows under it.
    static let groups: [Row] = [
        Row(id: "account", title: "Account", children: [
            Row(id: "profile", title: "Profile", symbol: "👤", detail: "Name, photo, e-mail address"),
            Row(id: "password", title: "Password & security", symbol: "🔑"),
            Row(id: "devices", title: "Devices", symbol: "💻", children: [
                Row(id: "device-laptop", title: "Laptop", detail: "This device", isValue: true),
                Row(id: "device-phone", title: "Phone", detail: "Last seen yesterday", isValue: true),
            ]),
        ]),
        Row(id: "notifications", title: "Notifications", children: [
            Row(id: "email", title: "E-mail", symbol: "✉️", children: [
                Row(id: "email-orders", title: "Orders and deliveries", isSwitch: true),
                Row(id: "email-offers", title: "Offers", isSwitch: true),
                Row(id: "email-news", title: "Newsletter", isSwitch: true),
            ]),
            Row(id: "push", title: "Push", symbol: "🔔", children: [
                Row(id: "push-messages", title: "Messages", isSwitch: true),
                Row(id: "push-reminders", title: "Reminders", isSwitch: true),
            ]),
        ]),
        Row(id: "appearance", title: "Appearance", children: [
            Row(id: "theme", title: "Theme", symbol: "🎨", children: [
                Row(id: "theme-light", title: "Light", isChoice: true),
                Row(id: "theme-dark", title: "Dark", isChoice: true),
                Row(id: "theme-auto", title: "Automatic", isChoice: true),
            ]),
            Row(id: "text", title: "Text size", symbol: "🔠", children: [
                Row(id: "text-small", title: "Small", isChoice: true),
                Row(id: "text-medium", title: "Medium", isChoice: true),
                Row(id: "text-large", title: "Large", isChoice: true),
            ]),
        ]),
        Row(id: "privacy", title: "Privacy", children: [
            Row(id: "cookies", title: "Cookies", symbol: "🍪"),
            Row(id: "export", title: "Export my data", symbol: "📦"),
        ]),
    ]

    /// Every row by id, with its parent's id.
    static let rows: [String: (row: Row, parent: String?)] = {
        var all: [String: (Row, String?)] = [:]
        func add(_ row: Row, parent: String?) {
            all[row.id] = (row, parent)
            for child in row.children { add(child, parent: row.id) }
        }
        for group in groups { add(group, parent: nil) }
        return all
    }()

    /// A group's outline: its header, its entries under it (expanded), their rows under them (collapsed).
    static func outline(_ group: Row) -> NSDiffableDataSourceSectionSnapshot<String> {
        var outline = NSDiffableDataSourceSectionSnapshot<String>()
        outline.append([group.id])
        outline.append(group.children.map(\.id), to: group.id)
        for entry in group.children where !entry.children.isEmpty {
            outline.append(entry.children.map(\.id), to: entry.id)
        }
        outline.expand([group.id])
        return outline
    }

    /// Which switches are on and which choices are made: the app's settings, shared by every viewer.
    final class Settings: @unchecked Sendable {
        private let lock = NSLock()
        private var on: Set<String> = ["email-orders", "push-messages", "theme-auto", "text-medium"]

        func isOn(_ id: String) -> Bool { lock.withLock { on.contains(id) } }

        /// Chooses `id`: a switch flips, a choice is checked and its siblings unchecked.
        /// Returns the rows whose checkmark changed.
        func choose(_ id: String) -> [String] {
            guard let (row, parent) = SettingsExample.rows[id], row.isChoice || row.isSwitch else { return [] }
            return lock.withLock {
                if row.isSwitch {
                    if on.remove(id) == nil { on.insert(id) }
                    return [id]
                }
                let siblings = parent.flatMap { SettingsExample.rows[$0]?.row.children.map(\.id) } ?? []
                let was = siblings.filter(on.contains)
                guard was != [id] else { return [] }
                on.subtract(siblings)
                on.insert(id)
                return was + [id]
            }
        }
    }

    /// Choosing a row (selecting it, by click or keyboard) changes the setting for everyone.
    final class Chooser: LiveCollectionDelegate {
        let settings: Settings
        let source: LiveDiffableDataSource<String, String>
        init(settings: Settings, source: LiveDiffableDataSource<String, String>) {
            self.settings = settings
            self.source = source
        }

        func collectionView(_ collectionView: LiveCollection, didSelectItemAt indexPath: IndexPath, by viewer: Viewer) {
            guard let id = source.itemIdentifier(for: indexPath) else { return }
            let changed = settings.choose(id)
            guard !changed.isEmpty else { return }
            Task { [source] in _ = try? await source.reconfigureItems(changed, by: viewer) }
        }
    }

    /// Adds the settings sidebar to `server`.
    @discardableResult
    public static func add(to server: CollectionServer) async throws(ProtocolError) -> LiveDiffableDataSource<String, String> {
        let collection = server.addCollection(named: collectionName, persistence: .appManaged)
        collection.allowedEdits = []
        let settings = Settings()
        let source = SourceRef()
        let dataSource = LiveDiffableDataSource<String, String>(collection: collection) { _, id in
            guard let (row, parent) = rows[id] else { return .list(ListContentConfiguration(text: id)) }
            var content = row.isValue ? ListContentConfiguration.valueCell() : ListContentConfiguration.cell()
            content.text = row.title
            content.secondaryText = row.detail.isEmpty ? nil : row.detail
            content.image = Image(named: row.symbol)
            let group = parent.map { rows[$0]?.parent ?? $0 } ?? id
            let outline = source.dataSource?.snapshot(for: group) ?? SettingsExample.outline(rows[group]?.row ?? row)
            var accessories: [CellAccessory] = []
            if !row.children.isEmpty { accessories.append(.outlineDisclosure(isExpanded: outline.isExpanded(id))) }
            if (row.isChoice || row.isSwitch) && settings.isOn(id) { accessories.append(.checkmark()) }
            return .list(content, accessories: accessories, indentationLevel: outline.level(of: id))
        }
        var configuration = CollectionLayoutListConfiguration(appearance: .sidebar)
        configuration.headerMode = .firstItemInSection
        let sidebar = configuration
        collection.setLayoutProvider(modes: ["sidebar"]) { _ in CollectionViewCompositionalLayout.list(using: sidebar) }
        collection.delegate = Chooser(settings: settings, source: dataSource)
        source.dataSource = dataSource
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(groups.map(\.id))
        try await dataSource.apply(snapshot, animatingDifferences: false)
        for group in groups { try await dataSource.apply(outline(group), to: group.id, animatingDifferences: false) }
        return dataSource
    }
}
