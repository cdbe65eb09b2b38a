import CollectionPostgres
import ProjectTestSupport
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// Waits on postgres-nio's futures end by their own deadline, on the waiting
/// thread, whatever the event loop is doing.
@Suite struct BoundedWaitsTests {
    struct Failure: Error {}

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    func seconds(since start: Double) -> Double { BoundedWaits.now - start }

    @Test func aFutureThatCompletesGivesItsValueOrItsError() throws {
        let loop = group.next()
        let waits = BoundedWaits()
        #expect(try waits.value(of: loop.makeSucceededFuture(7), within: 1) == 7)
        #expect(throws: Failure.self) { _ = try waits.value(of: loop.makeFailedFuture(Failure()) as EventLoopFuture<Int>, within: 1) }
        let later = loop.makePromise(of: Int.self)
        loop.scheduleTask(in: .milliseconds(50)) { later.succeed(9) }
        #expect(try waits.value(of: later.futureResult, within: 5) == 9)
    }

    @Test func aWaitEndsByItsDeadlineWhileTheEventLoopIsBlocked() throws {
        let loop = group.next()
        let waits = BoundedWaits()
        let promise = loop.makePromise(of: Int.self)
        // The loop is busy for 2 s: a timer on it could not fire before then.
        let busy = DispatchSemaphore(value: 0)
        loop.execute { busy.wait() }
        defer { busy.signal(); promise.succeed(0) }
        let start = BoundedWaits.now
        #expect(try waits.value(of: promise.futureResult, within: 0.3) == nil)
        let took = seconds(since: start)
        #expect(took >= 0.29 && took < 5, "ended after \(took) s")
    }

    @Test func cuttingShortEndsWaitsUnderWayAndLaterOnes() async throws {
        let loop = group.next()
        let waits = BoundedWaits()
        let never = loop.makePromise(of: Int.self)
        defer { never.succeed(0) }
        let ended = DispatchSemaphore(value: 0)
        let endedAt = Mutex(0.0)
        Thread {
            _ = try? waits.value(of: never.futureResult, within: 60)
            endedAt.withLock { $0 = BoundedWaits.now }
            ended.signal()
        }.start()
        try await Task.sleep(for: .milliseconds(100))
        let cut = BoundedWaits.now
        waits.cutShort(within: 0.2)
        #expect(await signalled(ended, within: 10))
        // Ended by the cut (0.2 s after it, with a margin for a busy machine), not by its minute.
        let ending = endedAt.withLock { $0 } - cut
        #expect(ending >= 0.19 && ending < 3, "ended \(ending) s after the cut")
        #expect(waits.isCutShort)
        // One begun after ends at once.
        let later = BoundedWaits.now
        #expect(try waits.value(of: never.futureResult, within: 60) == nil)
        #expect(seconds(since: later) < 1)
    }
}
