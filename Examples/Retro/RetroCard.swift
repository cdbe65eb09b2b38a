import CollectionServer

/// A card of the retro board: the app's own item, a plain Swift struct. It is
/// `Identifiable`: a card whose text or votes change is the same card (its cell is
/// configured again), and pages and the protocol name it by its id.
public struct RetroCard: Sendable, Codable, Hashable, Identifiable {
    /// Unique for the board's life ("c12").
    public var id: String
    /// What was said.
    public var text: String
    /// Who wrote it (its user id) and the name shown.
    public var author: String
    public var authorName: String
    /// The user ids that voted for it, sorted.
    public var voters: [String]

    /// A card with no votes.
    public init(id: String, text: String, author: String, authorName: String, voters: [String] = []) {
        self.id = id
        self.text = text
        self.author = author
        self.authorName = authorName
        self.voters = voters
    }
}

/// The board's columns, in order.
public enum RetroColumn: String, Sendable, Codable, CaseIterable {
    case well = "Went well", improve = "To improve", actions = "Actions"

    /// The name a page's form sends ("well", "improve", "actions").
    public var key: String { String(describing: self) }
}

/// What a card's cell shows (the page's `tpl-card` template).
struct RetroCardCell: Encodable, Sendable {
    var text: String
    var author: String
    var votes: String
    /// Labels for the card's buttons that name the card (for screen readers).
    var voteLabel: String
    var removeLabel: String
}

/// The timer's one item: what the page's `tpl-timer` shows.
struct RetroTimerCell: Encodable, Sendable {
    /// "4:59", or "5:00" when stopped.
    var remaining: String
    /// "stopped", "running" or "over".
    var state: String
}
