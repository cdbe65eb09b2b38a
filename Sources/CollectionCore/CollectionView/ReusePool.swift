/// The view classes registered for reuse identifiers and the views waiting to be
/// used again (UIKit's reuse queues), one per collection view. It makes no view and
/// calls nothing: the collection view takes a queue and a class from it, and puts
/// the views that leave the display back.
package struct ReusePool {
    /// Empty.
    package init() {}

    /// Cell classes by reuse identifier.
    package private(set) var cellClasses: [String: CollectionViewCell.Type] = [:]
    /// Supplementary view classes by ``supplementaryKey(_:_:)``.
    package private(set) var supplementaryClasses: [String: CollectionReusableView.Type] = [:]
    /// The queues by identifier (cells), by kind and identifier (supplementary views)
    /// or by ``decorationKey(_:)``; made when first needed.
    private var queues: [String: ReuseQueue] = [:]
    /// The queue and class of the last cell reuse identifier dequeued: cells mostly
    /// share one identifier, and this spares hashing it twice for every cell made.
    private var lastCell: (identifier: String, type: CollectionViewCell.Type, queue: ReuseQueue)?

    /// The key of supplementary views of `kind` with reuse identifier `identifier`.
    package static func supplementaryKey(_ kind: String, _ identifier: String) -> String { kind + "\u{1F}" + identifier }

    /// Stops the program as UIKit does when a view of `kind` is dequeued with an identifier nothing was registered for.
    static func unregistered(_ kind: String, _ identifier: String) -> Never {
        fatalError("could not dequeue a view of kind: \(kind) with identifier \(identifier) - must register a nib or a class for the identifier or connect a prototype cell in a storyboard")
    }

    /// The key recycled decoration views of `kind` wait under.
    package static func decorationKey(_ kind: String) -> String { "\u{1E}decoration\u{1F}" + kind }

    /// Views waiting, in every queue.
    package var waitingCount: Int { queues.values.reduce(0) { $0 + $1.views.count } }

    /// Registers `cellClass` for `identifier` (nil unregisters).
    package mutating func register(cell cellClass: CollectionViewCell.Type?, for identifier: String) {
        cellClasses[identifier] = cellClass
        lastCell = nil
    }

    /// Registers `viewClass` for supplementary views of `kind` with `identifier` (nil unregisters).
    package mutating func register(supplementary viewClass: CollectionReusableView.Type?, kind: String, identifier: String) {
        supplementaryClasses[Self.supplementaryKey(kind, identifier)] = viewClass
    }

    /// The class registered for cells with `identifier` and their queue; nil when none is registered.
    package mutating func cell(_ identifier: String) -> (type: CollectionViewCell.Type, queue: ReuseQueue)? {
        if let last = lastCell, last.identifier == identifier { return (last.type, last.queue) }
        guard let type = cellClasses[identifier] else { return nil }
        let queue = self.queue(identifier)
        lastCell = (identifier, type, queue)
        return (type, queue)
    }

    /// A waiting view under `key`, taken out of its queue (not yet prepared for reuse).
    package mutating func take(_ key: String) -> CollectionReusableView? { queues[key]?.views.popLast() }

    /// Puts `view`, which showed `key`, back in its queue.
    package mutating func recycle(_ view: CollectionReusableView, shown key: ElementKey) {
        switch key.category {
        case .cell:
            let identifier = view.reuseIdentifier
            if let last = lastCell, last.identifier == identifier { last.queue.views.append(view) } else { queue(identifier).views.append(view) }
        case .supplementaryView:
            queue(Self.supplementaryKey(key.kind, view.reuseIdentifier)).views.append(view)
        case .decorationView:
            queue(Self.decorationKey(key.kind)).views.append(view)
        }
    }

    private mutating func queue(_ key: String) -> ReuseQueue {
        if let queue = queues[key] { return queue }
        let queue = ReuseQueue()
        queues[key] = queue
        return queue
    }
}
