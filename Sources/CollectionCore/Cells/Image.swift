import Foundation

/// An image the browser draws, as UIKit's `UIImage` where a page has no UIKit:
/// a value naming what to draw, not pixels. A name that is a URL (`https:`,
/// `data:`, or a path from `/`) is drawn as an image; a system name as the page's
/// symbol for it; any other name as text (an emoji, say).
public struct Image: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible, Codable {
    /// What the page is told to draw (a cell's `image` field): a URL, a text, or
    /// `system:` and a symbol's name.
    public let source: String

    /// An image of `name`: a URL, or a short text such as an emoji (nil when empty,
    /// as UIKit's failable `init(named:)` is nil for a missing image).
    /// - Parameter name: A URL, or a short text.
    public init?(named name: String) {
        guard !name.isEmpty else { return nil }
        source = name
    }

    /// A system symbol, as UIKit's `init(systemName:)`: the page draws its own
    /// glyph for the common names (star, heart, folder, trash, gear…) and nothing
    /// for others (nil when empty).
    /// - Parameter name: The symbol's name (`star.fill`, say).
    public init?(systemName name: String) {
        guard !name.isEmpty else { return nil }
        source = "system:" + name
    }

    /// An image at `url`.
    /// - Parameter url: Where the page loads it from.
    public init(url: URL) {
        source = url.absoluteString
    }

    /// An image of a literal name (`"🌲"`, `"/photos/1.jpg"`).
    /// - Parameter value: A URL, or a short text.
    public init(stringLiteral value: String) {
        source = value
    }

    public var description: String { source }

    /// Encoded as its text alone.
    /// - Parameter decoder: Gives a string.
    /// - Throws: `DecodingError` when it is not a string.
    public init(from decoder: any Decoder) throws {
        source = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(source)
    }
}
