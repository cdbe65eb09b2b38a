import Foundation

extension CollectionView {
    /// Called when an interactive transition ends: whether it completed, and whether
    /// it finished (true) or was cancelled (false). UIKit's type of the same name.
    public typealias LayoutInteractiveTransitionCompletion = (_ completed: Bool, _ finished: Bool) -> Void

    /// Starts an interactive transition to `layout`: the collection view's layout
    /// becomes a ``CollectionViewTransitionLayout`` (the delegate's, if it makes
    /// one) whose `transitionProgress` the app drives; ``finishInteractiveTransition()``
    /// installs `layout`, ``cancelInteractiveTransition()`` the layout before. A
    /// transition under way is cancelled first.
    /// - Parameters:
    ///   - layout: The layout to go to.
    ///   - completion: Called when the transition ends: completed, and finished (true) or cancelled.
    /// - Returns: The transition layout, whose `transitionProgress` the app sets.
    @discardableResult
    public func startInteractiveTransition(to layout: CollectionViewLayout, completion: LayoutInteractiveTransitionCompletion? = nil) -> CollectionViewTransitionLayout {
        if interactiveTransition != nil { cancelInteractiveTransition() }
        let current = collectionViewLayout
        let transition = delegate?.collectionView(self, transitionLayoutForOldLayout: current, newLayout: layout)
            ?? CollectionViewTransitionLayout(currentLayout: current, nextLayout: layout)
        collectionViewLayout = transition
        transition.adopt(self)
        interactiveTransition = (transition, completion)
        return transition
    }

    /// Ends the interactive transition in its target layout.
    public func finishInteractiveTransition() { interactiveTransition?.layout.end(finished: true, in: self) }

    /// Ends the interactive transition back in the layout it started from.
    public func cancelInteractiveTransition() { interactiveTransition?.layout.end(finished: false, in: self) }

    /// The transition layout of the interactive transition under way, if any.
    public var transitionLayout: CollectionViewTransitionLayout? { interactiveTransition?.layout }
}
