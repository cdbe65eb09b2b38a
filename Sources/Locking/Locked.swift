import Foundation

/// The library's one lock: a value behind a pthread mutex, taken with
/// ``withLock(_:)``. Every target's shared state uses it, so there is one kind of
/// lock to reason about (threads that park until something happens wait on an
/// `NSCondition`, which is a wait, not a lock).
///
/// Not `Synchronization.Mutex`: on Linux that Mutex waits on a futex
/// ThreadSanitizer cannot see, so every contended access was reported as a race (a
/// false positive that would hide real ones). A pthread mutex is understood by TSan
/// and costs the same.
///
/// A recursive lock (``init(_:recursive:)``) may be taken again by the thread that
/// holds it, through ``whileLocked(_:)``: for code that calls out to an app whose
/// callbacks come back in (the server's engine). Its value must then be `Void`, or
/// read only at the outermost level: two overlapping `inout` accesses to one value
/// stop the program.
package final class Locked<State>: @unchecked Sendable {
    private var state: State
    // Its own allocation: a pthread mutex must not move, and `&property` on a
    // class property is not guaranteed to be a stable address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// `state` behind a new lock; `recursive`: the holder may take it again.
    package init(_ state: State, recursive: Bool = false) {
        self.state = state
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the value to read and change.
    package func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }

    /// Runs `body` with the lock held, not touching the value: what a recursive
    /// lock's holder calls, however deep.
    package func whileLocked<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

extension Locked where State == Void {
    /// A lock that guards no value of its own (the holder's properties, by rule).
    package convenience init(recursive: Bool = false) { self.init((), recursive: recursive) }
}
