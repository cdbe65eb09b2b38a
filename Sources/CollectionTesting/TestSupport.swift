import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation

/// New items named `<prefix><serial>`, titled "New <serial>" (for hub tests).
public struct SerialItemFactory: ItemFactory {
    /// Prefix of new item identifiers.
    public let prefix: String
    /// Creates a factory.
    ///
    /// - Parameter prefix: What every new identifier starts with.
    public init(prefix: String = "n") { self.prefix = prefix }

    public func makeItem(serial: Int, section: String) -> (id: String, content: [String: String]) {
        ("\(prefix)\(serial)", ["title": "New \(serial)"])
    }
}

/// One item size and header height whatever the viewport, other flow-layout
/// settings at UIKit's defaults (spacing 10, no insets): frames easy to compute by hand.
public struct FixedLayoutPolicy: LayoutPolicy {
    /// Every item's size.
    public let itemSize: CGSize
    /// Every section header's height.
    public let headerHeight: CGFloat
    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - itemSize: Every item's size.
    ///   - headerHeight: Every section header's height.
    public init(itemSize: CGSize, headerHeight: CGFloat) {
        self.itemSize = itemSize
        self.headerHeight = headerHeight
    }

    public func configure(_ layout: CollectionViewFlowLayout, for size: Size) {
        layout.itemSize = itemSize
        layout.headerReferenceSize = CGSize(width: 0, height: headerHeight)
    }
}
