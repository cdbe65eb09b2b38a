
import Locking
/// Supplementary and decoration kinds by number, for ``ElementKey``: a key holds its
/// kind's number, not its text, so it is a plain value (no reference count on every
/// copy). A kind gets its number the first time it is seen and keeps it for the
/// life of the process; kinds are named by layouts and apps, never by clients, so
/// the table stays small.
enum ElementKinds {
    /// The numbers of the kinds every flow layout uses (0 is no kind).
    static let sectionHeaderID: UInt32 = 1
    static let sectionFooterID: UInt32 = 2

    private static let table = Locked<(ids: [String: UInt32], names: [String])>((
        ["": 0, CollectionElementKind.sectionHeader: sectionHeaderID, CollectionElementKind.sectionFooter: sectionFooterID],
        ["", CollectionElementKind.sectionHeader, CollectionElementKind.sectionFooter]))

    /// The number of `kind` (given one if it has none yet).
    static func id(_ kind: String) -> UInt32 {
        // The common kinds without the lock (a literal compares by its address first).
        if kind.isEmpty { return 0 }
        if kind == CollectionElementKind.sectionHeader { return sectionHeaderID }
        if kind == CollectionElementKind.sectionFooter { return sectionFooterID }
        return table.withLock { table in
            if let id = table.ids[kind] { return id }
            let id = UInt32(table.names.count)
            table.ids[kind] = id
            table.names.append(kind)
            return id
        }
    }

    /// The kind numbered `id` ("" for 0).
    static func name(_ id: UInt32) -> String {
        switch id {
        case 0: ""
        case sectionHeaderID: CollectionElementKind.sectionHeader
        case sectionFooterID: CollectionElementKind.sectionFooter
        default: table.withLock { $0.names[Int(id)] }
        }
    }
}
