import CollectionServer
import Synchronization

/// The board's rules, by viewer: editors move cards; the actions "add" (a card,
/// from the page's form: editors), "vote" (a card's button: votes for it, or takes
/// the vote back: anyone signed in) and "remove" (its author's or an editor's), each
/// answered to the one who acted. Guests (not signed in) watch: what they try is
/// refused with the reason, and so is a vote past ``RetroExample/votesPerPerson``.
final class RetroRules: LiveCollectionDelegate {
    let dataSource: LiveDiffableDataSource<RetroColumn, RetroCard>
    let nextID: RetroCounter
    /// user id → the cards it voted for, as decided.
    private let decided = Mutex<[String: Set<String>]?>(nil)

    init(dataSource: LiveDiffableDataSource<RetroColumn, RetroCard>, nextID: RetroCounter) {
        self.dataSource = dataSource
        self.nextID = nextID
    }

    func collectionView(_ collectionView: LiveCollection, resultOfAction action: String, forItemAt indexPath: IndexPath?,
                        payload: [String: String], by viewer: Viewer) -> ActionResult {
        guard let user = viewer.user, !viewer.guest else {
            return .refused("Sign in to \(action == "vote" ? "vote" : "change the board"): a guest's name is its own choice.")
        }
        switch action {
        case "add": return add(payload, by: viewer, user: user)
        case "vote": return vote(indexPath.flatMap(dataSource.itemIdentifier(for:)), user: user)
        case "remove": return remove(indexPath.flatMap(dataSource.itemIdentifier(for:)), by: viewer, user: user)
        default: return .refused("The board has no action “\(action.prefix(40))”.")
        }
    }

    func collectionView(_ collectionView: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool {
        !viewer.guest && viewer.roles.contains("editor")
    }

    private func add(_ payload: [String: String], by viewer: Viewer, user: String) -> ActionResult {
        guard viewer.roles.contains("editor") else { return .refused("Only editors add cards; you may vote.") }
        guard let column = RetroColumn.allCases.first(where: { $0.key == payload["column"] }) else { return .refused("Choose a column.") }
        let text = (payload["text"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...280).contains(text.count) else { return .refused("A card says something in 1 to 280 characters.") }
        let id = nextID.next.withLock { n in
            defer { n += 1 }
            return "c\(n)"
        }
        let card = RetroCard(id: id, text: text, author: user, authorName: viewer.name)
        // Callbacks run with the collection locked: the change is a task of its own,
        // made on the board as it is when it runs.
        change { snapshot in snapshot.appendItems([card], toSection: column) }
        return .done(value: ["id": id])
    }

    private func vote(_ card: RetroCard?, user: String) -> ActionResult {
        guard let card else { return .refused("That card is gone.") }
        // Decided here, at once, against every vote already decided (the board
        // follows a moment later): two quick votes cannot both take the last one.
        let voting: Bool? = ballots { ballots in
            let mine = ballots[user, default: []]
            if mine.contains(card.id) {
                ballots[user]?.remove(card.id)
                return false
            }
            guard mine.count < RetroExample.votesPerPerson else { return nil }
            ballots[user, default: []].insert(card.id)
            return true
        }
        guard let voting else { return .refused("You have used your \(RetroExample.votesPerPerson) votes: take one back first.") }
        let id = card.id
        change { snapshot in
            // The card as it is when the change runs (others may have voted since).
            guard let now = snapshot.itemIdentifiers.first(where: { $0.id == id }) else { return }
            var next = now
            next.voters = voting ? Array(Set(now.voters + [user])).sorted() : now.voters.filter { $0 != user }
            if next != now { snapshot.replace(now, with: next) }
        }
        let votes = card.voters.count + (voting ? 1 : -1)
        return .done(value: ["votes": "\(votes)", "voted": voting ? "true" : "false"])
    }

    /// Who voted for what, as decided (seeded from the board the first time).
    private func ballots<R>(_ body: (inout [String: Set<String>]) -> R) -> R {
        decided.withLock { decided in
            if decided == nil {
                var seeded: [String: Set<String>] = [:]
                for card in dataSource.snapshot().itemIdentifiers {
                    for voter in card.voters { seeded[voter, default: []].insert(card.id) }
                }
                decided = seeded
            }
            return body(&decided!)
        }
    }

    private func remove(_ card: RetroCard?, by viewer: Viewer, user: String) -> ActionResult {
        guard let card else { return .refused("That card is gone.") }
        guard card.author == user || viewer.roles.contains("editor") else { return .refused("Only its author or an editor removes a card.") }
        let id = card.id
        ballots { ballots in
            for user in ballots.keys { ballots[user]?.remove(id) }
        }
        change { snapshot in
            if let now = snapshot.itemIdentifiers.first(where: { $0.id == id }) { snapshot.deleteItems([now]) }
        }
        return .done()
    }

    private func change(_ body: @escaping @Sendable (inout NSDiffableDataSourceSnapshot<RetroColumn, RetroCard>) -> Void) {
        let dataSource = self.dataSource
        Task { _ = try? await dataSource.update { body(&$0) } }
    }
}

/// The number the next card gets (kept in the board's file).
final class RetroCounter: Sendable {
    let next: Mutex<Int>
    init(_ first: Int) { next = Mutex(first) }
}
