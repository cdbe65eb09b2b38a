import Foundation

/// A view at a list cell's edge, as UIKit's `UICellAccessory`: made with UIKit's
/// functions and arguments. The page draws the system accessories (disclosure
/// indicator, checkmark, delete, insert, reorder, outline disclosure) from the
/// cell's `accessories` field, those of its viewer's editing mode; hidden ones are
/// left out of it.
public struct CellAccessory {
    /// In which editing states of the cell the accessory shows (UIKit's).
    public enum DisplayedState: Sendable, Hashable {
        /// In every state (`always`), only while editing, or only while not.
        case always, whenEditing, whenNotEditing
    }

    /// How wide the page keeps the accessory's place (UIKit's; the page sizes its
    /// accessories itself, so this is kept and not drawn).
    public enum LayoutDimension: Sendable, Hashable {
        /// The accessory's own width (`actual`) or the system's (`standard`).
        case actual, standard
        /// So many points.
        case custom(CGFloat)
    }

    /// What runs when a viewer chooses the accessory: on the server, with the
    /// collection locked (as a swipe action's handler), so it is `@Sendable`.
    public typealias ActionHandler = @Sendable () -> Void
    /// Where a custom accessory goes among the others at its edge: given them, its index.
    public typealias PlacementPosition = ([CellAccessory]) -> Int

    /// Options of a disclosure indicator.
    public struct DisclosureIndicatorOptions: Sendable, Hashable {
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        public init(isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil) {
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
        }
    }

    /// Options of a checkmark.
    public struct CheckmarkOptions: Sendable, Hashable {
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        public init(isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil) {
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
        }
    }

    /// Options of a delete control.
    public struct DeleteOptions: Sendable, Hashable {
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Its background (nil: the system's; kept).
        public var backgroundColor: Color?
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        ///   - backgroundColor: Its background (nil: the system's).
        public init(isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil, backgroundColor: Color? = nil) {
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
            self.backgroundColor = backgroundColor
        }
    }

    /// Options of an insert control.
    public struct InsertOptions: Sendable, Hashable {
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Its background (nil: the system's; kept).
        public var backgroundColor: Color?
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        ///   - backgroundColor: Its background (nil: the system's).
        public init(isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil, backgroundColor: Color? = nil) {
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
            self.backgroundColor = backgroundColor
        }
    }

    /// Options of a reorder control.
    public struct ReorderOptions: Sendable, Hashable {
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Whether a separator line stands before it (kept).
        public var showsVerticalSeparator: Bool
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        ///   - showsVerticalSeparator: Whether a separator stands before it (nil: yes).
        public init(isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil, showsVerticalSeparator: Bool? = nil) {
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
            self.showsVerticalSeparator = showsVerticalSeparator ?? true
        }
    }

    /// Options of an outline disclosure.
    public struct OutlineDisclosureOptions: Sendable, Hashable {
        /// UIKit's styles: a header's disclosure expands on a tap anywhere on the row; a cell's only on the chevron.
        public enum Style: Sendable, Hashable {
            /// The header style for a header row, the cell style otherwise (UIKit's).
            case automatic
            /// A tap anywhere on the row expands it.
            case header
            /// Only the chevron expands it.
            case cell
        }
        /// How it expands: on a tap on the row (a header) or on the chevron only (a cell).
        public var style: Style
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - style: How it expands (nil: `.automatic`).
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        public init(style: Style? = nil, isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil, tintColor: Color? = nil) {
            self.style = style ?? .automatic
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
        }
    }

    /// Where a custom accessory sits: at the leading or trailing edge, in some
    /// editing states, at a position among the others there.
    public enum Placement {
        /// At the leading edge, in the `displayed` states, at the index `at` gives.
        case leading(displayed: DisplayedState = .always, at: PlacementPosition = { _ in 0 })
        /// At the trailing edge, in the `displayed` states, at the index `at` gives.
        case trailing(displayed: DisplayedState = .always, at: PlacementPosition = { _ in 0 })
    }

    /// A custom accessory's view and placement, as UIKit's `CustomViewConfiguration`.
    /// The page cannot draw an app's view: the accessory is kept on the cell (its
    /// view's `accessibilityLabel`, if any, is drawn as its text).
    public struct CustomViewConfiguration {
        /// The app's view (the page draws its `accessibilityLabel` as text).
        public var customView: View
        /// The edge it sits at, in which editing states, and where among the others.
        public var placement: Placement
        /// Whether it is hidden (left out of the cell's `accessories`).
        public var isHidden: Bool
        /// How wide its place is kept (kept; the page sizes accessories itself).
        public var reservedLayoutWidth: LayoutDimension
        /// Its tint (nil: the cell's; kept, the page draws its own).
        public var tintColor: Color?
        /// Whether it keeps its view's size (kept).
        public var maintainsFixedSize: Bool
        /// Options; each left out takes UIKit's default.
        /// - Parameters:
        ///   - customView: The app's view.
        ///   - placement: Where it sits.
        ///   - isHidden: Whether it is hidden (nil: no).
        ///   - reservedLayoutWidth: How wide its place is kept (nil: `.standard`).
        ///   - tintColor: Its tint (nil: the cell's).
        ///   - maintainsFixedSize: Whether it keeps its view's size (nil: no).
        public init(customView: View, placement: Placement, isHidden: Bool? = nil, reservedLayoutWidth: LayoutDimension? = nil,
                    tintColor: Color? = nil, maintainsFixedSize: Bool? = nil) {
            self.customView = customView
            self.placement = placement
            self.isHidden = isHidden ?? false
            self.reservedLayoutWidth = reservedLayoutWidth ?? .standard
            self.tintColor = tintColor
            self.maintainsFixedSize = maintainsFixedSize ?? false
        }
    }

    /// Which accessory: `disclosureIndicator`, `checkmark`, `delete`, `insert`,
    /// `reorder`, `outlineDisclosure` (with `:expanded` or `:collapsed` when given
    /// explicitly), `custom`.
    public let name: String
    /// The name without an outline disclosure's state: what a viewer's `accessory`
    /// message names.
    public var kind: String { name.hasPrefix("outlineDisclosure") ? "outlineDisclosure" : name }
    /// In which editing states it shows.
    public let displayed: DisplayedState
    /// Hidden by its options.
    public let isHidden: Bool
    /// Its tint (kept; the page draws its own).
    public let tintColor: Color?
    /// What runs when a viewer chooses it (nil: the accessory's own behaviour).
    public let actionHandler: ActionHandler?
    /// A custom accessory's configuration.
    public let customViewConfiguration: CustomViewConfiguration?

    init(name: String, displayed: DisplayedState = .always, isHidden: Bool = false, tintColor: Color? = nil,
         actionHandler: ActionHandler? = nil, custom: CustomViewConfiguration? = nil) {
        self.name = name
        self.displayed = displayed
        self.isHidden = isHidden
        self.tintColor = tintColor
        self.actionHandler = actionHandler
        customViewConfiguration = custom
    }

    /// A chevron at the trailing edge: choosing the row shows more.
    /// - Parameters:
    ///   - displayed: The editing states it shows in.
    ///   - options: Its options.
    /// - Returns: The accessory.
    public static func disclosureIndicator(displayed: DisplayedState = .always, options: DisclosureIndicatorOptions = DisclosureIndicatorOptions()) -> CellAccessory {
        CellAccessory(name: "disclosureIndicator", displayed: displayed, isHidden: options.isHidden, tintColor: options.tintColor)
    }

    /// A checkmark at the trailing edge (the row reads as checked).
    /// - Parameters:
    ///   - displayed: The editing states it shows in.
    ///   - options: Its options.
    /// - Returns: The accessory.
    public static func checkmark(displayed: DisplayedState = .always, options: CheckmarkOptions = CheckmarkOptions()) -> CellAccessory {
        CellAccessory(name: "checkmark", displayed: displayed, isHidden: options.isHidden, tintColor: options.tintColor)
    }

    /// A delete control at the leading edge, shown while editing by default: choosing
    /// it reveals the row's trailing swipe actions (UIKit's), or runs `actionHandler`.
    /// - Parameters:
    ///   - displayed: The editing states it shows in.
    ///   - options: Its options.
    ///   - actionHandler: What runs when a viewer chooses it (nil: the swipe actions show).
    /// - Returns: The accessory.
    public static func delete(displayed: DisplayedState = .whenEditing, options: DeleteOptions = DeleteOptions(), actionHandler: ActionHandler? = nil) -> CellAccessory {
        CellAccessory(name: "delete", displayed: displayed, isHidden: options.isHidden, tintColor: options.tintColor, actionHandler: actionHandler)
    }

    /// An insert control at the leading edge, shown while editing by default.
    /// - Parameters:
    ///   - displayed: The editing states it shows in.
    ///   - options: Its options.
    ///   - actionHandler: What runs when a viewer chooses it.
    /// - Returns: The accessory.
    public static func insert(displayed: DisplayedState = .whenEditing, options: InsertOptions = InsertOptions(), actionHandler: ActionHandler? = nil) -> CellAccessory {
        CellAccessory(name: "insert", displayed: displayed, isHidden: options.isHidden, tintColor: options.tintColor, actionHandler: actionHandler)
    }

    /// A handle to reorder the row by (an interactive movement), shown while editing by default.
    /// - Parameters:
    ///   - displayed: The editing states it shows in.
    ///   - options: Its options.
    /// - Returns: The accessory.
    public static func reorder(displayed: DisplayedState = .whenEditing, options: ReorderOptions = ReorderOptions()) -> CellAccessory {
        CellAccessory(name: "reorder", displayed: displayed, isHidden: options.isHidden, tintColor: options.tintColor)
    }

    /// Expands or collapses the row's children in an outline; drawn turned as the
    /// cell's state is expanded. `actionHandler` runs instead of the expansion.
    /// - Parameters:
    ///   - displayed: The editing states it shows in.
    ///   - options: Its options.
    ///   - actionHandler: What runs instead of the expansion (nil: the row expands or collapses).
    /// - Returns: The accessory.
    public static func outlineDisclosure(displayed: DisplayedState = .always, options: OutlineDisclosureOptions = OutlineDisclosureOptions(),
                                         actionHandler: ActionHandler? = nil) -> CellAccessory {
        CellAccessory(name: "outlineDisclosure", displayed: displayed, isHidden: options.isHidden, tintColor: options.tintColor, actionHandler: actionHandler)
    }

    /// An outline disclosure drawn expanded or collapsed whatever the cell's state
    /// (for content made without a cell: ``CellContent``'s list rows).
    /// - Parameter isExpanded: Whether it is drawn expanded.
    /// - Returns: The accessory.
    public static func outlineDisclosure(isExpanded: Bool) -> CellAccessory {
        CellAccessory(name: isExpanded ? "outlineDisclosure:expanded" : "outlineDisclosure:collapsed")
    }

    /// An accessory of the app's own view.
    /// - Parameter configuration: The view and where it sits.
    /// - Returns: The accessory.
    public static func customView(configuration: CustomViewConfiguration) -> CellAccessory {
        let displayed: DisplayedState
        switch configuration.placement {
        case let .leading(state, _), let .trailing(state, _): displayed = state
        }
        return CellAccessory(name: "custom", displayed: displayed, isHidden: configuration.isHidden, tintColor: configuration.tintColor, custom: configuration)
    }

    /// Whether it shows in a cell that is editing or not.
    /// - Parameter editing: Whether the cell is editing.
    /// - Returns: False when hidden or not displayed in that state.
    public func isDisplayed(editing: Bool) -> Bool {
        guard !isHidden else { return false }
        switch displayed {
        case .always: return true
        case .whenEditing: return editing
        case .whenNotEditing: return !editing
        }
    }

    /// The accessories as a cell's `accessories` field, as every viewer's page reads
    /// it (viewers are in editing mode or not, each their own): each name (with `!`
    /// when it has an action handler), then `@editing` or `@notEditing` when it shows
    /// in one mode only; hidden ones left out; an outline disclosure without an
    /// explicit state turned as `expanded`.
    /// - Parameters:
    ///   - accessories: The cell's accessories.
    ///   - expanded: Whether the cell's item is expanded in its outline.
    /// - Returns: The field's text.
    public static func field(_ accessories: [CellAccessory], expanded: Bool = false) -> String {
        accessories.filter { !$0.isHidden }.map { accessory in
            var name = accessory.name
            if name == "outlineDisclosure" { name = expanded ? "outlineDisclosure:expanded" : "outlineDisclosure:collapsed" }
            if accessory.actionHandler != nil { name += "!" }
            switch accessory.displayed {
            case .always: return name
            case .whenEditing: return name + "@editing"
            case .whenNotEditing: return name + "@notEditing"
            }
        }.joined(separator: " ")
    }

    /// The action handlers of `accessories`, by ``kind`` (the first of a kind wins).
    /// - Parameter accessories: The cell's accessories.
    /// - Returns: Their handlers, by kind.
    public static func actions(_ accessories: [CellAccessory]) -> [String: ActionHandler] {
        var out: [String: ActionHandler] = [:]
        for accessory in accessories where !accessory.isHidden {
            if let handler = accessory.actionHandler, out[accessory.kind] == nil { out[accessory.kind] = handler }
        }
        return out
    }
}
