/// A store several servers (nodes) share, which is the authority on order
/// (PostgreSQL): each node serves its own viewers, and every batch any node
/// commits gets the next number of its collection, in one order for all.
///
/// A change goes as one edit: ``beginEdit(_:)`` locks the collections it may
/// touch and hands back what other nodes committed since this node's numbers (the
/// node takes them up before it checks the change, so nothing is checked against
/// a stale state); ``CollectionStore/append(_:)`` joins the edit's transaction;
/// ``commitEdit()`` keeps it all and tells the other nodes, ``cancelEdit()`` keeps
/// nothing. The other nodes hear of it through ``observeCommits(_:)`` and read the
/// batches from ``CollectionStore/log(of:after:)``: the log is the truth, a
/// notification only a hint (they may be merged or lost).
public protocol SharedCollectionStore: CollectionStore {
    /// Begins an edit of the collections named (each with the number of the last
    /// batch this node holds): waits for their locks, held until ``commitEdit()``
    /// or ``cancelEdit()``, and returns the batches other nodes committed after
    /// those numbers, oldest first (per collection).
    /// - Parameter collections: The collections to lock, each with the number of the last batch this node holds.
    /// - Returns: The batches other nodes committed after those numbers (empty: this node is up to date).
    /// - Throws: ``StoreError`` when the database does not answer or the locks cannot be had; no lock is held then.
    func beginEdit(_ collections: [String: Int]) throws(StoreError) -> [CommittedBatch]
    /// Commits the edit's appends; when it returns they are kept, and the other
    /// nodes are told. Throwing, nothing of the edit is kept.
    /// - Throws: ``StoreError``, and nothing of the edit is kept.
    func commitEdit() throws(StoreError)
    /// Ends the edit keeping nothing (its appends are rolled back); the locks go.
    func cancelEdit()
    /// Calls `handler`, on a thread of the store's, with the name of a collection
    /// another node committed to (or of every collection, after the store lost and
    /// regained its connection: notifications may have been missed).
    /// - Parameter handler: Called with a collection's name.
    func observeCommits(_ handler: @escaping @Sendable (String) -> Void)
    /// Sends `payload` to the other nodes (presence: best effort, in order, never
    /// stored; at most 7,000 bytes). Returns at once.
    /// - Parameter payload: What the other nodes' ``observePresence(_:)`` handlers get.
    func publish(presence payload: String)
    /// Calls `handler`, on a thread of the store's, with each payload another node
    /// published and that node's name.
    /// - Parameter handler: Called with the publishing node's name and its payload.
    func observePresence(_ handler: @escaping @Sendable (_ node: String, _ payload: String) -> Void)
}
