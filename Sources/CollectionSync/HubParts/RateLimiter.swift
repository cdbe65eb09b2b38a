/// A token bucket: `rate` tokens a second on average, bursts of `burst`.
/// Pure: the caller passes the time.
public struct RateLimiter: Sendable {
    /// Tokens per second allowed on average.
    public let rate: Double
    /// Tokens allowed at once.
    public let burst: Double
    private var tokens: Double
    private var last: Double?

    /// Creates a full bucket.
    public init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = burst
        tokens = burst
    }

    private mutating func refill(at now: Double) {
        if let last { tokens = min(burst, tokens + max(0, now - last) * rate) }
        last = now
    }

    /// Takes a token at time `now` (seconds); false when the bucket is empty.
    public mutating func allow(at now: Double) -> Bool {
        refill(at: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// True when the bucket is not in debt at `now`.
    public mutating func hasCredit(at now: Double) -> Bool {
        refill(at: now)
        return tokens > 0
    }

    /// Takes `amount` tokens at `now`, going into debt if there are not enough: a
    /// cost known only after the work was done is paid for by waiting afterwards.
    public mutating func charge(_ amount: Double, at now: Double) {
        refill(at: now)
        tokens -= amount
    }
}

/// What one client may still ask: messages per second, and what answering them
/// costs: the bytes the server sends because of them, and the server's time.
struct ClientBudget {
    private var messages: RateLimiter
    private var output: RateLimiter
    private var time: RateLimiter

    init(_ limits: HubLimits) {
        messages = RateLimiter(rate: limits.messagesPerSecond, burst: limits.messageBurst)
        output = RateLimiter(rate: limits.outputBytesPerSecond, burst: limits.outputBurst)
        time = RateLimiter(rate: limits.serverTimeShare, burst: limits.serverTimeBurst)
    }

    /// Why a message arriving at `now` is dropped, or nil (and a message token is taken).
    mutating func refusal(at now: Double) -> String? {
        guard output.hasCredit(at: now) else {
            return "your messages made the server send more than \(Int(output.rate / 1_048_576)) MiB a second"
        }
        guard time.hasCredit(at: now) else {
            return "your messages took more than \(Int(time.rate * 100))% of the server's time"
        }
        guard messages.allow(at: now) else { return "more than \(Int(messages.rate)) messages a second" }
        return nil
    }

    /// Charges what a message cost: the bytes it made the server send and the
    /// seconds it took, at `now` (when it was done).
    mutating func charge(bytes: Int, seconds: Double, at now: Double) {
        output.charge(Double(bytes), at: now)
        time.charge(seconds, at: now)
    }
}
