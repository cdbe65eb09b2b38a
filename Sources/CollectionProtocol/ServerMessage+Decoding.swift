import Foundation

extension ServerMessage {
    private struct TypeOnly: Decodable { let type: String }
    private struct AckBody: Decodable { let op: String; let seq: Int }
    private struct SelectionBody: Decodable { let viewer: String; let item: String; let selected: Bool }
    private struct PresenceChangeBody: Decodable { let joined: [ViewerInfo]; let left: [String] }
    private struct ErrorBody: Decodable { let code: ErrorCode; let message: String; let op: String? }
    private struct RejectBody: Decodable { let op: String; let code: ErrorCode; let message: String }
    private struct FocusBody: Decodable { let viewer: String; let item: String? }
    private struct DragBody: Decodable { let viewer: String; let item: String?; let x: Double; let y: Double; let over: DragAnchor? }
    private struct LayoutBody: Decodable { let name: String; let by: String }
    private struct EditingBody: Decodable { let on: Bool }
    private struct SelectionsBody: Decodable { let viewer: String; let items: [String]; let selected: Bool }
    private struct DragSessionBody: Decodable { let session: String; let items: [String]; let allowsMove: Bool }
    private struct ContextMenuBody: Decodable { let items: [String]; let menu: MenuEntry? }
    private struct SwipeActionsBody: Decodable { let item: String; let edge: String; let actions: [SwipeActionInfo]; let fullSwipe: Bool }

    /// Decodes a server message (for Swift clients and tests).
    public static func decode(_ bytes: [UInt8]) throws -> ServerMessage {
        let data = Data(bytes)
        let decoder = JSONDecoder()
        switch try decoder.decode(TypeOnly.self, from: data).type {
        case "welcome": return .welcome(try decoder.decode(Welcome.self, from: data))
        case "resume": return .resume(try decoder.decode(Resume.self, from: data))
        case "window": return .window(try decoder.decode(Window.self, from: data))
        case "batch": return .batch(try decoder.decode(Batch.self, from: data))
        case "ack":
            let b = try decoder.decode(AckBody.self, from: data)
            return .ack(op: b.op, seq: b.seq)
        case "selection":
            let b = try decoder.decode(SelectionBody.self, from: data)
            return .selection(viewer: b.viewer, item: b.item, selected: b.selected)
        case "presenceChange":
            let b = try decoder.decode(PresenceChangeBody.self, from: data)
            return .presenceChange(joined: b.joined, left: b.left)
        case "error":
            let b = try decoder.decode(ErrorBody.self, from: data)
            return .error(code: b.code, message: b.message, op: b.op)
        case "reject":
            let b = try decoder.decode(RejectBody.self, from: data)
            return .reject(op: b.op, code: b.code, message: b.message)
        case "focus":
            let b = try decoder.decode(FocusBody.self, from: data)
            return .focus(viewer: b.viewer, item: b.item)
        case "drag":
            let b = try decoder.decode(DragBody.self, from: data)
            return .drag(viewer: b.viewer, item: b.item, at: Point(x: b.x, y: b.y), over: b.over)
        case "layout":
            let b = try decoder.decode(LayoutBody.self, from: data)
            return .layout(name: b.name, by: b.by)
        case "dropProposal": return .dropProposal(try decoder.decode(DropProposal.self, from: data))
        case "editing": return .editing(on: try decoder.decode(EditingBody.self, from: data).on)
        case "contextMenu":
            let b = try decoder.decode(ContextMenuBody.self, from: data)
            return .contextMenu(items: b.items, menu: b.menu)
        case "swipeActions":
            let b = try decoder.decode(SwipeActionsBody.self, from: data)
            return .swipeActions(item: b.item, edge: b.edge, actions: b.actions, fullSwipe: b.fullSwipe)
        case "dragSession":
            let b = try decoder.decode(DragSessionBody.self, from: data)
            return .dragSession(id: b.session, items: b.items, allowsMove: b.allowsMove)
        case "selections":
            let b = try decoder.decode(SelectionsBody.self, from: data)
            return .selections(viewer: b.viewer, items: b.items, selected: b.selected)
        case "actionResult": return .actionResult(try decoder.decode(ActionResult.self, from: data))
        case "order": return .order(try decoder.decode(OrderPart.self, from: data))
        case let other:
            throw ProtocolError(.unknownType, "unknown server message type '\(other)'")
        }
    }

    /// The message's `type` field.
    public var type: String {
        switch self {
        case .welcome: "welcome"
        case .resume: "resume"
        case .window: "window"
        case .batch: "batch"
        case .ack: "ack"
        case .selection: "selection"
        case .presenceChange: "presenceChange"
        case .error: "error"
        case .reject: "reject"
        case .focus: "focus"
        case .drag: "drag"
        case .order: "order"
        case .layout: "layout"
        case .dropProposal: "dropProposal"
        case .editing: "editing"
        case .dragSession: "dragSession"
        case .contextMenu: "contextMenu"
        case .swipeActions: "swipeActions"
        case .selections: "selections"
        case .actionResult: "actionResult"
        }
    }
}
