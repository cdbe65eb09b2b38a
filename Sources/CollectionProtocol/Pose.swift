import Foundation

/// Where an element starts or ends an animation, as the layout says (its initial
/// attributes for an appearing item, its final ones for a disappearing item).
/// Sent in a batch's `appear` and `disappear` only where it differs from the
/// default: the element's own frame, transparent.
public struct Pose: Equatable, Sendable, Codable {
    /// The element's key.
    public var key: String
    /// `[x, y, width, height]` in content coordinates.
    public var frame: [Double]
    /// Opacity.
    public var alpha: Double
    /// An affine transform about the element's center, `[a, b, c, d, tx, ty]`
    /// (absent: none).
    public var transform: [Double]?

    /// Creates a pose.
    public init(key: String, frame: [Double], alpha: Double, transform: [Double]? = nil) {
        self.key = key
        self.frame = frame
        self.alpha = alpha
        self.transform = transform
    }
}

extension JSONWriter {
    mutating func poses(_ values: [Pose]) {
        objects(values) { w, p in
            w.key("key"); w.string(p.key)
            w.key("frame"); w.doubles(p.frame)
            w.key("alpha"); w.double(p.alpha)
            if let t = p.transform { w.key("transform"); w.doubles(t) }
        }
    }
}
