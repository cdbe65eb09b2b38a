import CollectionSync
import Foundation
import NIOCore
import PostgresNIO

extension PostgresCollectionStore {
    /// Listens (on a connection of its own) for other nodes' commits; `handler`
    /// gets each collection's name on a queue of the store's. When that connection
    /// is lost it is made again (after 0.1 s, doubling to 5 s), and `handler` then
    /// gets every collection this node knows: notifications sent meanwhile are lost.
    public func observeCommits(_ handler: @escaping @Sendable (String) -> Void) {
        locked { commitHandler = handler }
        listen(delay: 0, missed: false)
    }

    /// Whether the connection listening for other nodes' commits and presence is up
    /// (its `LISTEN`s done): what a test waits for before another node commits.
    package var isListening: Bool { locked { listener != nil } }

    private func listen(delay: Double, missed: Bool) {
        notifyQueue.asyncAfter(deadline: .now() + delay) { [weak self] in
            guard let self else { return }
            let (isClosed, handler) = locked { (closed, commitHandler) }
            guard !isClosed, let handler else { return }
            do {
                let c = try connect()
                let own = nodeID
                let queue = notifyQueue
                c.addListener(channel: options.channel) { _, notification in
                    let parts = notification.payload.split(separator: " ", maxSplits: 1)
                    guard parts.count == 2, parts[0] != own else { return }
                    let name = String(parts[1])
                    queue.async { handler(name) }
                }
                c.addListener(channel: presenceChannel) { [weak self] _, notification in
                    guard let self, let (node, payload) = presenceFromOthers(notification.payload) else { return }
                    queue.async { [weak self] in
                        guard let handler = self?.locked({ self?.presenceHandler }) else { return }
                        handler(node, payload)
                    }
                }
                try run("LISTEN \(unescaped: options.channel)", on: c)
                try run("LISTEN \(unescaped: presenceChannel)", on: c)
                locked { listener = c }
                if missed {
                    logger.info("listening for other nodes' commits again")
                    for name in locked({ known.sorted() }) { handler(name) }
                }
                // Told on the event loop, which must not take the store's lock (a
                // thread holding it may be waiting for the loop): off to the queue first.
                c.closeFuture.whenComplete { _ in
                    queue.async { [weak self] in
                        guard let self, !locked({ closed }) else { return }
                        logger.warning("lost the connection listening for other nodes' commits; making it again")
                        listen(delay: 0.1, missed: true)
                    }
                }
            } catch {
                logger.warning("cannot listen for other nodes' commits: \(error); trying again")
                listen(delay: min(max(delay * 2, 0.1), 5), missed: true)
            }
        }
    }
}
