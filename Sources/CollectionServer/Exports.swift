// What an app needs, through one import: `import CollectionServer`.
import CollectionSync
@_exported import CollectionCore
// Of Foundation, the types UIKit's collection API is written in; an app that uses more
// of Foundation imports it, as a UIKit app gets it through `import UIKit`.
@_exported import struct Foundation.IndexPath
@_exported import struct Foundation.IndexSet
@_exported import struct Foundation.CGFloat
@_exported import struct Foundation.CGPoint
@_exported import struct Foundation.CGSize
@_exported import struct Foundation.CGRect
@_exported import struct Logging.Logger
@_exported import struct CollectionProtocol.Size
@_exported import struct CollectionProtocol.Point
@_exported import struct CollectionProtocol.ViewerInfo
@_exported import struct CollectionProtocol.ProtocolError
@_exported import enum CollectionProtocol.ErrorCode
@_exported import struct CollectionSync.CollectionModel
@_exported import struct CollectionSync.HubLimits
@_exported import struct CollectionSync.ViewerEdits
@_exported import struct CollectionSync.LayoutEnvironment
@_exported import protocol CollectionSync.ItemFactory
@_exported import protocol CollectionSync.LayoutPolicy
@_exported import class CollectionSync.ModelDropDelegate
@_exported import class CollectionSync.ModelDropCoordinator
@_exported import protocol CollectionSync.CollectionStore
@_exported import protocol CollectionSync.SharedCollectionStore
@_exported import struct CollectionSync.StoredCollection
@_exported import struct CollectionSync.CommittedBatch
@_exported import struct CollectionSync.StoreError
@_exported import class CollectionSync.InMemoryCollectionStore
@_exported import class CollectionStorage.SQLiteCollectionStore
@_exported import struct CollectionSync.Identity
@_exported import struct CollectionSync.ViewerPermissions
@_exported import struct WebSocketTransport.Handshake
@_exported import enum WebSocketTransport.HTTPMethod
@_exported import struct WebSocketTransport.HTTPRequest
@_exported import struct WebSocketTransport.HTTPResponse
@_exported import enum CollectionClient.CollectionClient

/// A viewer: its id (unique on the server), display name and colour.
public typealias Viewer = ViewerInfo

extension Viewer {
    /// Who acts when no viewer does: the server itself (batches it makes say `by: "server"`).
    public static let server = Viewer(id: CollectionHub.serverAuthor, name: "server", color: "#888")
}
