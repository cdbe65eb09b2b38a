import Foundation

#if !canImport(CoreGraphics)
/// An affine transform, as Core Graphics' (absent on Linux): x' = a·x + c·y + tx, y' = b·x + d·y + ty.
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    /// The coefficients: x' = a·x + c·y + tx, y' = b·x + d·y + ty.
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    /// Creates a transform from its six coefficients.
    /// - Parameters:
    ///   - a: x's share of x'.
    ///   - b: x's share of y'.
    ///   - c: y's share of x'.
    ///   - d: y's share of y'.
    ///   - tx: Added to x'.
    ///   - ty: Added to y'.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    /// The identity transform.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A scale.
    /// - Parameters:
    ///   - sx: The factor along x.
    ///   - sy: The factor along y.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A translation.
    /// - Parameters:
    ///   - tx: The distance along x.
    ///   - ty: The distance along y.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// True for the identity.
    public var isIdentity: Bool { self == .identity }
}
#endif

/// Insets of a rectangle, as UIKit's `UIEdgeInsets`.
public struct EdgeInsets: Equatable, Hashable, Sendable {
    /// The inset of each side, in points.
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat

    /// Creates insets.
    /// - Parameters:
    ///   - top: The top inset.
    ///   - left: The left inset.
    ///   - bottom: The bottom inset.
    ///   - right: The right inset.
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    /// No insets.
    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

extension CGRect {
    /// Whether the two share some area (edges that touch do not count; a rect with
    /// no area meets nothing), the same on every platform: Foundation's
    /// `intersects` differs between Darwin and Linux for touching edges.
    @inline(__always)
    func meets(_ b: CGRect) -> Bool {
        origin.x < b.origin.x + b.size.width && b.origin.x < origin.x + size.width
            && origin.y < b.origin.y + b.size.height && b.origin.y < origin.y + size.height
            && size.width > 0 && size.height > 0
    }
}
