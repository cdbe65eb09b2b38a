import CollectionCore
import CollectionProtocol
import Foundation

/// Which layout a view state's collection view uses, and how it changes: the
/// policy's layout for the viewport and mode (made again only when they change),
/// a switch to another mode, and an interactive transition to another layout.
struct ViewLayoutChoice {
    /// The environment the current layout was made for (nil: not made yet).
    private(set) var environment: LayoutEnvironment?
    /// The name of the layout in use.
    var name = ""
    /// The layout the interactive transition goes to (nil: none under way).
    private(set) var transitionTarget: String?

    /// Gives `collectionView` the policy's layout for `next`: a layout of the
    /// policy's own making (made again only when the environment changes), or the
    /// flow layout configured again (a configuration that changes nothing
    /// invalidates nothing). False when `next` is the environment already.
    mutating func adopt(_ next: LayoutEnvironment, policy: LayoutPolicy, animated: Bool, in collectionView: CollectionView) -> Bool {
        defer { environment = next }
        if next == environment { return false }
        // An interactive transition under way: a new viewport starts it again from the
        // new layouts, at the same progress; another layout for everyone ends it.
        let transition = collectionView.transitionLayout.map { (target: transitionTarget, progress: $0.transitionProgress) }
        if transition != nil {
            collectionView.cancelInteractiveTransition()
            transitionTarget = nil
        }
        let previous = environment
        if let made = policy.makeLayout(for: next) {
            // The same mode at the same width (the viewport only grew taller or
            // shorter): the cells measured keep their sizes in the layout made anew,
            // since the client, seeing the same widths, does not measure them again.
            let kept = next.mode == previous?.mode && next.container.width == previous?.container.width
                ? collectionView.selfSizedItems : nil
            collectionView.setCollectionViewLayout(made, animated: animated)
            for (indexPath, size) in kept ?? [:] { collectionView.mirror.setMeasuredSize(size, forItemAt: indexPath) }
        } else if animated || previous == nil || previous?.mode != next.mode || !(collectionView.collectionViewLayout is CollectionViewFlowLayout) {
            let flow = CollectionViewFlowLayout()
            policy.configure(flow, for: next.container, named: next.mode)
            collectionView.setCollectionViewLayout(flow, animated: animated)
        } else if let flow = collectionView.collectionViewLayout as? CollectionViewFlowLayout {
            policy.configure(flow, for: next.container, named: next.mode)
        }
        if let transition, let target = transition.target, next.mode == previous?.mode {
            beginTransition(to: target, policy: policy, container: next.container, progress: Double(transition.progress), in: collectionView)
        }
        return true
    }

    /// The layout a policy makes for `environment`: its own, or a flow layout it configures.
    static func layout(for environment: LayoutEnvironment, policy: LayoutPolicy) -> CollectionViewLayout {
        if let made = policy.makeLayout(for: environment) { return made }
        let flow = CollectionViewFlowLayout()
        policy.configure(flow, for: environment.container, named: environment.mode)
        return flow
    }

    /// Starts an interactive transition to the layout named `target` at `container`'s
    /// size (`startInteractiveTransition(to:completion:)`), at `progress`.
    mutating func beginTransition(to target: String, policy: LayoutPolicy, container: Size, progress: Double, in collectionView: CollectionView) {
        transitionTarget = target
        let layout = Self.layout(for: LayoutEnvironment(container: container, mode: target), policy: policy)
        collectionView.startInteractiveTransition(to: layout).transitionProgress = CGFloat(progress)
    }

    /// Moves the transition under way; false when there is none.
    func updateTransition(_ progress: Double, in collectionView: CollectionView) -> Bool {
        guard let transition = collectionView.transitionLayout else { return false }
        transition.transitionProgress = CGFloat(progress)
        return true
    }

    /// Ends the transition under way in its target layout (`finish`), which becomes
    /// the layout in use, or where it started; false when there is none.
    mutating func endTransition(finish: Bool, in collectionView: CollectionView) -> Bool {
        guard collectionView.transitionLayout != nil, let target = transitionTarget else { return false }
        transitionTarget = nil
        guard finish else {
            collectionView.cancelInteractiveTransition()
            return true
        }
        collectionView.finishInteractiveTransition()
        name = target
        if let environment { self.environment = LayoutEnvironment(container: environment.container, mode: target) }
        return true
    }
}
