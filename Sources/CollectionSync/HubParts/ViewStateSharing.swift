import CollectionCore
import CollectionProtocol
import Foundation

/// Viewers that see exactly the same thing share one view state.
///
/// Two viewers with the same layout, viewport and scroll offset, and no state of
/// their own (selection, highlight, focus, movement, measured sizes), display the
/// same elements at the same frames: the batch each would be sent is the same,
/// byte for byte. They share one ``ViewState`` (one collection view, one window),
/// so a batch is performed, windowed and encoded once for all of them. Before a
/// viewer does anything that could make it differ, it gets a copy of its own
/// (``own(_:store:policy:)``); after, it joins an equal state if there is one
/// (``share(_:)``). With ``enabled`` off every viewer keeps its own state; the
/// messages sent are the same either way.
struct ViewStateSharing {
    /// Whether equal viewers share (``CollectionHub/sharesViewStates``).
    var enabled = true
    /// The states offered for sharing, by what they show.
    private(set) var states: [SharingKey: ViewState] = [:]

    /// Gives `viewer` a view state of its own (a copy) if it shares one.
    func own(_ viewer: ViewerConnection, store: SharedModel, policy: LayoutPolicy) {
        let shared = viewer.state
        guard shared.members > 1 else { return }
        shared.members -= 1
        let copy = shared.copy(store: store, policy: policy)
        copy.members = 1
        viewer.state = copy
    }

    /// Lets `viewer` share an equal view state, or offers its own to others.
    mutating func share(_ viewer: ViewerConnection) {
        guard enabled, viewer.ready, viewer.movement == nil else { return }
        let own = viewer.state
        guard let key = own.sharingKey else { return }
        if let other = states[key], other !== own, other.members > 0, other.sharingKey == key {
            // Join only a state that holds exactly the window this viewer's client holds.
            if own.members == 1, own.holdsSameWindow(as: other) {
                unregister(own)
                own.members = 0
                other.members += 1
                viewer.state = other
            }
            return
        }
        unregister(own)
        register(own, as: key)
    }

    /// A viewer left: its state loses a member; an unused state is forgotten.
    mutating func release(_ viewer: ViewerConnection) {
        let state = viewer.state
        state.members -= 1
        if state.members == 0 { unregister(state) }
    }

    /// After every view state changed layout: states are registered under their new keys.
    mutating func reindex(_ viewers: [ViewerConnection]) {
        for viewer in viewers { unregister(viewer.state) }
        for viewer in viewers where viewer.movement == nil && viewer.state.registeredKey == nil {
            if let key = viewer.state.sharingKey, states[key] == nil { register(viewer.state, as: key) }
        }
    }

    private mutating func register(_ state: ViewState, as key: SharingKey) {
        states[key] = state
        state.registeredKey = key
    }

    private mutating func unregister(_ state: ViewState) {
        if let old = state.registeredKey, states[old] === state { states[old] = nil }
        state.registeredKey = nil
    }

    /// Runs `body` once per view state of `ordered` (the viewers in key order), for
    /// the state's first viewer, appending to `out`. `body` returns the message for
    /// every ready viewer of that state (nil: none) and messages for that first
    /// viewer alone. A message several viewers get is encoded once. The viewers'
    /// memory is prefetched ahead of their turns; `linesPrefetched` counts it.
    static func oncePerState(_ ordered: [ViewerConnection], into out: inout [Outgoing], linesPrefetched: inout Int,
                             _ body: (ViewerConnection) -> (shared: ServerMessage?, own: [Outgoing])) {
        out.reserveCapacity(out.count + ordered.count)
        // Only states that several viewers share are remembered (with a layout of
        // its own per viewer, none is: no table of them all).
        var done: [ObjectIdentifier: Outgoing] = [:]
        for (index, viewer) in ordered.enumerated() {
            // Three viewers ahead, the viewer's record; two ahead, its view state (the
            // record fetched a turn ago tells where): the next two viewers' states and
            // lists are in the cache when this turn reads them to issue those lists (the
            // third's are read cold; fetching further ahead measured no better).
            if index + 3 < ordered.count {
                PrefetchList.fetch(UnsafeRawPointer(Unmanaged.passUnretained(ordered[index + 3]).toOpaque()), bytes: ViewerConnection.prefetchBytes)
            }
            if index + 2 < ordered.count {
                PrefetchList.fetch(UnsafeRawPointer(Unmanaged.passUnretained(ordered[index + 2].state).toOpaque()), bytes: ViewState.prefetchBytes)
            }
            // The memory of the next three viewers is fetched while this one's turn
            // runs (``PrefetchList``): its misses overlap this work. Each list is
            // issued on three turns, not one: this processor drops some prefetches,
            // and the lines of a list issued once still missed when read (touching
            // them instead of prefetching took 8% off a paced turn; issuing each list
            // three times, 3-8% in alternated runs). Not a state shared with a viewer
            // before it, whose turn it has had.
            for ahead in 1...3 where index + ahead < ordered.count {
                let next = ordered[index + ahead].state
                if next !== viewer.state && (next.members <= 1 || done[ObjectIdentifier(next)] == nil) {
                    next.prefetch.issue()
                    linesPrefetched &+= next.prefetch.count
                }
            }
            let shares = viewer.state.members > 1
            let id = ObjectIdentifier(viewer.state)
            if shares, let same = done[id] {
                if viewer.ready { out.append(Outgoing(viewer: viewer.key, sameAs: same)) }
                continue
            }
            let (shared, own) = body(viewer)
            if let shared {
                let message = Outgoing(viewer: viewer.key, message: shared, encodeNow: shares)
                if shares { done[id] = message }
                out.append(message)
            }
            out += own
        }
    }
}
