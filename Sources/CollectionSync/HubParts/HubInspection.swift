import CollectionProtocol

/// What tests, benchmarks and monitoring read of a hub beside what it does: a
/// viewer's selection, window and prefetch list, the view states, what the hub holds.
/// A view of the hub (``CollectionHub/inspect``), with no state of its own.
package struct HubInspection {
    unowned let hub: CollectionHub

    /// The selection of the viewer on connection `viewer`, by item identifier.
    package func selection(of viewer: UInt64) -> Set<String> { hub.viewers[viewer]?.selection(in: hub.model) ?? [] }

    /// The keys the client on connection `viewer` holds now (its window).
    package func windowKeys(of viewer: UInt64) -> Set<String> { Set(hub.viewers[viewer]?.window.keys ?? [:].keys) }

    /// Number of distinct view states the ready viewers use.
    package var viewStateCount: Int { hub.viewers.readyStateCount }

    /// Cache lines prefetched for the next viewer's turn so far (``PrefetchList``).
    package var linesPrefetched: Int { hub.viewers.linesPrefetched }

    /// The prefetch list of the viewer on connection `viewer` (nil for an unknown viewer).
    package func prefetchCheck(of viewer: UInt64) -> PrefetchCheck? { hub.viewers[viewer].map { PrefetchCheck(state: $0.state) } }

    /// What the hub holds now (see ``HubFootprint``).
    package var footprint: HubFootprint {
        HubFootprint(history: hub.ledger.history, states: hub.viewers.states, presenceEvents: hub.presence.log.count)
    }
}

extension CollectionHub {
    /// What tests and monitoring read of this hub (``HubInspection``).
    package var inspect: HubInspection { HubInspection(hub: self) }
}

/// What a hub holds that could grow with use: for tests and monitoring. Everything
/// here is bounded by the number of viewers, their windows and the hub's limits,
/// never by the number of batches.
package struct HubFootprint: Equatable, Sendable {
    /// Batches held by the replay log (at most twice ``HubLimits/replayLogCapacity``, plus 1,024).
    package var loggedBatches: Int
    /// Op ids remembered (at most ``HubLimits/rememberedOps``).
    package var rememberedOps: Int
    /// Applied updates waiting in the viewers' collection views.
    package var appliedUpdates: Int
    /// Views displayed and views in reuse queues, over all view states.
    package var views: Int
    /// Elements held in the viewers' windows, over all view states.
    package var windowElements: Int
    /// Presence changes waiting for the end of the turn.
    package var presenceEvents: Int
}

extension HubFootprint {
    /// What `history`, the view states `states` and `presenceEvents` events of presence hold.
    init(history: BatchHistory, states: [ViewState], presenceEvents: Int) {
        self.init(loggedBatches: history.loggedBatches, rememberedOps: history.rememberedOps,
                  appliedUpdates: states.reduce(0) { $0 + $1.collectionView.mirror.appliedUpdateCount },
                  views: states.reduce(0) { $0 + $1.collectionView.mirror.displayedElements.count + $1.collectionView.mirror.reusableViewCount },
                  windowElements: states.reduce(0) { $0 + $1.entries.count },
                  presenceEvents: presenceEvents)
    }
}
