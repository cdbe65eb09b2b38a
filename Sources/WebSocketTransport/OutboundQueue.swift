/// One fragment to hand to `lws_write`.
package struct OutboundFragment: Equatable, Sendable {
    /// The bytes of this fragment.
    package var bytes: ArraySlice<UInt8>
    /// Binary (true) or text (false) message.
    package var binary: Bool
    /// First fragment of its message.
    package var isStart: Bool
    /// Last fragment of its message.
    package var isEnd: Bool
}

/// The per-connection queue of outgoing messages, cut into fragments of at most
/// `fragmentSize` bytes, with a bound on the bytes waiting. A pure state machine.
package struct OutboundQueue: Sendable {
    private struct Pending: Sendable {
        var bytes: [UInt8]
        var binary: Bool
        var offset = 0
    }

    /// Largest fragment written at once.
    package let fragmentSize: Int
    /// Bytes that may wait before `enqueue` refuses.
    package let maxQueuedBytes: Int
    private var pending: [Pending] = []
    private var head = 0
    /// Bytes queued and not yet written.
    package private(set) var queuedBytes = 0
    /// Messages (whole or partly written) waiting: kept here, in line, so that asking
    /// whether the queue is empty (before every message a server writes) reads no
    /// memory of the array's own, a line that is cold by the next batch.
    private var waiting = 0

    /// Creates an empty queue.
    package init(fragmentSize: Int = 16 * 1024, maxQueuedBytes: Int = 16 * 1024 * 1024) {
        precondition(fragmentSize > 0)
        self.fragmentSize = fragmentSize
        self.maxQueuedBytes = maxQueuedBytes
    }

    /// True when nothing waits.
    package var isEmpty: Bool { waiting == 0 }

    /// Number of whole or partial messages waiting.
    package var count: Int { waiting }

    /// Queues a message; returns false (and queues nothing) when the backlog would exceed the bound.
    package mutating func enqueue(_ bytes: [UInt8], binary: Bool) -> Bool {
        guard queuedBytes + bytes.count <= maxQueuedBytes else { return false }
        pending.append(Pending(bytes: bytes, binary: binary))
        queuedBytes += bytes.count
        waiting += 1
        return true
    }

    /// Takes the next fragment to write, or nil when the queue is empty.
    package mutating func nextFragment() -> OutboundFragment? {
        guard head < pending.count else { return nil }
        let message = pending[head]
        let end = min(message.offset + fragmentSize, message.bytes.count)
        let fragment = OutboundFragment(
            bytes: message.bytes[message.offset..<end],
            binary: message.binary,
            isStart: message.offset == 0,
            isEnd: end == message.bytes.count
        )
        queuedBytes -= end - message.offset
        if end == message.bytes.count {
            pending[head] = Pending(bytes: [], binary: false)
            head += 1
            waiting -= 1
            if head > 64 && head * 2 > pending.count {
                pending.removeFirst(head)
                head = 0
            }
        } else {
            pending[head].offset = end
        }
        return fragment
    }
}
