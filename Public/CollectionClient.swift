import Foundation

/// The browser client: ES modules and CSS in `collection-view/`, shipped as this
/// target's resources and served by `CollectionServer` at ``mountPath``. (This
/// file is the only Swift in Public/; it is not served.)
public enum CollectionClient {
    /// The client's version, part of the path it is served at.
    public static let version = "v1"
    /// The URL path the client's files are served under.
    public static let mountPath = "/collection-view/\(version)/"
    /// The folder holding the client's files.
    public static var directory: String? {
        Bundle.module.url(forResource: "collection-view", withExtension: nil)?.path
    }
}
