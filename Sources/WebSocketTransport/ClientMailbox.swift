import Synchronization

/// Hands what the service thread receives to async waiters, one message each,
/// in order, with time-outs. Thread-safe.
final class ClientMailbox: Sendable {
    enum Next: Sendable {
        case message(WebSocketMessage)
        case closed
        case timedOut
    }

    enum Open: Sendable {
        case open
        case failed(String)
        case timedOut
    }

    private struct State {
        var messages: [WebSocketMessage] = []
        var head = 0
        var opened = false
        var failure: String?
        var closed = false
        var closeCode: Int?
        var waiter: (id: UInt64, continuation: CheckedContinuation<Next, Never>)?
        var openWaiter: (id: UInt64, continuation: CheckedContinuation<Open, Never>)?
        var nextWaiterID: UInt64 = 0
    }

    private let state = Mutex(State())

    var isClosed: Bool { state.withLock { $0.closed } }
    var closeCode: Int? { state.withLock { $0.closeCode } }

    // MARK: service thread

    func didOpen() {
        let waiter = state.withLock { s in
            s.opened = true
            defer { s.openWaiter = nil }
            return s.openWaiter
        }
        waiter?.continuation.resume(returning: .open)
    }

    func didFail(_ why: String) {
        let (open, next) = state.withLock { s in
            s.failure = why
            s.closed = true
            defer { s.openWaiter = nil; s.waiter = nil }
            return (s.openWaiter, s.waiter)
        }
        open?.continuation.resume(returning: .failed(why))
        next?.continuation.resume(returning: .closed)
    }

    func didReceive(_ message: WebSocketMessage) {
        let waiter = state.withLock { s in
            if let w = s.waiter {
                s.waiter = nil
                return Optional(w)
            }
            s.messages.append(message)
            return nil
        }
        waiter?.continuation.resume(returning: .message(message))
    }

    func didPeerClose(code: Int?) {
        state.withLock { $0.closeCode = $0.closeCode ?? code }
    }

    func didClose() {
        let (open, next) = state.withLock { s in
            s.closed = true
            defer { s.openWaiter = nil; s.waiter = nil }
            return (s.openWaiter, s.waiter)
        }
        open?.continuation.resume(returning: .failed(s_closedBeforeOpen))
        next?.continuation.resume(returning: .closed)
    }

    // MARK: any task

    func waitForOpen(timeout: Duration) async -> Open {
        await withCheckedContinuation { (continuation: CheckedContinuation<Open, Never>) in
            let (now, id): (Open?, UInt64) = state.withLock { s in
                if s.opened { return (.open, 0) }
                if let failure = s.failure { return (.failed(failure), 0) }
                if s.closed { return (.failed(s_closedBeforeOpen), 0) }
                s.nextWaiterID += 1
                s.openWaiter = (s.nextWaiterID, continuation)
                return (nil, s.nextWaiterID)
            }
            if let now { return continuation.resume(returning: now) }
            Task { [self] in
                try? await Task.sleep(for: timeout)
                let expired = state.withLock { s in
                    guard let w = s.openWaiter, w.id == id else { return Optional<CheckedContinuation<Open, Never>>.none }
                    s.openWaiter = nil
                    return w.continuation
                }
                expired?.resume(returning: .timedOut)
            }
        }
    }

    func next(timeout: Duration) async -> Next {
        await withCheckedContinuation { (continuation: CheckedContinuation<Next, Never>) in
            let (now, id): (Next?, UInt64) = state.withLock { s in
                if s.head < s.messages.count {
                    let m = s.messages[s.head]
                    s.head += 1
                    if s.head == s.messages.count {
                        s.messages.removeAll(keepingCapacity: true)
                        s.head = 0
                    }
                    return (.message(m), 0)
                }
                if s.closed { return (.closed, 0) }
                s.nextWaiterID += 1
                s.waiter = (s.nextWaiterID, continuation)
                return (nil, s.nextWaiterID)
            }
            if let now { return continuation.resume(returning: now) }
            Task { [self] in
                try? await Task.sleep(for: timeout)
                let expired = state.withLock { s in
                    guard let w = s.waiter, w.id == id else { return Optional<CheckedContinuation<Next, Never>>.none }
                    s.waiter = nil
                    return w.continuation
                }
                expired?.resume(returning: .timedOut)
            }
        }
    }
}

private let s_closedBeforeOpen = "closed before the handshake completed"
