import Foundation

/// A colour, as UIKit's `UIColor`, kept as the CSS colour the page paints with.
/// The system colours are CSS variables the page's stylesheet defines
/// (`--cv-system-red` and so on, with UIKit's light values as fallbacks).
public struct Color: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible, Codable {
    /// The CSS colour.
    public let css: String

    /// A colour of CSS text (`"#f0a400"`, `"rgb(0 0 0 / 50%)"`, `"tomato"`).
    public init(css: String) { self.css = css }
    /// A colour of a CSS literal.
    public init(stringLiteral value: String) { css = value }

    /// A colour of components from 0 to 1, as UIKit's `init(red:green:blue:alpha:)`.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func byte(_ c: CGFloat) -> Int { Int((min(max(c, 0), 1) * 255).rounded()) }
        css = alpha >= 1 ? "rgb(\(byte(red)), \(byte(green)), \(byte(blue)))"
                         : "rgba(\(byte(red)), \(byte(green)), \(byte(blue)), \(Self.number(min(max(alpha, 0), 1))))"
    }

    /// A grey, as UIKit's `init(white:alpha:)`.
    public init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The same colour at `alpha`, as UIKit's `withAlphaComponent(_:)`.
    public func withAlphaComponent(_ alpha: CGFloat) -> Color {
        Color(css: "color-mix(in srgb, \(css) \(Self.number(min(max(alpha, 0), 1) * 100))%, transparent)")
    }

    public var description: String { css }

    private static func system(_ name: String, _ fallback: String) -> Color { Color(css: "var(--cv-system-\(name), \(fallback))") }
    private static func number(_ x: CGFloat) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(Double(rounded))
    }

    public static let systemRed = system("red", "#ff3b30")
    public static let systemOrange = system("orange", "#ff9500")
    public static let systemYellow = system("yellow", "#ffcc00")
    public static let systemGreen = system("green", "#34c759")
    public static let systemTeal = system("teal", "#30b0c7")
    public static let systemBlue = system("blue", "#007aff")
    public static let systemIndigo = system("indigo", "#5856d6")
    public static let systemPurple = system("purple", "#af52de")
    public static let systemPink = system("pink", "#ff2d55")
    public static let systemGray = system("gray", "#8e8e93")
    public static let label = system("label", "#000000")
    public static let secondaryLabel = system("secondary-label", "rgba(60, 60, 67, 0.6)")
    public static let systemBackground = system("background", "#ffffff")
    public static let secondarySystemBackground = system("secondary-background", "#f2f2f7")
    public static let tintColor = system("tint", "#007aff")
    public static let black = Color(css: "#000000")
    public static let white = Color(css: "#ffffff")
    public static let red = Color(css: "#ff0000")
    public static let green = Color(css: "#00ff00")
    public static let blue = Color(css: "#0000ff")
    public static let orange = Color(css: "#ff8000")
    public static let gray = Color(css: "#808080")
    public static let clear = Color(css: "transparent")

    /// Encoded as its text alone.
    public init(from decoder: any Decoder) throws {
        css = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(css)
    }
}
