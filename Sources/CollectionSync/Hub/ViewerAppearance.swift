import CollectionProtocol
import Foundation

/// How a viewer is shown to others: its display name and its colour, made safe
/// for any page to show as they are.
enum ViewerAppearance {
    /// The colours viewers are given in turn (anonymous ones) or by their user's id.
    static let palette = ["#e4572e", "#17bebb", "#ffc914", "#76b041", "#7d5ba6", "#f06292", "#2e86ab", "#ff8c42"]

    /// What others see of viewer number `n` (its id after `prefix`): "Viewer n" in
    /// the palette's next colour, or, signed in as `identity`, its name (or id) and
    /// its colour (or one picked from its id).
    static func info(number n: Int, prefix: String, identity: Identity?) -> ViewerInfo {
        var info = ViewerInfo(id: "\(prefix)v\(n)", name: "Viewer \(n)", color: palette[(n - 1) % palette.count])
        guard let identity else { return info }
        info.guest = false
        info.user = identity.id
        info.roles = identity.roles
        let name = displayName(identity.name)
        info.name = name.isEmpty ? identity.id : name
        info.color = identity.color.flatMap { isSafeColor($0) ? $0 : nil } ?? color(forUser: identity.id)
        return info
    }

    /// What the app chose to show of a viewer (its delegate's `identify`), made safe:
    /// the id stays the server's (unique, and what presence is keyed by), the user
    /// and roles authentication's; the name is cleaned, an unsafe colour not taken.
    static func chosen(_ chosen: ViewerInfo, for info: ViewerInfo) -> ViewerInfo {
        var chosen = chosen
        chosen.id = info.id
        chosen.user = info.user
        chosen.roles = info.roles
        chosen.name = displayName(chosen.name)
        if !isSafeColor(chosen.color) { chosen.color = info.color }
        return chosen
    }

    /// Who `info` is, in a refusal: the signed-in user, or a guest (what the pages
    /// and the protocol call a viewer no one signed in, even one the app named).
    static func who(_ info: ViewerInfo) -> String {
        info.user.map { "user '\($0.prefix(64))'" } ?? "a guest"
    }

    /// A colour of the palette picked from a user's id: the same user gets the same one each time.
    static func color(forUser id: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return palette[Int(hash % UInt64(palette.count))]
    }

    /// A name as others are shown it: control characters out, spaces collapsed, at most 40 characters.
    static func displayName(_ raw: String) -> String {
        let words = raw.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) }
        return String(String(words).split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(40))
    }

    /// A colour a page can use as a CSS value as it is: `#rgb`…`#rrggbbaa`, a
    /// named colour, or a colour function (`hsl(200 50% 40%)`, `rgb(…)`, `oklch(…)`…).
    static func isSafeColor(_ color: String) -> Bool {
        guard (1...40).contains(color.count), color.allSatisfy({ $0.isASCII }) else { return false }
        if color.hasPrefix("#") { return [4, 5, 7, 9].contains(color.count) && color.dropFirst().allSatisfy(\.isHexDigit) }
        if color.allSatisfy(\.isLetter) { return true }
        let functions = ["rgb(", "rgba(", "hsl(", "hsla(", "hwb(", "lab(", "lch(", "oklab(", "oklch("]
        guard functions.contains(where: color.hasPrefix), color.hasSuffix(")") else { return false }
        let inside = color.drop { $0 != "(" }.dropFirst().dropLast()
        return inside.allSatisfy { $0.isNumber || " .,%/-".contains($0) || $0.isLetter && "degturnad".contains($0) }
    }
}
