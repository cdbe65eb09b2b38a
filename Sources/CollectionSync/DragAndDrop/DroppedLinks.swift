import CollectionCore
import CollectionProtocol
import Foundation

/// Which dropped links come in: content is plain text, and a link is kept only
/// with a scheme a page may follow.
public enum DroppedLinks {
    /// Schemes a dropped link may have; links with any other (`javascript:`, `data:`…)
    /// are left out of the drop.
    public static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// Whether `link` starts with an allowed scheme (case-insensitive, as URLs are).
    public static func isAllowed(_ link: String) -> Bool {
        let trimmed = link.drop { $0.isWhitespace }
        guard let colon = trimmed.firstIndex(of: ":") else { return false }
        return allowedSchemes.contains(trimmed[..<colon].lowercased())
    }
}

extension DropSession {
    /// The session of a drop from outside the page (`drop` or `dropUpdate` with
    /// `items`): its content is plain text, and its links come in only with a
    /// scheme a page may follow (``DroppedLinks``); none left is refused.
    static func external(_ request: ClientMessage.DropRequest) throws(ProtocolError) -> DropSession {
        let items = request.items.filter { $0.kind != "url" || $0.value.isEmpty || DroppedLinks.isAllowed($0.value) }
        guard !items.isEmpty else {
            throw ProtocolError(.badMessage, "a dropped link must be an http, https or mailto URL; nothing was dropped")
        }
        return DropSession(items: items.map { DragItem(kind: $0.kind, value: $0.value) }, location: CGPoint(x: request.at.x, y: request.at.y))
    }
}
