import PostgresNIO

/// The shared store's tables: `collection` (name, epoch, `seq` the last batch,
/// `base_seq` the batch the stored `model` is at, `next_serial` at the base) and
/// `batch` (collection, seq, body: the batch's JSON).
enum PostgresSchema {
    /// What makes the tables when they are missing: one transaction under an
    /// advisory lock, so that one node at a time makes them (`CREATE … IF NOT
    /// EXISTS` races otherwise).
    static let statements: [PostgresQuery] = [
        "BEGIN",
        "SELECT pg_advisory_xact_lock(7365011)",
        """
        CREATE TABLE IF NOT EXISTS collection (
            name text PRIMARY KEY, epoch text NOT NULL, seq bigint NOT NULL,
            base_seq bigint NOT NULL, next_serial bigint NOT NULL, model bytea NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS batch (
            collection text NOT NULL REFERENCES collection (name) ON DELETE CASCADE,
            seq bigint NOT NULL, body bytea NOT NULL, PRIMARY KEY (collection, seq))
        """,
        "COMMIT",
    ]
}
