/// Reassembles one WebSocket message from the chunks libwebsockets delivers,
/// enforcing a maximum message size. A pure state machine: no I/O.
package struct InboundAssembler: Sendable {
    /// What one chunk produced.
    package enum Outcome: Equatable, Sendable {
        /// More chunks are needed.
        case incomplete
        /// A whole message.
        case message([UInt8], binary: Bool)
        /// The message would exceed the limit: close with 1009.
        case tooLarge(limit: Int)
    }

    /// Largest accepted message, in bytes.
    package let limit: Int
    private var buffer: [UInt8] = []
    private var binary = false
    private var inMessage = false

    /// Creates an assembler that refuses messages over `limit` bytes.
    package init(limit: Int) {
        self.limit = limit
    }

    /// Adds a chunk. `isFinal` is true when this chunk ends the message
    /// (final fragment and no payload left in the frame).
    package mutating func append(_ chunk: UnsafeRawBufferPointer, binary isBinary: Bool, isFinal: Bool) -> Outcome {
        if !inMessage {
            inMessage = true
            binary = isBinary
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
        }
        guard buffer.count + chunk.count <= limit else {
            buffer = []
            inMessage = false
            return .tooLarge(limit: limit)
        }
        buffer.append(contentsOf: chunk)
        guard isFinal else { return .incomplete }
        inMessage = false
        let message = buffer
        buffer.removeAll(keepingCapacity: true)
        return .message(message, binary: binary)
    }

    /// Convenience for tests and callers holding arrays.
    package mutating func append(_ chunk: [UInt8], binary isBinary: Bool, isFinal: Bool) -> Outcome {
        chunk.withUnsafeBytes { append($0, binary: isBinary, isFinal: isFinal) }
    }
}
