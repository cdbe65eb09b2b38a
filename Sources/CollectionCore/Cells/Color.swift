import Foundation

/// A colour, as UIKit's `UIColor`, kept as the CSS colour the page paints with.
/// The system colours are CSS variables the page's stylesheet defines
/// (`--cv-system-red` and so on, with UIKit's light values as fallbacks).
public struct Color: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible, Codable {
    /// The CSS colour.
    public let css: String

    /// A colour of CSS text (`"#f0a400"`, `"rgb(0 0 0 / 50%)"`, `"tomato"`).
    /// - Parameter css: Any CSS colour (not checked).
    public init(css: String) { self.css = css }
    /// A colour of a CSS literal.
    /// - Parameter value: Any CSS colour.
    public init(stringLiteral value: String) { css = value }

    /// A colour of components from 0 to 1, as UIKit's `init(red:green:blue:alpha:)`.
    /// - Parameters:
    ///   - red: The red component, 0 to 1.
    ///   - green: The green component.
    ///   - blue: The blue component.
    ///   - alpha: The opacity, 0 (transparent) to 1.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func byte(_ c: CGFloat) -> Int { Int((min(max(c, 0), 1) * 255).rounded()) }
        css = alpha >= 1 ? "rgb(\(byte(red)), \(byte(green)), \(byte(blue)))"
                         : "rgba(\(byte(red)), \(byte(green)), \(byte(blue)), \(Self.number(min(max(alpha, 0), 1))))"
    }

    /// A grey, as UIKit's `init(white:alpha:)`.
    /// - Parameters:
    ///   - white: 0 (black) to 1 (white).
    ///   - alpha: The opacity, 0 to 1.
    public init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The same colour at `alpha`, as UIKit's `withAlphaComponent(_:)`.
    /// - Parameter alpha: The opacity, 0 to 1.
    /// - Returns: The colour mixed with transparency (CSS `color-mix`).
    public func withAlphaComponent(_ alpha: CGFloat) -> Color {
        Color(css: "color-mix(in srgb, \(css) \(Self.number(min(max(alpha, 0), 1) * 100))%, transparent)")
    }

    public var description: String { css }

    private static func system(_ name: String, _ fallback: String) -> Color { Color(css: "var(--cv-system-\(name), \(fallback))") }
    private static func number(_ x: CGFloat) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(Double(rounded))
    }

    /// UIKit's system red (`--cv-system-red`).
    public static let systemRed = system("red", "#ff3b30")
    /// UIKit's system orange (`--cv-system-orange`).
    public static let systemOrange = system("orange", "#ff9500")
    /// UIKit's system yellow (`--cv-system-yellow`).
    public static let systemYellow = system("yellow", "#ffcc00")
    /// UIKit's system green (`--cv-system-green`).
    public static let systemGreen = system("green", "#34c759")
    /// UIKit's system teal (`--cv-system-teal`).
    public static let systemTeal = system("teal", "#30b0c7")
    /// UIKit's system blue (`--cv-system-blue`).
    public static let systemBlue = system("blue", "#007aff")
    /// UIKit's system indigo (`--cv-system-indigo`).
    public static let systemIndigo = system("indigo", "#5856d6")
    /// UIKit's system purple (`--cv-system-purple`).
    public static let systemPurple = system("purple", "#af52de")
    /// UIKit's system pink (`--cv-system-pink`).
    public static let systemPink = system("pink", "#ff2d55")
    /// UIKit's system gray (`--cv-system-gray`).
    public static let systemGray = system("gray", "#8e8e93")
    /// The colour of primary text (`--cv-system-label`).
    public static let label = system("label", "#000000")
    /// The colour of secondary text (`--cv-system-secondary-label`).
    public static let secondaryLabel = system("secondary-label", "rgba(60, 60, 67, 0.6)")
    /// The colour of the page behind content (`--cv-system-background`).
    public static let systemBackground = system("background", "#ffffff")
    /// The colour of grouped content's background (`--cv-system-secondary-background`).
    public static let secondarySystemBackground = system("secondary-background", "#f2f2f7")
    /// The tint controls are drawn in (`--cv-system-tint`).
    public static let tintColor = system("tint", "#007aff")
    /// Pure black, `#000000`.
    public static let black = Color(css: "#000000")
    /// Pure white, `#ffffff`.
    public static let white = Color(css: "#ffffff")
    /// Pure red, `#ff0000`.
    public static let red = Color(css: "#ff0000")
    /// Pure green, `#00ff00`.
    public static let green = Color(css: "#00ff00")
    /// Pure blue, `#0000ff`.
    public static let blue = Color(css: "#0000ff")
    /// Pure orange, `#ff8000`.
    public static let orange = Color(css: "#ff8000")
    /// Pure gray, `#808080`.
    public static let gray = Color(css: "#808080")
    /// No colour: transparent.
    public static let clear = Color(css: "transparent")

    /// Encoded as its text alone.
    /// - Parameter decoder: Gives a string.
    /// - Throws: `DecodingError` when it is not a string.
    public init(from decoder: any Decoder) throws {
        css = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(css)
    }
}
