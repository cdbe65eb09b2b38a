import CollectionProtocol
import CollectionSync
import Foundation

/// Presence across the servers (nodes) sharing a store: each hub's selections,
/// focus, drags, joins and leaves are relayed to the other nodes through the
/// store (`NOTIFY`, never stored), whose hubs show them to their viewers. Every
/// node says it is alive every ``Engine/presenceInterval`` seconds; one not heard
/// from for three intervals takes its viewers with it. A node heard from for the
/// first time is told who is here, and asked who is there.
extension Engine {
    /// Seconds between a node's "alive" messages.
    static let presenceInterval = 2.0

    /// Relays the presence `message` of the hub called `name` to the other nodes.
    func relayPresence(of name: String, _ message: ServerMessage) {
        shared?.publish(presence: name + "\n" + String(decoding: message.encoded(), as: UTF8.self))
    }

    /// Relays what the hubs kept to relay (``NodeLink/takeRelayed()``), hub by hub in order.
    func relayPresence() {
        for hub in hubs {
            for message in hub.nodes.takeRelayed() { relayPresence(of: hub.name, message) }
        }
    }

    /// Sends the whole presence of every stored hub (to a node that has just been heard of).
    private func announce() {
        for hub in hubs where !appManaged.contains(hub.name) {
            for message in hub.nodes.presenceAnnouncement() { relayPresence(of: hub.name, message) }
        }
    }

    /// Presence another node sent: "collection\nmessage", or "*\nalive", "*\nannounce".
    func receivePresence(from node: String, _ payload: String) {
        locked {
            guard shared != nil, let newline = payload.firstIndex(of: "\n") else { return }
            let now = Self.now
            if roster.heard(node, at: now) {
                logger.info("heard from node \(node)")
                announce()
                shared?.publish(presence: "*\nannounce")
            }
            let name = String(payload[..<newline])
            let body = payload[payload.index(after: newline)...]
            if name == "*" {
                if body == "announce" { announce() }
                return
            }
            guard let hub = hubs.first(where: { $0.name == name }), !appManaged.contains(name),
                  let message = try? ServerMessage.decode(Array(body.utf8)) else { return }
            send(hub.nodes.receiveRelayed(message, from: node))
            if depth == 1 { flush() }
        }
    }

    /// Every interval: says this node is alive, and forgets nodes gone silent.
    func presenceTick() {
        locked {
            guard let shared else { return }
            shared.publish(presence: "*\nalive")
            let gone = roster.forget(silentSince: Self.now - 3 * Self.presenceInterval)
            for node in gone { logger.warning("node \(node) fell silent; its viewers leave") }
            if !gone.isEmpty { for hub in hubs { send(hub.nodes.forgetNodes(gone)) } }
            if depth == 1 { flush() }
        }
    }

    /// Starts relaying: hubs relay, the store's presence is heard, the timer runs.
    func startPresence(_ store: any SharedCollectionStore) {
        locked {
            for hub in hubs where !appManaged.contains(hub.name) {
                hub.nodes.relaysPresence = true
            }
        }
        store.observePresence { [weak self] node, payload in self?.receivePresence(from: node, payload) }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.2, repeating: Self.presenceInterval, leeway: .milliseconds(100))
        timer.setEventHandler { [weak self] in self?.presenceTick() }
        timer.resume()
        locked { presenceTimer = timer }
    }
}
