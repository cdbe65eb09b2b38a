/// Counts what one connection sends (frames and bytes) against two token buckets;
/// a connection past either is flooding. Pure: the caller passes the time.
public struct FloodGuard: Sendable {
    private var frames: Bucket
    private var bytes: Bucket

    /// `framesPerSecond` and `bytesPerSecond` on average, bursts of twice each.
    public init(framesPerSecond: Double, bytesPerSecond: Double) {
        frames = Bucket(rate: framesPerSecond)
        bytes = Bucket(rate: bytesPerSecond)
    }

    /// Counts one frame (or piece of one) of `count` bytes at `now` (seconds);
    /// false once the connection is past either limit.
    public mutating func admit(bytes count: Int, at now: Double) -> Bool {
        let framesOK = frames.take(1, at: now)
        let bytesOK = bytes.take(Double(count), at: now)
        return framesOK && bytesOK
    }

    private struct Bucket: Sendable {
        let rate: Double
        var tokens: Double
        var last: Double?

        init(rate: Double) {
            self.rate = rate
            tokens = 2 * rate
        }

        mutating func take(_ amount: Double, at now: Double) -> Bool {
            if let last { tokens = min(2 * rate, tokens + max(0, now - last) * rate) }
            last = now
            tokens -= amount
            return tokens >= 0
        }
    }
}
