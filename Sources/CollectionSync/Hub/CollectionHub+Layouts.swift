import CollectionCore
import CollectionProtocol
import Foundation

extension CollectionHub {
    /// `layout`: every viewer's collection view switches to the named layout
    /// (`setCollectionViewLayout(_:animated:)`) and gets its window animated to
    /// the new frames; then everyone hears the new name. Not an edit: no sequence number.
    func switchLayout(to name: String, by sender: ViewerConnection) throws(ProtocolError) -> [Outgoing] {
        guard policy.layoutNames.contains(name) else {
            throw ProtocolError(.badMessage, "no layout named '\(name.prefix(64))'; expected one of \(policy.layoutNames.joined(separator: ", "))")
        }
        return switchLayout(to: name, by: sender.info.id, relaying: true)
    }

    /// The switch itself, for a viewer here or (not relayed again) one of another node.
    func switchLayout(to name: String, by id: String, relaying: Bool) -> [Outgoing] {
        // (A viewer may have a layout of its own, from an interactive transition it finished.)
        guard name != layoutName || viewers.values.contains(where: { $0.layoutName != name }) else { return [] }
        layoutName = name
        let out = viewers.switchLayout(to: name, policy: policy) { resumeMovement(of: $0) }
        return out + broadcast(.layout(name: name, by: id), relaying: relaying)
    }
}
