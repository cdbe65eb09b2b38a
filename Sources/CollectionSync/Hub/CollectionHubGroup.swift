import CollectionProtocol
import Foundation

/// Several collections served together (a board's columns, say): each connection
/// watches one, chosen by `hello.collection`, and items dragged from one may be
/// dropped onto another. Pure, like the hubs: events in, messages out.
public final class CollectionHubGroup {
    /// The hubs, in the order given; the first is the default for a `hello` without a collection.
    public let hubs: [CollectionHub]
    private let byName: [String: CollectionHub]
    /// Which hub each helloed connection belongs to.
    private var route: [UInt64: CollectionHub] = [:]
    /// Connections that have not said which collection they watch, with when they opened.
    private var pending: [UInt64: Double] = [:]
    /// Who is behind each connection, when authentication said.
    private var identities: [UInt64: Identity] = [:]

    /// Groups `hubs` (their names must differ). Viewer ids begin with
    /// `viewerPrefix` (a node's name among several servers: `a-v3`).
    public init(_ hubs: [CollectionHub], viewerPrefix: String = "") {
        precondition(!hubs.isEmpty, "a group needs a hub")
        self.hubs = hubs
        byName = Dictionary(hubs.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        precondition(byName.count == hubs.count, "hub names must differ")
        let numbering = ViewerNumbering()
        numbering.prefix = viewerPrefix
        for hub in hubs {
            hub.group = self
            hub.viewers.numbering = numbering
        }
    }

    /// The hub called `name`.
    public func hub(named name: String) -> CollectionHub? { byName[name] }

    /// The hub a connection watches, once it said hello.
    public func hub(of key: UInt64) -> CollectionHub? { route[key] }

    /// A connection opened (at `now`, in seconds), by `identity` when authentication
    /// established one; it picks a collection with its `hello`.
    public func connect(_ key: UInt64, at now: Double = 0, identity: Identity? = nil) {
        pending[key] = now
        identities[key] = identity
    }

    /// Connections still without a `hello` that opened before `deadline`: the server
    /// closes them (a socket held open without a hello holds a slot for nothing).
    public func connectionsWithoutHello(openedBefore deadline: Double) -> [UInt64] {
        pending.filter { $0.value < deadline }.map(\.key).sorted()
    }

    /// Whether the connection said hello and was welcomed (it watches a collection).
    public func hasSaidHello(_ key: UInt64) -> Bool { route[key]?.viewers[key]?.ready ?? false }

    /// What a shared store must lock before a message from `key` is handled
    /// (``CollectionHub/changeLock(for:from:)``); nil before its hello.
    package func changeLock(for bytes: [UInt8], from key: UInt64) -> (collections: [String], op: String?)? {
        route[key]?.changeLock(for: bytes, from: key)
    }

    /// A text message: the first must be a `hello`, which picks the hub.
    public func receive(_ bytes: [UInt8], from key: UInt64) -> [Outgoing] {
        if let hub = route[key] { return hub.receive(bytes, from: key) }
        guard pending[key] != nil else { return [] }
        let name: String?
        do {
            guard case .hello(let hello) = try ClientMessage.decode(bytes) else {
                return [Outgoing(viewer: key, message: .error(code: .notReady, message: "send 'hello' first", op: nil))]
            }
            name = hello.collection
        } catch {
            return [Outgoing.refusal(error, to: key)]
        }
        guard let hub = name.map({ byName[$0] }) ?? hubs.first else {
            let names = hubs.map(\.name).joined(separator: ", ")
            return [Outgoing(viewer: key, message: .error(
                code: .unknownCollection, message: "no collection named '\(name?.prefix(64) ?? "")'; this server holds \(names)", op: nil))]
        }
        pending[key] = nil
        route[key] = hub
        hub.connect(key, identity: identities.removeValue(forKey: key))
        return hub.receive(bytes, from: key)
    }

    /// A binary frame: refused by the hub (or before hello).
    public func receiveBinary(from key: UInt64) -> [Outgoing] {
        if let hub = route[key] { return hub.receiveBinary(from: key) }
        return [Outgoing(viewer: key, message: .error(code: .binaryUnsupported, message: "binary frames are not part of collection.v1; send JSON text", op: nil))]
    }

    /// The end of a turn of the server's loop: presence changes go out (see
    /// ``CollectionHub/endTurn()``).
    public func endTurn() -> [Outgoing] { hubs.flatMap { $0.endTurn() } }

    /// A connection closed.
    public func disconnect(_ key: UInt64) -> [Outgoing] {
        pending[key] = nil
        identities[key] = nil
        return route.removeValue(forKey: key)?.disconnect(key) ?? []
    }
}
