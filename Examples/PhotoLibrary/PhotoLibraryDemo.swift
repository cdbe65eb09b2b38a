import CollectionServer
import ExampleLayouts

/// The photo library's items and layouts: albums of generated "photos" (colour swatches).
struct PhotoLibraryDemo: ItemFactory, LayoutPolicy {
    static let albums: [(id: String, title: String, count: Int, hue: Int)] = [
        ("summer", "Summer in Lisbon", 640, 28),
        ("mountains", "Mountains", 560, 200),
        ("city", "City Nights", 520, 265),
        ("garden", "Garden", 480, 110),
    ]

    static let notes = [
        "Golden hour.",
        "Taken from the old tram, somewhere between the river and the castle, just as the lights came on.",
        "Blurry, but it is the only one with everyone in it.",
        "A long afternoon in the garden: the tomatoes finally ripened, the cat slept under the fig tree, and nobody wanted to go inside "
            + "even when it started to rain a little.",
        "Fog.",
    ]

    /// Builds the model: "photos" is 4 albums, 2,200 photos; "small" 3 albums of 12;
    /// "large" 4 albums of 25,000 (100,000 photos, for the browser benchmark).
    static func makeModel(_ size: String) -> CollectionModel {
        let small = size == "small"
        var model = CollectionModel()
        model.cellReuseIdentifier = "photo"
        model.headerReuseIdentifier = "album-header"
        let demo = PhotoLibraryDemo()
        var serial = 1
        for album in albums.prefix(small ? 3 : albums.count) {
            model.snapshot.appendSections([album.id])
            model.sectionTitles[album.id] = album.title
            var ids: [String] = []
            for _ in 0..<(small ? 12 : size == "large" ? 25_000 : album.count) {
                let (id, content) = demo.makeItem(serial: serial, section: album.id)
                model.itemContent[id] = content
                ids.append(id)
                serial += 1
            }
            model.snapshot.appendItems(ids, toSection: album.id)
        }
        return model
    }

    func makeItem(serial: Int, section: String) -> (id: String, content: [String: String]) {
        let base = Self.albums.first { $0.id == section }?.hue ?? 0
        // A repeatable spread of hues and lightness around the album's hue.
        var x = UInt64(serial) &* 0x9E37_79B9_7F4A_7C15
        x ^= x >> 29
        let hue = (base + Int(x % 70) - 35 + 360) % 360
        let light = 38 + Int((x >> 8) % 30)
        let sat = 45 + Int((x >> 16) % 40)
        let id = "p\(serial)"
        let title = "IMG_" + String(repeating: "0", count: max(0, 4 - String(serial).count)) + String(serial)
        var content = ["title": title, "hue": String(hue), "color": "hsl(\(hue) \(sat)% \(light)%)"]
        // Every fifth photo has a caption, some of them long: in the list layout rows
        // size themselves to their text.
        if serial % 5 == 0 { content["note"] = Self.notes[(serial / 5) % Self.notes.count] }
        return (id, content)
    }

    /// A reloaded photo is "retaken": a new colour around its album's hue.
    func reloadedContent(for id: String, current: [String: String], serial: Int) -> [String: String] {
        var content = makeItem(serial: serial * 7919, section: "").content
        let base = Int(current["hue"] ?? "0") ?? 0
        let hue = (base + 40) % 360
        content["hue"] = String(hue)
        content["color"] = "hsl(\(hue) 60% 50%)"
        content["title"] = current["title"] ?? id
        return content
    }

    var layoutNames: [String] { ["grid", "list", "mosaic", "waterfall", "filmstrip"] }

    /// "mosaic" and "waterfall": layouts of the example's own (`ExampleLayouts`);
    /// the others are flow layouts (``configure(_:for:named:)``).
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? {
        switch environment.mode {
        case "mosaic":
            let layout = MosaicLayout()
            layout.rowHeight = min(320, max(160, (environment.container.width * 0.4).rounded()))
            return layout
        case "waterfall":
            // Heights vary by place (a photo's own aspect ratio is not in its fields).
            return WaterfallLayout(columnWidth: 150) { path, width in
                let ratios: [CGFloat] = [1, 1.5, 0.75, 1.25, 0.6]
                return (width * ratios[(path.item &* 7 &+ path.section &* 3) % ratios.count]).rounded()
            }
        default:
            return nil
        }
    }

    /// "grid": square photos; "list": one full-width row per photo; "filmstrip":
    /// square photos in columns, the albums side by side, scrolling sideways.
    func configure(_ layout: CollectionViewFlowLayout, for size: Size, named name: String) {
        if name == "filmstrip" { return configureFilmstrip(layout, for: size) }
        guard name == "list" else { return configure(layout, for: size) }
        let inset = size.width < 500 ? 8.0 : 16.0
        layout.itemSize = CGSize(width: max(1, size.width - 2 * inset), height: 64)
        // Self-sizing: 64 by estimate; the client measures rows with captions.
        layout.estimatedItemSize = layout.itemSize
        layout.minimumInteritemSpacing = 0
        layout.minimumLineSpacing = 6
        layout.sectionInset = EdgeInsets(top: 6, left: inset, bottom: 24, right: inset)
        layout.headerReferenceSize = CGSize(width: 0, height: 48)
    }

    /// A horizontal flow layout: as many rows of squares as fit about 150 points
    /// high (at least one), each album after a 44-point header column.
    func configureFilmstrip(_ layout: CollectionViewFlowLayout, for size: Size) {
        let spacing = 8.0, inset = 12.0
        let available = max(1, size.height - 2 * inset)
        let rows = max(1, Int((available + spacing) / (150 + spacing)))
        let side = ((available - Double(rows - 1) * spacing) / Double(rows) * 100).rounded(.down) / 100
        layout.scrollDirection = .horizontal
        layout.itemSize = CGSize(width: side, height: side)
        layout.minimumInteritemSpacing = spacing
        layout.minimumLineSpacing = spacing
        layout.sectionInset = EdgeInsets(top: inset, left: 8, bottom: inset, right: 24)
        layout.headerReferenceSize = CGSize(width: 44, height: 0)
        layout.estimatedItemSize = .zero
    }

    /// Square photos about 150 points wide, at least two columns, filling the width.
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {
        let inset = size.width < 500 ? 8.0 : 16.0
        let spacing = size.width < 500 ? 4.0 : 8.0
        let available = max(1, size.width - 2 * inset)
        let columns = max(2, Int((available + spacing) / (150 + spacing)))
        let side = ((available - Double(columns - 1) * spacing) / Double(columns) * 100).rounded(.down) / 100
        layout.itemSize = CGSize(width: side, height: side)
        layout.minimumInteritemSpacing = spacing
        layout.minimumLineSpacing = spacing
        layout.sectionInset = EdgeInsets(top: spacing, left: inset, bottom: 24, right: inset)
        layout.headerReferenceSize = CGSize(width: 0, height: 48)
    }
}

/// The photo-library example: one collection, "photos", of albums of generated
/// photos in a grid or a list, edited by every viewer.
public enum PhotoLibraryExample {
    /// The sizes ``add(to:size:)`` takes.
    public static let sizes = ["photos", "small", "large"]

    /// The photos' model at `size` ("photos", "small" or "large"), for code that
    /// builds a hub of its own (the benchmarks).
    public static func model(_ size: String = "photos") -> CollectionModel { PhotoLibraryDemo.makeModel(size) }

    /// The photos' item factory and layouts (grid, list, mosaic, waterfall, filmstrip).
    public static var design: some ItemFactory & LayoutPolicy { PhotoLibraryDemo() }

    /// Adds the "photos" collection to `server`: "photos" is 4 albums, 2,200
    /// photos; "small" 3 albums of 12; "large" 100,000 photos.
    public static func add(to server: CollectionServer, size: String = "photos") {
        let collection = server.addCollection(named: "photos")
        collection.load(PhotoLibraryDemo.makeModel(size))
        collection.setItemFactory(PhotoLibraryDemo())
        collection.setLayoutPolicy(PhotoLibraryDemo())
        collection.allowedEdits = .all
        collection.setPermissions(PhotoLibraryDemo.permissions)
        collection.setDropDelegate(ModelDropDelegate(foldersTakeDrops: false))
        collection.delegate = PhotoMenus()
        // UIKit's backgroundView as an empty state: shown while there are no photos.
        collection.setBackgroundView { model in
            model.snapshot.numberOfItems > 0 ? nil
                : CellContent(template: "empty", fields: ["title": "No photos", "detail": "Insert some, or drop text, links or files here."])
        }
    }
}

extension PhotoLibraryDemo {
    /// The examples' rule: anonymous visitors (the demo with no login) and signed-in
    /// users with the role `editor` may do everything; other signed-in users may
    /// watch and select.
    public static func permissions(_ viewer: Viewer) -> ViewerPermissions {
        viewer.user == nil || viewer.roles.contains("editor") ? .all : [.view, .select]
    }
}
