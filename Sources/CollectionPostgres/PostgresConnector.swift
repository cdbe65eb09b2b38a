import CollectionSync
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Makes connections to one PostgreSQL server and runs statements on them, every
/// wait bounded on the waiting thread (``BoundedWaits``): a connection that does
/// not come, or a statement that gets no answer, within ``queryTimeout`` fails
/// (and the statement's connection is closed). Holds no connection itself.
final class PostgresConnector: Sendable {
    /// Where the server is.
    let url: PostgresURL
    /// How to connect, tried in turn (see ``PostgresURL/makeConfigurations()``),
    /// each with its TLS context made once.
    let configurations: [PostgresConnection.Configuration]
    /// The event loop every connection runs on.
    let loop: any EventLoop
    /// Every wait on a future.
    let waits: BoundedWaits
    /// Seconds a connection or a statement may take.
    let queryTimeout: Double
    let logger: Logger
    /// Numbers connections for postgres-nio's logs.
    private let serial = Atomic<Int>(0)

    init(url: PostgresURL, loop: any EventLoop, waits: BoundedWaits, queryTimeout: Double, logger: Logger) throws(StoreError) {
        self.url = url
        configurations = try url.makeConfigurations()
        self.loop = loop
        self.waits = waits
        self.queryTimeout = queryTimeout
        self.logger = logger
    }

    /// A new connection; throws (quickly) while the server is unreachable, and
    /// after ``queryTimeout`` when it does not answer. With `sslmode=allow`, a server
    /// that refuses a connection without TLS is asked again with it, and a failure
    /// of both says what each attempt met.
    func connect() throws(StoreError) -> PostgresConnection {
        var failures: [String] = []
        for (attempt, configuration) in configurations.enumerated() {
            do {
                let id = serial.wrappingAdd(1, ordering: .relaxed).newValue
                let made = PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger)
                guard let c = try waits.value(of: made, within: queryTimeout) else {
                    made.whenSuccess { late in Self.close(late) }
                    throw StoreError(.failed, waits.isCutShort ? "the server is stopping" : "no answer in \(queryTimeout) s")
                }
                return c
            } catch {
                let why = url.tlsProblem(error) ?? Self.describe(error)
                failures.append(configurations.count == 1 ? why : (attempt == 0 ? "without TLS: " : "with TLS: ") + why)
            }
        }
        throw StoreError(.failed, "cannot reach PostgreSQL at \(url.description): \(failures.joined(separator: "; "))")
    }

    /// Runs a statement, giving its rows; a failure says what PostgreSQL said.
    /// `lost` is told first when the failure leaves `c` unusable (it was closed, or
    /// it did not answer and was closed).
    ///
    /// A statement on a closed connection fails at once: postgres-nio (1.33) never
    /// answers one written to a closed channel, so a connection the server ended
    /// (`pg_terminate_backend`) would otherwise hang its caller.
    func run(_ query: PostgresQuery, on c: PostgresConnection, lost: (PostgresConnection) -> Void) throws(StoreError) -> [PostgresRow] {
        var timedOut = false
        do {
            guard !c.isClosed else { throw StoreError(.failed, "the connection was closed") }
            guard let answer = try waits.value(of: c.query(query, logger: logger), within: queryTimeout) else {
                timedOut = true
                Self.close(c)
                throw StoreError(.failed, waits.isCutShort ? "the server is stopping; the statement was abandoned and its connection closed"
                                                           : "no answer in \(queryTimeout) s; the connection was closed")
            }
            return answer.rows
        } catch {
            if c.isClosed || timedOut { lost(c) }
            throw StoreError(.failed, "PostgreSQL: \(Self.describe(error))")
        }
    }

    /// Closes `c` without waiting, keeping it until it is closed (postgres-nio
    /// checks that a connection is closed before it goes away).
    static func close(_ c: PostgresConnection) {
        c.close().whenComplete { _ in withExtendedLifetime(c) {} }
    }

    /// `error` as a store's error (one already is kept as it is).
    static func storeError(_ error: any Error) -> StoreError {
        error as? StoreError ?? StoreError(.failed, "PostgreSQL: \(describe(error))")
    }

    /// What PostgreSQL said (its message), or the error's own words.
    static func describe(_ error: any Error) -> String {
        if let psql = error as? PSQLError {
            if let message = psql.serverInfo?[.message] { return message }
            return "\(psql.code)\(psql.underlying.map { " (\($0))" } ?? "")"
        }
        return "\(error)"
    }
}
