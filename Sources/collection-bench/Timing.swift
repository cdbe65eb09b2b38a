import Foundation

/// Median wall time of `runs` calls of `body`, in seconds.
func median(runs: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let elapsed = clock.measure(body)
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
    }
    times.sort()
    return times[times.count / 2]
}

/// Keeps the optimizer from discarding a result.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

func formatTime(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: String(format: "%.0f ns", seconds * 1e9)
    case ..<1e-3: String(format: "%.1f µs", seconds * 1e6)
    case ..<1: String(format: "%.2f ms", seconds * 1e3)
    default: String(format: "%.2f s", seconds)
    }
}

func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }
