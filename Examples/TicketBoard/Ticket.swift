import CollectionServer

/// A ticket: the app's own item, a plain Swift struct. Two tickets are the same
/// item when their ids are equal (a changed title is the same ticket,
/// reconfigured); pages and the protocol name a ticket by its id.
public struct Ticket: Sendable, Codable, Identifiable {
    /// Unique for the board's life.
    public var id: Int
    /// What is to be done.
    public var title: String
    /// Who owns it: only they may move it.
    public var owner: String
    /// Its column.
    public var status: Status

    /// The board's columns, in order.
    public enum Status: String, Sendable, Codable, CaseIterable {
        case todo = "To do", doing = "Doing", done = "Done"
    }

    /// A ticket.
    public init(id: Int, title: String, owner: String, status: Status = .todo) {
        self.id = id
        self.title = title
        self.owner = owner
        self.status = status
    }

    /// The board's first tickets.
    public static let samples: [Ticket] = [
        Ticket(id: 1, title: "Write the release notes", owner: "Ana", status: .todo),
        Ticket(id: 2, title: "Fix the login redirect when the session expired while a form was open and half filled in", owner: "Ben", status: .todo),
        Ticket(id: 3, title: "Upgrade the database driver", owner: "Ana", status: .doing),
        Ticket(id: 4, title: "Review the onboarding copy", owner: "Chloé", status: .doing),
        Ticket(id: 5, title: "Ship 2.3", owner: "Ben", status: .done),
    ]
}

extension Ticket: Hashable {
    public static func == (a: Ticket, b: Ticket) -> Bool { a.id == b.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// What a ticket's cell shows (the page's `tpl-ticket` template).
struct TicketCell: Encodable, Sendable {
    var title: String
    var owner: String
    var number: String
}
