/// What handling a viewer's message costs the server, on the hub's clock: the
/// seconds from its arrival to its answer (encoding included), less those spent in
/// the app's callbacks and in waits on storage (``uncharged(_:)``), which are the
/// app's and the store's doing, not the viewer's. Spans inside spans (an app's
/// callback that changes the collection, whose batch waits on the store) count once.
package final class ServerTimeMeter {
    /// When a message began, and the seconds not charged until then.
    package struct Start {
        package let at: Double
        package let uncharged: Double
    }

    private let clock: @Sendable () -> Double
    /// Seconds spent in uncharged spans since the meter was made.
    package private(set) var unchargedSeconds = 0.0
    /// How many uncharged spans are open (only the outermost is timed).
    private var depth = 0

    /// A meter on `clock` (seconds).
    package init(clock: @escaping @Sendable () -> Double) { self.clock = clock }

    /// The time now.
    package func now() -> Double { clock() }

    /// A message begins.
    package func start() -> Start { Start(at: clock(), uncharged: unchargedSeconds) }

    /// The seconds to charge for the message that began at `start`, and the time it ended.
    package func charge(since start: Start) -> (seconds: Double, at: Double) {
        let done = clock()
        return (max(0, done - start.at - (unchargedSeconds - start.uncharged)), done)
    }

    /// Runs `body`, its time not charged to the viewer.
    package func uncharged<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        depth += 1
        guard depth == 1 else {
            defer { depth -= 1 }
            return try body()
        }
        let began = clock()
        defer {
            unchargedSeconds += max(0, clock() - began)
            depth -= 1
        }
        return try body()
    }
}
