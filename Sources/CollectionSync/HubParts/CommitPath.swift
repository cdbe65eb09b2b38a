/// The path a node's batches take to its store, as a value that does no I/O: which
/// batches are being appended, which wait for the turn's transaction, which messages
/// wait for them to be kept, and (with a store several servers share) the edit that
/// holds their collections' locks. Each call says what its owner must do (start an
/// append, wait for it, append, commit or cancel an edit, deliver), and the owner
/// reports how it went (swift-nio's manner: the state machine returns actions).
///
/// - A store of the node's own (group commit): a turn's first batch starts appending
///   at once, off the service thread, while the turn works out what each viewer gets;
///   later batches of the turn are staged and appended in one more transaction when
///   the turn ends. Messages sent while any of them is unkept are held, in order.
/// - A shared store: an edit is opened on the collections a message may change (their
///   locks taken); each batch joins its transaction. An edit of one collection commits
///   as its batch joins, before the batch is applied; one of several commits when the
///   turn ends, and messages wait for it.
///
/// Used by the server's engine and by the tests' `JournaledHub`, so both run this path.
package struct CommitPath: Sendable {
    /// Where the path is.
    package enum State: Equatable, Sendable {
        /// Nothing is being kept: messages go out at once.
        case idle
        /// `first` is being appended off the thread; `staged` wait for the turn's end.
        case appending(first: [CommittedBatch], staged: [CommittedBatch])
        /// A shared store's edit holds the locks of `names`; `batches` joined it.
        case editOpen(names: [String], batches: [CommittedBatch])
        /// The turn ends: waiting for the append of `first`; `staged` follow.
        case endingAppend(first: [CommittedBatch], staged: [CommittedBatch])
        /// The turn ends: the staged `batches` are being appended.
        case endingStaged([CommittedBatch])
        /// The turn ends: the shared edit that `batches` joined is being committed (or,
        /// with none, cancelled).
        case endingEdit([CommittedBatch])
    }

    /// What the owner does next while a turn ends.
    package enum Step: Equatable, Sendable {
        /// Wait for the append started by ``stage(_:)``, then report ``appendEnded(_:)``.
        case waitForAppend
        /// Append these batches in one transaction, then report ``appendEnded(_:)``.
        case append([CommittedBatch])
        /// Commit the shared edit, then report ``editEnded(_:)``.
        case commitEdit
        /// Cancel the shared edit (it appended nothing), then report ``editEnded(_:)`` with nil.
        case cancelEdit
        /// The turn is over. When `lost` is set, its batches were not kept: the owner puts
        /// their collections back to what the store holds and drops the messages to
        /// their viewers (who reconnect); then it sends `messages`, in order.
        case deliver(_ messages: [Outgoing], lost: Lost?)
    }

    /// Batches a store failed to keep, and why.
    package struct Lost: Equatable, Sendable {
        package var error: StoreError
        package var batches: [CommittedBatch]
        /// The collections they belong to.
        package var collections: Set<String> { Set(batches.map(\.collection)) }

        package init(error: StoreError, batches: [CommittedBatch]) {
            self.error = error
            self.batches = batches
        }
    }

    /// Where the path is.
    package private(set) var state: State = .idle
    /// Messages waiting for batches to be kept, in the order they were sent.
    package private(set) var held: [Outgoing] = []

    package init() {}

    /// The collections an open shared edit has locked (nil: none is open).
    package var openEdit: [String]? {
        if case let .editOpen(names, _) = state { return names }
        return nil
    }

    // MARK: A store of the node's own

    /// A batch a hub accepted. The first of a turn is returned: the owner starts
    /// appending it at once, off the thread; later ones wait for the turn's end.
    /// - Returns: the batches to start appending now, or nil.
    package mutating func stage(_ batch: CommittedBatch) -> [CommittedBatch]? {
        switch state {
        case .idle:
            state = .appending(first: [batch], staged: [])
            return [batch]
        case let .appending(first, staged):
            state = .appending(first: first, staged: staged + [batch])
            return nil
        default:
            preconditionFailure("a batch staged while \(state)")
        }
    }

    // MARK: A shared store

    /// An edit of the shared store was opened on `names` (their rows locked).
    package mutating func editOpened(on names: [String]) {
        precondition(state == .idle, "an edit opened while \(state)")
        state = .editOpen(names: names, batches: [])
    }

    /// A batch joined the open edit's transaction.
    /// - Returns: whether the owner commits the edit now: an edit of one collection
    ///   commits before its batch is applied (the row lock is not held through the
    ///   fan-out, and a commit that fails refuses the edit with nothing applied).
    package mutating func joined(_ batch: CommittedBatch) -> Bool {
        guard case let .editOpen(names, batches) = state else { preconditionFailure("a batch joined no edit (\(state))") }
        if names.count <= 1 {
            state = .idle
            return true
        }
        state = .editOpen(names: names, batches: batches + [batch])
        return false
    }

    // MARK: Messages and the turn's end

    /// Messages to send: what may go out now (nothing unkept is ahead of them); the
    /// rest is held, in order, until the turn ends.
    package mutating func send(_ out: [Outgoing]) -> [Outgoing] {
        let waits = switch state {
        case .idle: !held.isEmpty
        case let .editOpen(_, batches): !batches.isEmpty || !held.isEmpty
        default: true
        }
        guard waits else { return out }
        held += out
        return []
    }

    /// The turn ends: what the owner does first.
    package mutating func endTurn() -> Step {
        switch state {
        case .idle:
            return finish(lost: nil)
        case let .appending(first, staged):
            state = .endingAppend(first: first, staged: staged)
            return .waitForAppend
        case let .editOpen(_, batches):
            state = .endingEdit(batches)
            return batches.isEmpty ? .cancelEdit : .commitEdit
        default:
            preconditionFailure("a turn ended while \(state)")
        }
    }

    /// The append the path asked for ended (nil: its batches are kept).
    package mutating func appendEnded(_ error: StoreError?) -> Step {
        switch state {
        case let .endingAppend(first, staged):
            if let error { return finish(lost: Lost(error: error, batches: first + staged)) }
            if staged.isEmpty { return finish(lost: nil) }
            state = .endingStaged(staged)
            return .append(staged)
        case let .endingStaged(batches):
            return finish(lost: error.map { Lost(error: $0, batches: batches) })
        default:
            preconditionFailure("an append ended while \(state)")
        }
    }

    /// The shared edit the path asked to end was committed (nil) or failed.
    package mutating func editEnded(_ error: StoreError?) -> Step {
        guard case let .endingEdit(batches) = state else { preconditionFailure("an edit ended while \(state)") }
        return finish(lost: error.map { Lost(error: $0, batches: batches) })
    }

    private mutating func finish(lost: Lost?) -> Step {
        state = .idle
        defer { held = [] }
        return .deliver(held, lost: lost)
    }
}
