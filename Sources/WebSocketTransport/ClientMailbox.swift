import Locking

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
        /// The time-out task of the current waiter: cancelled as soon as it is answered,
        /// so that tens of thousands of waits do not leave as many sleeping timers.
        var timer: Task<Void, Never>?
    }

    private let state = Locked(State())

    var isClosed: Bool { state.withLock { $0.closed } }
    var closeCode: Int? { state.withLock { $0.closeCode } }

    // MARK: service thread

    func didOpen() {
        let waiter = state.withLock { s in
            s.opened = true
            defer { s.openWaiter = nil; s.timer?.cancel(); s.timer = nil }
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
                s.timer?.cancel()
                s.timer = nil
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
        await wait(timeout: timeout, timedOut: .timedOut, slot: \.openWaiter) { s in
            if s.opened { return .open }
            if let failure = s.failure { return .failed(failure) }
            return s.closed ? .failed(s_closedBeforeOpen) : nil
        }
    }

    func next(timeout: Duration) async -> Next {
        await wait(timeout: timeout, timedOut: .timedOut, slot: \.waiter) { s in
            if s.head < s.messages.count {
                let m = s.messages[s.head]
                s.head += 1
                if s.head == s.messages.count {
                    s.messages.removeAll(keepingCapacity: true)
                    s.head = 0
                }
                return .message(m)
            }
            return s.closed ? .closed : nil
        }
    }

    /// Answers at once when `ready` has an answer; otherwise parks the caller in
    /// `slot` until the service thread answers or `timeout` passes. A waiter is
    /// resumed exactly once: whoever takes it out of `slot` resumes it.
    private func wait<T: Sendable>(
        timeout: Duration, timedOut: T,
        slot: WritableKeyPath<State, (id: UInt64, continuation: CheckedContinuation<T, Never>)?> & Sendable,
        ready: (inout State) -> T?
    ) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let (now, id): (T?, UInt64) = state.withLock { s in
                if let answer = ready(&s) { return (answer, 0) }
                s.nextWaiterID += 1
                s[keyPath: slot] = (s.nextWaiterID, continuation)
                return (nil, s.nextWaiterID)
            }
            if let now { return continuation.resume(returning: now) }
            let timer = Task { [self] in
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return   // answered in time: cancelled
                }
                let expired = state.withLock { s -> CheckedContinuation<T, Never>? in
                    guard let w = s[keyPath: slot], w.id == id else { return nil }
                    s[keyPath: slot] = nil
                    s.timer = nil
                    return w.continuation
                }
                expired?.resume(returning: timedOut)
            }
            state.withLock { s in
                // Keep it only if this wait is still the one pending; else it is already answered.
                if s[keyPath: slot]?.id == id { s.timer = timer } else { timer.cancel() }
            }
        }
    }
}

private let s_closedBeforeOpen = "closed before the handshake completed"
