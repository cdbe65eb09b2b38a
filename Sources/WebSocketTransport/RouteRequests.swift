/// Requests to the app's routes between their headers and their answer: how many
/// wait (in all and per address), which answer belongs to which connection, and
/// which waited too long. Pure: `Key` is a connection's handle on the service
/// thread, anything hashable in tests.
public struct RouteRequests<Key: Hashable> {
    /// How many may wait, and for how long.
    public struct Limits: Sendable {
        /// Requests waiting for their answer at once, from everyone.
        public var maxPending = 256
        /// Requests waiting at once from one address.
        public var maxPendingPerAddress = 32
        /// Seconds a handler may take before the request is answered 504.
        public var timeout = 30.0

        /// Limits: `maxPending` in all, `maxPendingPerAddress` from one address, `timeout` seconds.
        public init(maxPending: Int = 256, maxPendingPerAddress: Int = 32, timeout: Double = 30) {
            self.maxPending = maxPending
            self.maxPendingPerAddress = maxPendingPerAddress
            self.timeout = timeout
        }
    }

    /// One request: its number, its address, its body so far and, once the app
    /// answered, the answer waiting to be written.
    public struct Pending {
        /// Its number, unique for the server's life.
        public let id: UInt64
        /// Who sent it.
        public let address: String
        /// When its headers were read (seconds on a monotonic clock).
        public let started: Double
        /// The request (its body grows as it arrives).
        public var request: HTTPRequest
        var handler: HTTPRouter.Handler
        /// Whether the handler has it.
        public var dispatched = false
        /// The answer, once there is one.
        public var response: HTTPResponse?
    }

    /// The limits it keeps.
    public let limits: Limits
    /// The requests, by connection.
    public private(set) var pending: [Key: Pending] = [:]
    private var keys: [UInt64: Key] = [:]
    private var perAddress: [String: Int] = [:]
    private var nextID: UInt64 = 0

    /// None waiting, under `limits`.
    public init(limits: Limits) { self.limits = limits }

    /// Why a new request from `address` must wait (503), or nil when it may start.
    public func refusal(from address: String) -> String? {
        if pending.count >= limits.maxPending { return "the server is answering \(pending.count) requests; try again shortly" }
        if perAddress[address, default: 0] >= limits.maxPendingPerAddress {
            return "your address has \(limits.maxPendingPerAddress) requests waiting; try again shortly"
        }
        return nil
    }

    /// Starts a request on `key` (a connection has one request at a time).
    public mutating func begin(_ key: Key, address: String, request: HTTPRequest, handler: @escaping HTTPRouter.Handler, now: Double) {
        finish(key)
        nextID += 1
        pending[key] = Pending(id: nextID, address: address, started: now, request: request, handler: handler)
        keys[nextID] = key
        perAddress[address, default: 0] += 1
    }

    /// Adds body bytes; false when the body would pass `limit`.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, to key: Key, limit: Int) -> Bool {
        guard pending[key] != nil else { return false }
        guard pending[key]!.request.body.count + bytes.count <= limit else { return false }
        pending[key]!.request.body.append(contentsOf: bytes)
        return true
    }

    /// The request on `key`, marked as handed to the app (nil when there is none or
    /// it already was).
    public mutating func dispatch(_ key: Key) -> (id: UInt64, request: HTTPRequest, handler: HTTPRouter.Handler)? {
        guard let p = pending[key], !p.dispatched else { return nil }
        pending[key]!.dispatched = true
        return (p.id, p.request, p.handler)
    }

    /// The app's answer to request `id`: the connection to write it on, or nil when
    /// the request is gone (its connection closed, or it was answered 504).
    public mutating func answer(_ id: UInt64, with response: HTTPResponse) -> Key? {
        guard let key = keys[id], pending[key]?.response == nil else { return nil }
        pending[key]!.response = response
        return key
    }

    /// Handed to the app more than ``Limits/timeout`` ago with no answer: each is
    /// given a 504 answer, and its connection returned to be written on.
    public mutating func expire(now: Double) -> [Key] {
        var late: [Key] = []
        for (key, p) in pending where p.dispatched && p.response == nil && now - p.started > limits.timeout {
            pending[key]!.response = .text("the app did not answer within \(RouteRequests.seconds(limits.timeout)) s\n", status: 504)
            late.append(key)
        }
        return late
    }

    /// The answer to write on `key`, if one is ready; the request ends.
    public mutating func takeResponse(_ key: Key) -> (request: HTTPRequest, response: HTTPResponse)? {
        guard let p = pending[key], let response = p.response else { return nil }
        finish(key)
        return (p.request, response)
    }

    /// The request on `key` ends (answered, or its connection closed).
    public mutating func finish(_ key: Key) {
        guard let p = pending.removeValue(forKey: key) else { return }
        keys[p.id] = nil
        perAddress[p.address, default: 1] -= 1
        if perAddress[p.address] == 0 { perAddress[p.address] = nil }
    }

    /// How many wait.
    public var count: Int { pending.count }

    static func seconds(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
}
