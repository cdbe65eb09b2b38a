import Foundation

/// A cell, as UIKit's `UICollectionViewCell`: a reusable view with a selection and
/// highlight, a `contentView`, and a configuration that follows its state.
///
/// The collection view updates a cell's configuration (calls
/// ``updateConfiguration(using:)`` with ``configurationState``) after the data
/// source configured it, and again whenever its state changes (selected,
/// highlighted, editing, expanded) or the app calls ``setNeedsUpdateConfiguration()``.
open class CollectionViewCell: CollectionReusableView {
    /// Selected state (the collection view keeps it in step with its selection).
    @exclusivity(unchecked) open var isSelected = false {
        didSet { if isSelected != oldValue { setNeedsUpdateConfiguration() } }
    }
    /// Highlighted state (while the pointer is down on it).
    @exclusivity(unchecked) open var isHighlighted = false {
        didSet { if isHighlighted != oldValue { setNeedsUpdateConfiguration() } }
    }

    /// The view an app adds its subviews to (UIKit's): as large as the cell.
    public var contentView: View {
        if let view = madeContentView { return view }
        let view = View(frame: bounds)
        addSubview(view)
        madeContentView = view
        return view
    }
    /// Made when first asked for (most cells never are).
    private var madeContentView: View?

    /// What the cell shows (UIKit's `contentConfiguration`): setting it makes the
    /// configuration's view inside ``contentView`` (or gives it to the one there,
    /// if it supports it) and writes the configuration's fields, which the browser
    /// draws.
    open var contentConfiguration: (any ContentConfiguration)? {
        didSet { showContentConfiguration() }
    }
    /// Whether an update of the configuration also updates `contentConfiguration`
    /// for the state (its `updated(for:)`), as UIKit's.
    open var automaticallyUpdatesContentConfiguration = true

    /// UIKit's handler type: the cell and its new state.
    public typealias ConfigurationUpdateHandler = (CollectionViewCell, CellConfigurationState) -> Void
    /// Called with the cell's state whenever its configuration is updated (after
    /// ``updateConfiguration(using:)``'s own work); setting it updates the
    /// configuration.
    open var configurationUpdateHandler: ConfigurationUpdateHandler? {
        didSet { setNeedsUpdateConfiguration() }
    }

    /// The collection view's states of the cell, set as it displays the cell.
    package var editingState = false {
        didSet { if editingState != oldValue { setNeedsUpdateConfiguration() } }
    }
    package var expandedState = false {
        didSet { if expandedState != oldValue { expandedStateDidChange(); setNeedsUpdateConfiguration() } }
    }
    package var swipedState = false {
        didSet { if swipedState != oldValue { setNeedsUpdateConfiguration() } }
    }
    package var reorderingState = false {
        didSet { if reorderingState != oldValue { setNeedsUpdateConfiguration() } }
    }
    package var focusedState = false {
        didSet { if focusedState != oldValue { setNeedsUpdateConfiguration() } }
    }

    private var needsConfigurationUpdate = true
    /// While the data source configures the cell, updates wait for it to finish.
    private var configurationDeferred = false
    private var updatingConfiguration = false
    /// The view made for the content configuration.
    private weak var configuredContentView: View?

    /// The cell's state now (override it to add custom keys, calling super).
    open var configurationState: CellConfigurationState {
        var state = CellConfigurationState()
        state.isSelected = isSelected
        state.isHighlighted = isHighlighted
        state.isEditing = editingState
        state.isExpanded = expandedState
        state.isSwiped = swipedState
        state.isReordering = reorderingState
        state.isFocused = focusedState
        return state
    }

    /// Asks for ``updateConfiguration(using:)`` with the current state: at once, or,
    /// while the data source is configuring the cell, once it has finished.
    open func setNeedsUpdateConfiguration() {
        needsConfigurationUpdate = true
        if !configurationDeferred && !updatingConfiguration { updateConfigurationIfNeeded() }
    }

    /// Updates what the cell shows for `state`. By default: the content
    /// configuration's `updated(for:)` (if ``automaticallyUpdatesContentConfiguration``),
    /// then the ``configurationUpdateHandler``. Override it to configure the cell
    /// from its state.
    /// - Parameter state: The cell's state: selected, highlighted, editing, expanded…
    open func updateConfiguration(using state: CellConfigurationState) {
        if automaticallyUpdatesContentConfiguration, let configuration = contentConfiguration {
            contentConfiguration = configuration.updated(for: state)
        }
        configurationUpdateHandler?(self, state)
    }

    /// Runs a pending configuration update.
    private func updateConfigurationIfNeeded() {
        guard needsConfigurationUpdate else { return }
        needsConfigurationUpdate = false
        updatingConfiguration = true
        updateConfiguration(using: configurationState)
        updatingConfiguration = false
        needsConfigurationUpdate = false   // what the update itself changed asks for no other
    }

    /// The collection view dequeued the cell for its data source: configuration
    /// updates wait for ``finishConfiguring()``.
    package final func beginConfiguring() {
        configurationDeferred = true
        needsConfigurationUpdate = true
    }

    /// The data source has configured the cell: the pending update runs.
    package final func finishConfiguring() {
        configurationDeferred = false
        updateConfigurationIfNeeded()
    }

    /// The cell's expanded state changed (list cells turn their outline disclosure).
    func expandedStateDidChange() {}

    private func showContentConfiguration() {
        guard let configuration = contentConfiguration else {
            configuredContentView?.removeFromSuperview()
            setContentFields([:])
            return
        }
        if let view = configuredContentView as? any ContentView, view.supports(configuration) {
            view.configuration = configuration
        } else {
            configuredContentView?.removeFromSuperview()
            let view = configuration.makeContentView()
            view.frame = contentView.bounds
            contentView.addSubview(view)
            configuredContentView = view
        }
        setContentFields(configuration.fields)
    }

    open override func layoutSubviews() {
        super.layoutSubviews()
        madeContentView?.frame = bounds
        configuredContentView?.frame = madeContentView?.bounds ?? bounds
    }

    open override func prepareForReuse() {
        super.prepareForReuse()
        isSelected = false
        isHighlighted = false
        // The content was cleared; a content configuration stays (as in UIKit) and shows again.
        if contentConfiguration != nil { showContentConfiguration() }
    }
}
