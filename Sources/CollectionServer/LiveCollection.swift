import CollectionProtocol
import CollectionSync
import Locking

/// The app's handle on one collection added with ``CollectionServer/addCollection(named:)``.
///
/// Give it a data source (a ``LiveDiffableDataSource``, or a ``CollectionModel``
/// of string fields with ``load(_:)`` and ``apply(_:reloading:)``), a layout
/// (``setLayoutProvider(modes:_:)``) and a ``delegate``. It may be used from any
/// task or thread: each change is validated, numbered and sent to every viewer
/// like a viewer's edit, attributed to the server.
///
/// Callbacks (delegate, layout provider, cell content) run while the collection
/// is locked: change the collection from one in a new `Task`, not directly.
public final class LiveCollection: Sendable {
    /// The collection's name: what pages ask for.
    public let name: String
    let engine: Engine
    /// Cell classes for a classic data source, registered before it is set.
    let classicCells = Locked<[String: CollectionViewCell.Type]>([:], recursive: true)

    init(name: String, engine: Engine) {
        self.name = name
        self.engine = engine
    }

    /// Runs `body` on the hub, under the engine's lock: a reading or a setting, from
    /// which no message comes (a change that sends goes through ``commit(by:_:)``).
    func onHub<T>(_ body: (CollectionHub) -> T) -> T {
        // The hub exists from addCollection on, so the lookup cannot fail.
        (try? engine.withHub(name, changes: false) { hub in (body(hub), []) })!
    }

    // MARK: Contents

    /// The collection as viewers see it now: identifiers, content fields, templates.
    public var model: CollectionModel { onHub { $0.model } }

    /// The number of the last batch (0 before any).
    public var sequence: Int { onHub { $0.sequence } }

    /// Whether the server's store keeps this collection (see ``Persistence``);
    /// false before the server started, and for a collection the app keeps.
    public var isStored: Bool { engine.isStored(name) }

    /// The history's name: viewers of the same epoch resume after a reconnect
    /// (or a restart, when the collection is stored).
    public var epoch: String { onHub { $0.epoch } }

    /// Sets the starting contents, before any viewer connected or any batch was
    /// made (no batch comes of it). Returns false, changing nothing, after that,
    /// and when the contents were restored from the store.
    ///
    /// - Parameter model: The starting contents.
    /// - Returns: Whether they were taken.
    @discardableResult
    public func load(_ model: CollectionModel) -> Bool { onHub { $0.load(model) } }

    /// Makes the collection `model` in one numbered batch (what changed is worked
    /// out by identifier: inserts, deletes, moves), reloading the cells of the
    /// items in `reloading` (new cells) and reconfiguring those in `reconfiguring`
    /// (the same cells configured again: selections stay). It returns, with the batch's sequence number, once
    /// the batch is queued to every connected viewer, in order after what they
    /// were sent before. Throws, changing nothing, when the change breaks a limit.
    /// The batch names `viewer` as its author (`by`): the viewer a handler acts for
    /// (a menu's or a swipe's action); by default the server itself.
    ///
    /// - Parameters:
    ///   - model: The contents to make the collection.
    ///   - reloading: Items whose cells are made anew.
    ///   - reconfiguring: Items whose cells are configured again.
    ///   - viewer: The batch's author.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` (`refused`, `invalidBatch`, `storageUnavailable`…) when the change is not made.
    @discardableResult
    public func apply(_ model: CollectionModel, reloading: [String] = [], reconfiguring: [String] = [],
                      by viewer: Viewer = .server) async throws(ProtocolError) -> Int {
        try await engine.changes.perform { () throws(ProtocolError) in
            try commit(by: viewer) { _ in Change(model: model, reloading: reloading, reconfiguring: reconfiguring) }
        }
    }

    /// Changes the model in place and applies the result as one batch (see
    /// ``apply(_:reloading:)``); `body` gets the current model and returns the
    /// items to reload.
    ///
    /// - Parameters:
    ///   - viewer: The batch's author.
    ///   - body: Changes the model; returns the items to reload.
    /// - Returns: The batch's sequence number.
    /// - Throws: ``ProtocolError`` when the change is not made.
    @discardableResult
    public func update(by viewer: Viewer = .server, _ body: sending (inout CollectionModel) -> [String]) async throws(ProtocolError) -> Int {
        try await engine.changes.perform { () throws(ProtocolError) in
            try commit(by: viewer) { current in
                var next = current
                let reloading = body(&next)
                return Change(model: next, reloading: reloading)
            }
        }
    }

    /// A change: the next model, and the items whose cells are made again or configured again.
    struct Change {
        var model: CollectionModel
        var reloading: [String] = []
        var reconfiguring: [String] = []
    }

    /// Under the lock: the next model from the current one, committed.
    func commit(by viewer: Viewer = .server, _ next: (CollectionModel) -> Change) throws(ProtocolError) -> Int {
        try engine.withHub(name) { hub throws(ProtocolError) in
            let change = next(hub.model)
            let out = try hub.apply(change.model, reloading: change.reloading, reconfiguring: change.reconfiguring, by: viewer.id)
            return (hub.sequence, out)
        }
    }

    /// The page template section headers are drawn with (`tpl-header` by default).
    /// Set before viewers connect.
    public var headerTemplate: String {
        get { onHub { $0.model.headerReuseIdentifier } }
        set { onHub { $0.setDefaultTemplates(header: newValue) } }
    }

    // MARK: Viewers

    /// The viewer whose message is being handled, while an app's handler runs for it
    /// (a swipe action's, a menu action's, a delegate's); nil outside one. A handler
    /// that changes the collection later, in a `Task`, passes it as the batch's author.
    public var actingViewer: Viewer? { onHub { $0.actingViewer } }

    /// The viewers watching now (those that said hello), in the order they came.
    public var viewers: [Viewer] { onHub { $0.presentViewers } }

    /// Names viewers as they arrive: given the proposed identity (the page's
    /// `name`, a colour), returns the one everybody sees. The id stays the server's.
    ///
    /// - Parameter identify: Given the proposed identity, the one everybody sees.
    public func setViewerIdentity(_ identify: @escaping @Sendable (Viewer) -> Viewer) {
        onApp { _, app in app.identify = identify }
    }

    /// Decides what each viewer may do here (view, select, edit), at its hello,
    /// from who it is: ``Viewer/user`` and ``Viewer/roles`` (nil and empty for an
    /// anonymous viewer). A message it may not send gets `forbidden` and changes
    /// nothing; without view it is not welcomed. By default everyone may do everything.
    ///
    /// - Parameter rule: What a viewer may do here, from who it is.
    public func setPermissions(_ rule: @escaping @Sendable (Viewer) -> ViewerPermissions) {
        onApp { _, app in app.permissions = rule }
    }

    /// Which edits viewers may send (default: moves only; each move still asks
    /// the delegate). Inserts need ``setItemFactory(_:)``.
    public var allowedEdits: ViewerEdits {
        get { onHub { $0.allowedEdits } }
        set { onHub { $0.allowedEdits = newValue } }
    }

    /// This collection's limits (change before viewers connect).
    public var limits: HubLimits {
        get { onHub { $0.limits } }
        set { onHub { $0.limits = newValue } }
    }

    /// Makes the items viewers insert (with ``allowedEdits`` holding `.insert`).
    ///
    /// - Parameter factory: Makes each new item's identifier and content.
    public func setItemFactory(_ factory: some ItemFactory) { onHub { $0.factory = factory } }

    // MARK: Layout

    /// Sets how each viewer's flow layout follows its viewport (before viewers connect).
    ///
    /// - Parameter policy: Configures a flow layout for each viewport.
    public func setLayoutPolicy(_ policy: some LayoutPolicy) { onHub { $0.policy = policy } }

    /// Sets the layout provider: called for each viewer with its environment
    /// (viewport, size class, mode), and again when that changes; it returns any
    /// layout (a flow layout whose sizes come from the delegate, or a custom
    /// subclass). `modes` are the modes viewers may switch between with a
    /// `layout` message; the first is the initial one.
    ///
    /// - Parameters:
    ///   - modes: The modes viewers may switch between; the first is the initial one.
    ///   - provider: The layout for a viewer's environment.
    public func setLayoutProvider(modes: [String] = ["default"], _ provider: @escaping @Sendable (LayoutEnvironment) -> CollectionViewLayout) {
        onHub { $0.policy = LayoutProviderPolicy(modes: modes, provider: provider) }
    }

    // MARK: Delegates

    /// The app's delegate: UIKit's callbacks with the viewer who caused them
    /// (held strongly).
    public var delegate: (any LiveCollectionDelegate)? {
        get { onHub { ($0.delegate as? DelegateBridge)?.target } }
        set { onApp { hub, app in DelegateBridge.install(newValue, on: hub, app: app, for: self) } }
    }

    /// The drop delegate (UIKit's `dropDelegate`): drops from other collections and
    /// from outside the page.
    ///
    /// - Parameter dropDelegate: Answers drops with proposals and performs them (nil: none are taken).
    public func setDropDelegate(_ dropDelegate: sending (any CollectionViewDropDelegate)?) {
        try? engine.withHub(name) { hub in
            hub.dropDelegate = dropDelegate
            return ((), [])
        }
    }
}

extension LiveCollection {
    /// The view behind every cell (UIKit's `backgroundView`), for every viewer:
    /// the page's template `tpl-<template>` with the content's fields, as large as
    /// the viewport and not scrolling. nil: none. Viewers see a change at once.
    public var backgroundView: CellContent? {
        get { onHub { hub in hub.currentBackground.map { CellContent(template: $0.template, fields: $0.fields) } } }
        set {
            try? engine.withHub(name) { hub in
                ((), hub.setBackgroundView(newValue.map { BackgroundContent(template: $0.template, fields: $0.fields) }))
            }
        }
    }

    /// Makes the background view from the collection now and after every change:
    /// an empty state when there are no items, say (`nil` from `provider`: none).
    ///
    /// - Parameter provider: The background for the collection as it is (nil: none).
    public func setBackgroundView(_ provider: @escaping @Sendable (CollectionModel) -> CellContent?) {
        try? engine.withHub(name) { hub in
            hub.app.background = provider
            return ((), hub.setBackgroundFollowsModel(true))
        }
    }
}
