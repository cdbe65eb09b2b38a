import Foundation

/// A value behind a pthread mutex. Used instead of `Synchronization.Mutex` where
/// threads contend: on Linux that Mutex waits on a futex ThreadSanitizer cannot
/// see, so every contended access was reported as a race (a false positive that
/// would hide real ones). A pthread mutex is understood by TSan and costs the same.
final class Locked<State>: @unchecked Sendable {
    private var state: State
    // Its own allocation: a pthread mutex must not move, and `&property` on a
    // class property is not guaranteed to be a stable address.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(_ state: State) {
        self.state = state
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
