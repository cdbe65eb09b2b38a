import CLibWebSockets
import Foundation
import Synchronization
import Locking

/// The one thread that runs a context's event loop (`lws_service`, or a turn given), and the inbox through
/// which other threads reach it: they append a command and wake the loop with
/// `lws_cancel_service`, the only lws call that is safe off the service thread.
final class ServiceLoop<Command: Sendable>: Sendable {
    /// A context pointer; lws_cancel_service is the one call made on it off the service thread.
    private struct Context: @unchecked Sendable { let pointer: OpaquePointer }

    private struct State {
        var commands: [Command] = []
        var context: Context?
        var stopping = false
        var started = false
    }

    private let state = Locked(State())
    private let serviceThread = Atomic<UInt>(0)
    private let finished = DispatchSemaphore(value: 0)
    private let name: String

    init(name: String) { self.name = name }

    /// True on the service thread itself.
    var isServiceThread: Bool { serviceThread.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Queues a command and wakes the loop; false once the loop has stopped.
    @discardableResult
    func post(_ command: Command) -> Bool {
        state.withLock { s in
            guard let context = s.context, !s.stopping else { return false }
            s.commands.append(command)
            lws_cancel_service(context.pointer)
            return true
        }
    }

    /// Takes every queued command (service thread).
    func drain() -> [Command] {
        state.withLock { s in
            let commands = s.commands
            s.commands.removeAll(keepingCapacity: true)
            return commands
        }
    }

    /// Starts the thread servicing `context`; `teardown` runs on that thread after
    /// the loop ends and must destroy the context.
    /// `turn` runs one turn of the loop (`lws_service` unless given; negative ends
    /// the loop), and `afterTurn` runs on that thread after every turn.
    func start(context: OpaquePointer, turn: (@Sendable () -> Int32)? = nil, afterTurn: @escaping @Sendable () -> Void = {},
               teardown: @escaping @Sendable () -> Void) {
        let handle = Context(pointer: context)
        state.withLock { s in
            s.context = handle
            s.started = true
        }
        let thread = Thread { [self] in
            // Named from the thread itself (`Thread.name` may not reach the OS thread;
            // see BackgroundThread.nameCurrentThread).
            try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            serviceThread.store(UInt(pthread_self()), ordering: .releasing)
            while true {
                let (context, stopping) = state.withLock { ($0.context, $0.stopping) }
                guard let context, !stopping else { break }
                if (turn?() ?? lws_service(context.pointer, 0)) < 0 { break }
                afterTurn()
            }
            state.withLock { $0.context = nil }
            teardown()
            finished.signal()
        }
        thread.start()
    }

    /// Asks the loop to end and, when `waiting`, waits for it (never on the service
    /// thread itself). Callers in an async function or a task pass false: the thread
    /// tears down what it made by itself.
    func stop(waiting: Bool = true) {
        let wait = state.withLock { s -> Bool in
            guard s.started, !s.stopping else { return false }
            s.stopping = true
            if let context = s.context { lws_cancel_service(context.pointer) }
            return true
        }
        if wait && waiting && !isServiceThread { finished.wait() }
    }
}
