import Foundation

/// One action a list row's swipe reveals (UIKit's `UIContextualAction`), as the client shows it.
public struct SwipeActionInfo: Equatable, Sendable, Codable {
    /// The button's title.
    public var title: String?
    /// `normal` or `destructive`.
    public var style: String
    /// A CSS colour for the button (nil: the style's).
    public var color: String?
    /// An image drawn on the button (a URL, `system:` and a symbol's name, or a short text); nil: none.
    public var image: String?

    /// Creates an action's description.
    public init(title: String?, style: String, color: String? = nil, image: String? = nil) {
        self.title = title
        self.style = style
        self.color = color
        self.image = image
    }
}

/// A section that scrolls on its own (a compositional section with an orthogonal
/// scrolling behaviour), as a viewer's layout has it: the client draws the
/// section's cells, and their badges, in a scroller of its own at `frame`, and
/// reports the scroller's offset in `scroll.sectionOffsets`.
public struct Band: Equatable, Sendable, Codable {
    /// The section's identifier.
    public var section: String
    /// The scroller, `[x, y, width, height]` in content coordinates. The section's
    /// cells have frames in the same coordinates, unscrolled.
    public var frame: [Double]
    /// `x`: the section scrolls sideways (a vertical layout); `y`: up and down.
    public var axis: String
    /// How far the section's content reaches along the axis, from the frame's leading edge.
    public var length: Double
    /// UIKit's behaviour: `continuous`, `continuousGroupLeadingBoundary`, `paging`,
    /// `groupPaging` or `groupPagingCentered`.
    public var behavior: String
    /// From one group's leading edge to the next: where group paging comes to rest.
    public var pitch: Double
    /// The offset the server lays the section out at for this viewer (within 0 and `length` less the frame's).
    public var offset: Double

    /// Creates a band.
    public init(section: String, frame: [Double], axis: String, length: Double, behavior: String, pitch: Double, offset: Double) {
        self.section = section
        self.frame = frame
        self.axis = axis
        self.length = length
        self.behavior = behavior
        self.pitch = pitch
        self.offset = offset
    }
}
