import CollectionSync
import Foundation
import Synchronization
import Testing

/// Work that may wait runs in order, on a thread at the lowest CPU priority.
@Suite struct BackgroundThreadTests {
    @Test func workRunsInOrderAtTheLowestPriorityAndAgainAfterIdling() {
        let worker = BackgroundThread(name: "test-background")
        let seen = Mutex<[(Int, Int32)]>([])
        let named = Mutex<String?>(nil)
        for k in 0..<5 {
            worker.async {
                usleep(2_000)
                seen.withLock { $0.append((k, BackgroundThread.currentNice)) }
                named.withLock { $0 = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) }
            }
        }
        worker.sync()
        #expect(named.withLock { $0 } == "test-background\n", "the OS thread is not named (top -H shows it)")
        #expect(seen.withLock { $0.map(\.0) } == [0, 1, 2, 3, 4], "sync() returned before the work was done, or it ran out of order")
        #expect(seen.withLock { $0.map(\.1) } == Array(repeating: 19, count: 5))
        #expect(BackgroundThread.currentNice != 19, "the caller's priority is its own")
        // Its thread gone once idle, more work starts another.
        worker.async { seen.withLock { $0.append((5, BackgroundThread.currentNice)) } }
        worker.sync()
        #expect(seen.withLock { $0.last?.0 } == 5 && seen.withLock { $0.last?.1 } == 19)
    }
}
