import Foundation

extension IndexPath {
    /// An index path to an item in a section, as UIKit's `IndexPath(item:section:)`.
    /// Built as one index plus an append: Foundation keeps two indexes inline, so
    /// this allocates nothing (an array literal would).
    public init(item: Int, section: Int) {
        self.init(index: section)
        append(item)
    }

    /// An index path to a row in a section, as UIKit's `IndexPath(row:section:)`
    /// (a row is an item).
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The section of an item index path (its first index).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }

    /// The item within its section (its second index).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The row within its section, as UIKit's: the same index as ``item``.
    public var row: Int {
        get { self[1] }
        set { self[1] = newValue }
    }
}
