import CollectionServer
import Synchronization

/// The retro's countdown: a collection of one item ("timer") whose cell shows the
/// time left. While it runs, the server configures that item again every second,
/// and every page watching "retro-timer" shows the new time. Editors start it
/// ("start", with `seconds` in the payload: 5 minutes unless said) and stop it.
public final class RetroTimer: LiveCollectionDelegate {
    /// The "retro-timer" collection.
    public let collection: LiveCollection
    let dataSource: LiveDiffableDataSource<String, String>
    private let clock = RetroClock()

    init(collection: LiveCollection) {
        self.collection = collection
        let clock = self.clock
        dataSource = LiveDiffableDataSource(collection: collection, cellRegistration: CellRegistration(template: "timer") { _ in clock.cell() })
        collection.delegate = self
        collection.setLayoutProvider(modes: ["timer"]) { environment in
            let layout = CollectionViewFlowLayout()
            layout.itemSize = CGSize(width: max(1, environment.container.width), height: max(1, environment.container.height))
            return layout
        }
    }

    /// The one item, shown.
    func show() async throws(ProtocolError) {
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["timer"])
        snapshot.appendItems(["timer"])
        try await dataSource.apply(snapshot)
    }

    /// Starts the countdown at `seconds` (a running one starts again).
    public func start(seconds: Double) {
        clock.state.withLock { clock in
            clock.task?.cancel()
            clock.seconds = seconds
            clock.over = false
            let endsAt = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
            clock.endsAt = endsAt
            clock.task = Task { [self] in await run(until: endsAt) }
        }
    }

    /// Shows the time left every second until `endsAt`, then that it is over.
    private func run(until endsAt: ContinuousClock.Instant) async {
        while !Task.isCancelled {
            _ = try? await dataSource.reconfigureItems(["timer"])
            let left = ContinuousClock.now.duration(to: endsAt)
            guard left > .zero else { break }
            // Wake at the next whole second left.
            let fraction = Duration.nanoseconds(Int64(left.components.attoseconds / 1_000_000_000))
            try? await Task.sleep(for: fraction > .milliseconds(5) ? fraction : .seconds(1))
        }
        guard !Task.isCancelled else { return }
        clock.state.withLock { clock in
            clock.endsAt = nil
            clock.over = true
        }
        _ = try? await dataSource.reconfigureItems(["timer"])
    }

    /// Stops the countdown and shows the full time again.
    public func stop() {
        clock.state.withLock { clock in
            clock.task?.cancel()
            clock.task = nil
            clock.endsAt = nil
            clock.over = false
        }
        let dataSource = self.dataSource
        Task { _ = try? await dataSource.reconfigureItems(["timer"]) }
    }

    public func collectionView(_ collectionView: LiveCollection, resultOfAction action: String, forItemAt indexPath: IndexPath?,
                               payload: [String: String], by viewer: Viewer) -> ActionResult {
        guard viewer.roles.contains("editor"), !viewer.guest else { return .refused("Only an editor runs the timer.") }
        switch action {
        case "start":
            let seconds = payload["seconds"].flatMap(Double.init) ?? 300
            guard (1...3600).contains(seconds) else { return .refused("A timer runs 1 second to an hour.") }
            start(seconds: seconds)
            return .done()
        case "stop":
            stop()
            return .done()
        default:
            return .refused("The timer has no action “\(action.prefix(40))”.")
        }
    }
}

/// The countdown's state, shared with the cell it shows.
final class RetroClock: Sendable {
    struct State {
        var endsAt: ContinuousClock.Instant?
        var seconds = 300.0
        var over = false
        var task: Task<Void, Never>?
    }

    let state = Mutex(State())

    /// What the timer's cell shows now.
    func cell() -> RetroTimerCell {
        state.withLock { clock in
            let left = clock.endsAt.map { max(.zero, ContinuousClock.now.duration(to: $0)) }
                ?? (clock.over ? .zero : .milliseconds(Int64(clock.seconds * 1000)))
            let whole = Int(left.components.seconds) + (left.components.attoseconds > 0 ? 1 : 0)
            return RetroTimerCell(remaining: String(format: "%d:%02d", whole / 60, whole % 60),
                                  state: clock.endsAt != nil ? "running" : clock.over ? "over" : "stopped")
        }
    }
}
