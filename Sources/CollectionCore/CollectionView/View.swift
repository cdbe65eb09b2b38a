import Foundation

/// A rectangle in a tree of views, as UIKit's `UIView`, without the drawing: the
/// browser draws cells from templates, so a view here keeps only what makes sense
/// with nothing on screen: its frame and bounds, whether it is hidden, its
/// subviews, and the layout pass (`layoutSubviews()`). Reusable views (cells,
/// headers) are views, so an app's `extension View` helpers apply to them.
///
/// What UIKit's views draw with (layers, colours, constraints, gesture
/// recognizers, `draw(_:)`) does not exist; README's "What Linux forces" lists it.
open class View {
    /// The view's rectangle in its superview's coordinates; setting it resizes `bounds`.
    open var frame: CGRect {
        get { storedFrame }
        set {
            let resized = newValue.size != storedFrame.size
            storedFrame = newValue
            if resized { setNeedsLayout() }
        }
    }
    /// The view's own rectangle: at the origin, as large as its frame.
    open var bounds: CGRect {
        get { CGRect(origin: boundsOrigin, size: storedFrame.size) }
        set {
            boundsOrigin = newValue.origin
            frame.size = newValue.size
        }
    }
    /// The centre of the frame, in the superview's coordinates.
    open var center: CGPoint {
        get { CGPoint(x: storedFrame.midX, y: storedFrame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - storedFrame.width / 2, y: newValue.y - storedFrame.height / 2) }
    }
    /// Whether the view (and so its subviews) is hidden.
    open var isHidden = false
    /// Its opacity, 0 to 1.
    open var alpha: CGFloat = 1
    /// A number to find it by (``viewWithTag(_:)``).
    open var tag = 0
    /// What a screen reader says for it.
    open var accessibilityLabel: String?
    /// The view it is a subview of.
    public private(set) weak var superview: View?
    /// Its subviews, back to front.
    public private(set) var subviews: [View] = []

    private var storedFrame: CGRect
    private var boundsOrigin = CGPoint.zero
    private var needsLayout = true

    /// A view at `frame`.
    /// - Parameter frame: Its frame in its superview.
    public init(frame: CGRect) {
        storedFrame = frame
    }

    /// Views are not archived on Linux: this returns nil (UIKit's storyboards and
    /// nibs do not exist). Declared so that UIKit subclasses' `required init?(coder:)`
    /// compile.
    /// - Parameter coder: Unused.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A view with a zero frame.
    public convenience init() { self.init(frame: .zero) }

    /// Adds `view` on top of the subviews (taking it from its former superview).
    /// - Parameter view: The view (taken from its superview first).
    open func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` among the subviews at `index` (taking it from its former superview).
    /// - Parameters:
    ///   - view: The view (taken from its superview first).
    ///   - index: Its place among the subviews.
    open func insertSubview(_ view: View, at index: Int) {
        guard view !== self else { return }
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(0, index), subviews.count))
        view.superview = self
        view.didMoveToSuperview()
        setNeedsLayout()
    }

    /// Takes the view out of its superview.
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        didMoveToSuperview()
    }

    /// Called after the view was added to a superview or taken out of one.
    open func didMoveToSuperview() {}

    /// Whether this view is `view` or lies inside it, at any depth (UIKit's `isDescendant(of:)`).
    /// - Parameter view: A view.
    /// - Returns: Whether this view is it or lies inside it.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    /// This view or the first of its subviews, at any depth, with `tag`.
    /// - Parameter tag: The tag.
    /// - Returns: This view or the first subview (depth first) with it, or nil.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for view in subviews { if let found = view.viewWithTag(tag) { return found } }
        return nil
    }

    /// Lays out the subviews: override it to place them (the default does nothing).
    open func layoutSubviews() {}

    /// Marks the view to be laid out at the next ``layoutIfNeeded()``.
    open func setNeedsLayout() { needsLayout = true }

    /// Lays out the view now if it was marked (then its subviews).
    open func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        for view in subviews { view.layoutIfNeeded() }
    }

    /// The size that fits the view (its bounds' size unless overridden).
    /// - Parameter size: The room there is.
    /// - Returns: The size the view wants (by default its bounds').
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }
}
