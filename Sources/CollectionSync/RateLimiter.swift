/// A token bucket: `rate` messages a second on average, bursts of `burst`.
/// Pure: the caller passes the time.
public struct RateLimiter: Sendable {
    /// Messages per second allowed on average.
    public let rate: Double
    /// Messages allowed at once.
    public let burst: Double
    private var tokens: Double
    private var last: Double?

    /// Creates a full bucket.
    public init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    /// Takes a token at time `now` (seconds); false when the bucket is empty.
    public mutating func allow(at now: Double) -> Bool {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
