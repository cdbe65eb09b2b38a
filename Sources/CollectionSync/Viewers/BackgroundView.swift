import CollectionCore
import CollectionProtocol

/// A collection's background view (UIKit's `backgroundView`) as a view state holds
/// it and its window sends it: a view drawn by the content's template with its
/// fields; its element is the viewport's size at the content's origin (the client
/// keeps it in place as the content scrolls), behind everything.
enum BackgroundView {
    /// The element's key in every window.
    static let key = "bg"
    /// Behind every cell, header and decoration.
    static let zIndex = -1_000

    /// The view for `content` (nil: none).
    static func view(for content: BackgroundContent?) -> CollectionReusableView? {
        guard let content else { return nil }
        let view = CollectionReusableView(reuseIdentifier: content.template)
        view.content = content.fields
        return view
    }

    /// The element of `view` in a viewport of `viewport` (nil without either).
    static func element(of view: CollectionReusableView?, in viewport: Size?) -> Element? {
        guard let view, let viewport else { return nil }
        return Element(key: key, kind: "background", reuse: view.reuseIdentifier, section: 0, item: nil,
                       frame: [0, 0, viewport.width, viewport.height], zIndex: zIndex, content: view.content)
    }
}
