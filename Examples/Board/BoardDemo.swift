import CollectionServer

/// The items and layout of one board column: cards in two sections, one of them a
/// folder that takes drops.
struct BoardDemo: ItemFactory, LayoutPolicy {
    /// Identifier prefix: each collection makes identifiers of its own.
    let prefix: String

    static let columns: [(name: String, sections: [(id: String, title: String, cards: [String])])] = [
        ("backlog", [
            ("ideas", "Ideas", ["Folder: Someday", "Dark mode for the status line", "Keyboard shortcuts sheet", "Offline reading list", "Share a board by link"]),
            ("bugs", "Bugs", ["Header flickers on resize", "Long titles overflow on phones", "Reconnect loses scroll position"]),
        ]),
        ("sprint", [
            ("doing", "Doing", ["Drag between columns", "Insertion indicator", "Drop placeholder"]),
            ("done", "Done", ["Folder: Archive", "Self-sizing rows", "Layout switch"]),
        ]),
    ]

    /// The models of both columns, with their factories.
    static func makeColumns() -> [(name: String, model: CollectionModel, demo: BoardDemo)] {
        columns.map { column in
            let demo = BoardDemo(prefix: String(column.name.prefix(1)))
            var model = CollectionModel()
            model.cellReuseIdentifier = "card"
            model.headerReuseIdentifier = "column-header"
            var serial = 1
            for section in column.sections {
                model.snapshot.appendSections([section.id])
                model.sectionTitles[section.id] = section.title
                for title in section.cards {
                    var (id, content) = demo.makeItem(serial: serial, section: section.id)
                    serial += 1
                    if title.hasPrefix("Folder: ") {
                        content = ["title": String(title.dropFirst(8)), "kind": "folder", "count": "0", "color": content["color"] ?? ""]
                    } else {
                        content["title"] = title
                    }
                    model.snapshot.appendItems([id], toSection: section.id)
                    model.itemContent[id] = content
                }
            }
            return (column.name, model, demo)
        }
    }

    func makeItem(serial: Int, section: String) -> (id: String, content: [String: String]) {
        let hue = (serial * 47 + (prefix == "b" ? 200 : 20)) % 360
        return ("\(prefix)\(serial)", ["title": "Card \(prefix.uppercased())\(serial)", "kind": "card", "color": "hsl(\(hue) 55% 55%)"])
    }

    var layoutNames: [String] { ["list"] }

    /// Full-width cards, 52 points high, under 40-point section headers.
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {
        let inset = 10.0
        layout.itemSize = CGSize(width: max(1, size.width - 2 * inset), height: 52)
        layout.minimumInteritemSpacing = 0
        layout.minimumLineSpacing = 8
        layout.sectionInset = EdgeInsets(top: 4, left: inset, bottom: 20, right: inset)
        layout.headerReferenceSize = CGSize(width: 0, height: 40)
    }
}

/// The board example: two columns, "backlog" and "sprint", whose cards are dragged
/// within and between them, onto folders, and in from outside the page.
public enum BoardExample {
    /// Adds both columns to `server`.
    public static func add(to server: CollectionServer) {
        for column in BoardDemo.makeColumns() {
            let collection = server.addCollection(named: column.name)
            collection.load(column.model)
            collection.setItemFactory(column.demo)
            collection.setLayoutPolicy(column.demo)
            collection.allowedEdits = .all
            collection.setPermissions { $0.user == nil || $0.roles.contains("editor") ? .all : [.view, .select] }
            var limits = collection.limits
            limits.maxItems = 10_000
            collection.limits = limits
            collection.setDropDelegate(ModelDropDelegate(foldersTakeDrops: true))
        }
    }
}
