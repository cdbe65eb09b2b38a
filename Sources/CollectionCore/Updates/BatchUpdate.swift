import Foundation

/// A move of one item inside a batch: from its index path before the batch to its index path after.
public struct ItemMove: Equatable, Hashable, Sendable {
    /// Index path before the batch.
    public var from: IndexPath
    /// Index path after the batch.
    public var to: IndexPath

    /// Creates a move.
    /// - Parameters:
    ///   - from: The item's index path before the batch.
    ///   - to: Its index path after.
    public init(from: IndexPath, to: IndexPath) {
        self.from = from
        self.to = to
    }
}

/// A move of one section inside a batch: from its index before the batch to its index after.
public struct SectionMove: Equatable, Hashable, Sendable {
    /// Index before the batch.
    public var from: Int
    /// Index after the batch.
    public var to: Int

    /// Creates a section move.
    /// - Parameters:
    ///   - from: The section's index before the batch.
    ///   - to: Its index after.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}

/// One batch of changes with UIKit's index-path rules (`performBatchUpdates`):
/// deletes, reloads and section deletes name positions BEFORE the batch; inserts
/// and section inserts name positions AFTER it; a move names both.
public struct BatchUpdate: Equatable, Sendable {
    /// Sections deleted (old indexes).
    public var deletedSections: [Int] = []
    /// Sections inserted (new indexes).
    public var insertedSections: [Int] = []
    /// Sections moved, with their items (old index to new index).
    public var movedSections: [SectionMove] = []
    /// Items deleted (old index paths).
    public var deletedItems: [IndexPath] = []
    /// Items inserted (new index paths).
    public var insertedItems: [IndexPath] = []
    /// Items moved.
    public var movedItems: [ItemMove] = []
    /// Items reloaded (old index paths): a fresh cell.
    public var reloadedItems: [IndexPath] = []
    /// Items reconfigured (old index paths): the same cell, configured again.
    public var reconfiguredItems: [IndexPath] = []

    /// An empty batch.
    public init() {}

    /// True when the batch changes nothing.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && movedSections.isEmpty && deletedItems.isEmpty
            && insertedItems.isEmpty && movedItems.isEmpty && reloadedItems.isEmpty && reconfiguredItems.isEmpty
    }
}

/// Why a batch was refused; `description` reads as UIKit's exception.
public struct InvalidBatchUpdate: Error, Equatable, CustomStringConvertible, Sendable {
    /// The message, naming the section and the counts that disagree.
    public let description: String
    /// Creates an error with `description`.
    /// - Parameter description: The message.
    public init(_ description: String) { self.description = description }
}
