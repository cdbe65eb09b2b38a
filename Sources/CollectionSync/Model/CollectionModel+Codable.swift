import CollectionCore

/// A model as stores keep it: sections with their items in order, then the
/// content and templates.
extension CollectionModel: Codable {
    private enum Keys: String, CodingKey {
        case sections, content, titles, cellTemplate, headerTemplate, immovable, reuse
    }

    private struct Section: Codable {
        var id: String
        var items: [String]
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init()
        for section in try c.decode([Section].self, forKey: .sections) {
            guard snapshot.indexOfSection(section.id) == nil else {
                throw DecodingError.dataCorruptedError(forKey: .sections, in: c, debugDescription: "section '\(section.id)' appears twice")
            }
            snapshot.appendSections([section.id])
            if let item = section.items.first(where: snapshot.contains(item:)) ?? (Set(section.items).count == section.items.count ? nil : section.items.first) {
                throw DecodingError.dataCorruptedError(forKey: .sections, in: c, debugDescription: "item '\(item)' appears twice")
            }
            snapshot.appendItems(section.items, toSection: section.id)
        }
        itemContent = try c.decode([String: [String: String]].self, forKey: .content)
        sectionTitles = try c.decode([String: String].self, forKey: .titles)
        cellReuseIdentifier = try c.decode(String.self, forKey: .cellTemplate)
        headerReuseIdentifier = try c.decode(String.self, forKey: .headerTemplate)
        immovableItems = Set(try c.decode([String].self, forKey: .immovable))
        itemReuseIdentifiers = try c.decode([String: String].self, forKey: .reuse)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(snapshot.sectionIdentifiers.map { Section(id: $0, items: snapshot.itemIdentifiers(inSection: $0)) }, forKey: .sections)
        try c.encode(itemContent, forKey: .content)
        try c.encode(sectionTitles, forKey: .titles)
        try c.encode(cellReuseIdentifier, forKey: .cellTemplate)
        try c.encode(headerReuseIdentifier, forKey: .headerTemplate)
        try c.encode(immovableItems.sorted(), forKey: .immovable)
        try c.encode(itemReuseIdentifiers, forKey: .reuse)
    }
}
