import CollectionCore
import CollectionProtocol

/// What a viewer's layout is made for: UIKit's `NSCollectionLayoutEnvironment` and
/// trait collection, reduced to what a browser viewer has. A layout provider is
/// called again whenever one of these changes for a viewer.
public struct LayoutEnvironment: Sendable, Hashable {
    /// UIKit's `UIUserInterfaceSizeClass`, for the viewport's width.
    public enum SizeClass: String, Sendable, Hashable {
        /// Narrower than 600 points (`compact`) or not (`regular`).
        case compact, regular
    }

    /// The viewport the layout fills (at most the hub's `maxViewport` each way).
    public var container: Size
    /// Compact below 600 points of width (a phone held upright), regular above.
    public var horizontalSizeClass: SizeClass
    /// The layout mode the app chose (one of its `layoutNames`; viewers switch it with `layout`).
    public var mode: String

    /// An environment for `container` in `mode`; the size class follows the width.
    /// - Parameters:
    ///   - container: The viewport.
    ///   - mode: The layout mode (one of the app's `layoutNames`).
    public init(container: Size, mode: String) {
        self.container = container
        self.mode = mode
        horizontalSizeClass = container.width < 600 ? .compact : .regular
    }
}

/// A layout policy built from a provider: each viewer gets the layout the provider
/// makes for its environment.
public struct LayoutProviderPolicy: LayoutPolicy {
    /// Makes a viewer's layout.
    public let provider: @Sendable (LayoutEnvironment) -> CollectionViewLayout
    /// The modes viewers may switch between; the first is the initial one.
    public let layoutNames: [String]

    /// A policy that asks `provider` for every environment.
    public init(modes: [String], provider: @escaping @Sendable (LayoutEnvironment) -> CollectionViewLayout) {
        self.provider = provider
        layoutNames = modes.isEmpty ? ["default"] : modes
    }

    /// Unused: ``makeLayout(for:)`` makes every layout.
    public func configure(_ layout: CollectionViewFlowLayout, for size: Size) {}

    /// The provider's layout.
    public func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? { provider(environment) }
}
