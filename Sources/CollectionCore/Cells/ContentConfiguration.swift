import Foundation

/// What a cell's content view shows, as UIKit's `UIContentConfiguration`: a value
/// that makes its view, and a copy of itself for a state.
///
/// The browser draws the cell, so what reaches it are ``fields``: the content
/// fields the cell's template fills. A configuration that is `Encodable` gives its
/// top-level properties as fields by default (strings as they are, numbers and
/// booleans as JSON writes them); any other gives none unless it says.
public protocol ContentConfiguration {
    /// The view that shows this configuration.
    /// - Returns: A new view showing it.
    func makeContentView() -> any View & ContentView
    /// This configuration as it should look in `state`.
    /// - Parameter state: The cell's state (selected, highlighted, editing…).
    /// - Returns: The configuration for it.
    func updated(for state: any ConfigurationState) -> Self
    /// The content fields a cell showing it carries to the browser.
    var fields: [String: String] { get }
}

extension ContentConfiguration {
    public var fields: [String: String] { [:] }
}

extension ContentConfiguration where Self: Encodable {
    public var fields: [String: String] { ContentFields.of(self) }
}

/// A view that shows a content configuration, as UIKit's `UIContentView`.
public protocol ContentView: AnyObject {
    /// What it shows.
    var configuration: any ContentConfiguration { get set }
    /// Whether it can show `configuration` (by default, when it is of the same type
    /// as the current one).
    /// - Parameter configuration: A configuration to show.
    /// - Returns: Whether this view can show it (else a new view is made).
    func supports(_ configuration: any ContentConfiguration) -> Bool
}

extension ContentView {
    public func supports(_ configuration: any ContentConfiguration) -> Bool {
        type(of: configuration) == type(of: self.configuration)
    }
}

/// A list row's standard content, as UIKit's `UIListContentView`: shows a
/// ``ListContentConfiguration``. Inside a cell (at any depth), the configuration's
/// fields become the cell's, which the browser's list row draws.
open class ListContentView: View, ContentView {
    /// What it shows (a ``ListContentConfiguration``; another kind is ignored).
    open var configuration: any ContentConfiguration {
        get { listConfiguration }
        set {
            guard let list = newValue as? ListContentConfiguration else { return }
            listConfiguration = list
        }
    }
    /// The same, typed.
    public private(set) var listConfiguration: ListContentConfiguration {
        didSet { writeFields() }
    }

    /// A view showing `configuration`.
    /// - Parameter configuration: What it shows.
    public init(configuration: ListContentConfiguration) {
        listConfiguration = configuration
        super.init(frame: .zero)
    }

    public required init?(coder: NSCoder) { return nil }

    public func supports(_ configuration: any ContentConfiguration) -> Bool { configuration is ListContentConfiguration }

    open override func didMoveToSuperview() {
        super.didMoveToSuperview()
        writeFields()
    }

    /// Writes the configuration's fields into the reusable view that holds this one.
    private func writeFields() {
        enclosingReusableView?.setContentFields(listConfiguration.fields)
    }
}

extension View {
    /// The cell or supplementary view this view is inside (itself, if it is one).
    var enclosingReusableView: CollectionReusableView? {
        var v: View? = self
        while let current = v {
            if let reusable = current as? CollectionReusableView { return reusable }
            v = current.superview
        }
        return nil
    }
}
