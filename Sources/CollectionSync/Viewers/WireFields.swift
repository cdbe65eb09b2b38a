import CollectionCore
import CollectionProtocol
import Foundation

/// How geometry and a list row's style are written into elements and poses: numbers
/// without ".0", transforms (nil for the identity), a row's place in its list.
enum WireFields {
    /// A number as a content field writes it (no ".0" on whole numbers).
    static func number(_ value: CGFloat) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(Double(value))
    }

    /// A transform as the protocol writes it (nil: the identity).
    static func wire(_ t: CGAffineTransform) -> [Double]? {
        t == .identity ? nil : [Double(t.a), Double(t.b), Double(t.c), Double(t.d), Double(t.tx), Double(t.ty)]
    }

    /// A pose as the protocol writes it: the key's element at `a`'s frame, alpha and transform.
    static func pose(_ key: String, _ a: CollectionViewLayoutAttributes) -> Pose {
        Pose(key: key, frame: [Double(a.frame.minX), Double(a.frame.minY), Double(a.frame.width), Double(a.frame.height)],
             alpha: Double(a.alpha), transform: wire(a.transform))
    }

    /// Where a row sits in its list, as fields its template (or the client's own list row) draws by.
    static func addListFields(_ style: ListRowStyle, to content: inout [String: String]) {
        content["listAppearance"] = style.appearance.rawValue
        content["listPosition"] = style.position.rawValue
        content["listSeparator"] = style.separator ? "true" : "false"
        if style.isHeader { content["listHeader"] = "true" }
        let separators = style.separators
        if separators.top { content["listSeparatorTop"] = "true" }
        if let color = separators.color, separators.top || separators.bottom { content["listSeparatorColor"] = color }
        func points(_ insets: NSDirectionalEdgeInsets) -> String { "\(number(insets.leading)) \(number(insets.trailing))" }
        if separators.bottom, let insets = separators.bottomInsets { content["listSeparatorInsets"] = points(insets) }
        if separators.top, let insets = separators.topInsets { content["listSeparatorTopInsets"] = points(insets) }
    }
}
