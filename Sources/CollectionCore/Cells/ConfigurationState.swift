import Foundation

/// A key for an app's own value in a configuration state, as UIKit's
/// `UIConfigurationStateCustomKey`.
public struct ConfigurationStateCustomKey: Hashable, RawRepresentable, Sendable {
    public let rawValue: String
    /// A key named `rawValue` (reverse-DNS by custom, such as "com.example.item").
    /// - Parameter rawValue: The key's name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// What a view's configuration depends on, as UIKit's `UIConfigurationState`:
/// its states, and an app's own values under custom keys.
public protocol ConfigurationState {
    /// The app's value for `key` (nil: none).
    /// - Parameter key: The key.
    /// - Returns: The value kept under it.
    subscript(key: ConfigurationStateCustomKey) -> AnyHashable? { get set }
}

/// A cell's state, as UIKit's `UICellConfigurationState`: given to
/// `updateConfiguration(using:)` and a cell's `configurationUpdateHandler`, and to
/// a content configuration's `updated(for:)`.
public struct CellConfigurationState: ConfigurationState, Hashable {
    /// The cell cannot be chosen.
    public var isDisabled = false
    /// The pointer (or a finger) is down on it.
    public var isHighlighted = false
    /// It is selected.
    public var isSelected = false
    /// It has the focus.
    public var isFocused = false
    /// Its collection view is editing.
    public var isEditing = false
    /// Its item is expanded in an outline (section snapshots).
    public var isExpanded = false
    /// Its swipe actions are showing.
    public var isSwiped = false
    /// It is being moved (an interactive movement).
    public var isReordering = false
    private var custom: [ConfigurationStateCustomKey: AnyHashable] = [:]

    /// A state with every flag off.
    public init() {}

    public subscript(key: ConfigurationStateCustomKey) -> AnyHashable? {
        get { custom[key] }
        set { custom[key] = newValue }
    }
}
