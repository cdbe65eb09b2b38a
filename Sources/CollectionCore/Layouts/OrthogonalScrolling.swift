import Foundation

/// A section that scrolls on its own, across the layout's axis (a compositional
/// section with `orthogonalScrollingBehavior`): where its scroller sits and how far
/// its content reaches. Beyond UIKit, whose section scrollers are private: a remote
/// client draws such a section in a scroller of its own and reports its offset
/// (``CollectionViewMirror/orthogonalScrollOffsets``).
public struct OrthogonalScrollingRegion: Equatable, Sendable {
    /// The section's index.
    public var section: Int
    /// The scroller, in the collection view's content coordinates (unscrolled).
    public var frame: CGRect
    /// True: the section scrolls along x (a vertical layout); false: along y.
    public var scrollsHorizontally: Bool
    /// How far the section's content reaches along its axis, from the frame's leading edge.
    public var contentLength: CGFloat
    /// How it scrolls and where it comes to rest.
    public var behavior: CollectionLayoutSectionOrthogonalScrollingBehavior
    /// The distance from one group's leading edge to the next's: where group paging rests.
    public var groupPitch: CGFloat

    /// Creates a region.
    /// - Parameters:
    ///   - section: The section's index.
    ///   - frame: The band it scrolls in, in content coordinates.
    ///   - scrollsHorizontally: Whether it scrolls along x.
    ///   - contentLength: How far its content reaches along its axis.
    ///   - behavior: How it scrolls and comes to rest.
    ///   - groupPitch: The distance from one group's leading edge to the next's.
    public init(section: Int, frame: CGRect, scrollsHorizontally: Bool, contentLength: CGFloat,
                behavior: CollectionLayoutSectionOrthogonalScrollingBehavior, groupPitch: CGFloat) {
        self.section = section
        self.frame = frame
        self.scrollsHorizontally = scrollsHorizontally
        self.contentLength = contentLength
        self.behavior = behavior
        self.groupPitch = groupPitch
    }

    /// The scroller's length along its axis.
    public var visibleLength: CGFloat { scrollsHorizontally ? frame.width : frame.height }

    /// The furthest the section scrolls.
    public var maximumOffset: CGFloat { max(0, contentLength - visibleLength) }

    /// `offset` kept within the section's content.
    /// - Parameter offset: A scroll offset along the section's axis.
    /// - Returns: It, between 0 and ``maximumOffset``.
    public func clamped(_ offset: CGFloat) -> CGFloat { min(max(0, offset), maximumOffset) }
}

extension CollectionLayoutSectionOrthogonalScrollingBehavior {
    /// The behaviour's UIKit name (`continuous`, `groupPagingCentered`, …).
    public var name: String {
        switch self {
        case .none: "none"
        case .continuous: "continuous"
        case .continuousGroupLeadingBoundary: "continuousGroupLeadingBoundary"
        case .paging: "paging"
        case .groupPaging: "groupPaging"
        case .groupPagingCentered: "groupPagingCentered"
        }
    }
}

extension OrthogonalScrollingRegion {
    /// `offsets` by section, each within its section's region; those of sections
    /// without one, or at 0, left out.
    static func clamped(_ offsets: [Int: CGFloat], to regions: [OrthogonalScrollingRegion]) -> [Int: CGFloat] {
        let regions = Dictionary(regions.map { ($0.section, $0) }, uniquingKeysWith: { a, _ in a })
        var clamped: [Int: CGFloat] = [:]
        for (section, offset) in offsets {
            guard let region = regions[section] else { continue }
            let o = region.clamped(offset)
            if o > 0 { clamped[section] = o }
        }
        return clamped
    }
}
