import CollectionCore
import Foundation

// Apple's "custom list cell" pattern: the item travels in the configuration state
// under a custom key, and the cell configures its views from the state.

struct Trail: Hashable, Sendable {
    let title: String
    let detail: String
    let difficulty: String
    let image: Image?
    let identifier = UUID()
    func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    static func == (lhs: Trail, rhs: Trail) -> Bool { lhs.identifier == rhs.identifier }
}

private extension ConfigurationStateCustomKey {
    static let trail = ConfigurationStateCustomKey("com.example.TrailListCell.trail")
}

private extension CellConfigurationState {
    var trail: Trail? {
        set { self[.trail] = newValue }
        get { return self[.trail] as? Trail }
    }
}

class TrailListCell: CollectionViewListCell {
    private var trail: Trail? = nil

    func updateWithTrail(_ newTrail: Trail) {
        guard trail != newTrail else { return }
        trail = newTrail
        setNeedsUpdateConfiguration()
    }

    override var configurationState: CellConfigurationState {
        var state = super.configurationState
        state.trail = self.trail
        return state
    }
}

final class CustomTrailCell: TrailListCell {
    private func defaultListContentConfiguration() -> ListContentConfiguration { return .subtitleCell() }
    private lazy var listContentView = ListContentView(configuration: defaultListContentConfiguration())

    private let difficultyIconView = ImageView()
    private let difficultyLabel = Label()
    private var didSetUpViews = false
    private(set) var updates: [CellConfigurationState] = []

    private func setupViewsIfNeeded() {
        guard !didSetUpViews else { return }
        didSetUpViews = true
        [listContentView, difficultyIconView, difficultyLabel].forEach { contentView.addSubview($0) }
    }

    override func updateConfiguration(using state: CellConfigurationState) {
        setupViewsIfNeeded()
        updates.append(state)

        var content = defaultListContentConfiguration().updated(for: state)
        content.image = state.trail?.image
        content.text = state.trail?.title
        content.secondaryText = state.trail?.detail
        listContentView.configuration = content

        let valueConfiguration = ListContentConfiguration.valueCell().updated(for: state)
        difficultyIconView.image = Image(systemName: "figure.hiking")
        difficultyIconView.tintColor = valueConfiguration.image == nil ? .systemGreen : .label
        difficultyLabel.text = state.trail?.difficulty
        difficultyLabel.textColor = state.isSelected ? .white : .secondaryLabel
    }

    /// What the difficulty label shows (read by the checks).
    var difficultyText: String? { difficultyLabel.text }
    var difficultyColor: Color? { difficultyLabel.textColor }
}

// MARK: A custom content configuration and its view

struct BadgeContentConfiguration: ContentConfiguration, Hashable {
    var image: Image? = nil
    var tintColor: Color? = nil

    func makeContentView() -> View & ContentView {
        return BadgeContentView(configuration: self)
    }

    func updated(for state: ConfigurationState) -> Self {
        guard let state = state as? CellConfigurationState else { return self }
        var updatedConfiguration = self
        if state.isSelected || state.isHighlighted {
            updatedConfiguration.tintColor = .white
        } else {
            updatedConfiguration.tintColor = .systemBlue
        }
        return updatedConfiguration
    }
}

// What the page draws of it (the one addition for the browser: UIKit draws the view).
extension BadgeContentConfiguration {
    var fields: [String: String] { ["badge": image?.source ?? "", "tint": tintColor?.css ?? ""] }
}

final class BadgeContentView: View, ContentView {
    init(configuration: BadgeContentConfiguration) {
        super.init(frame: .zero)
        setupInternalViews()
        apply(configuration: configuration)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    var configuration: ContentConfiguration {
        get { appliedConfiguration }
        set {
            guard let newConfig = newValue as? BadgeContentConfiguration else { return }
            apply(configuration: newConfig)
        }
    }

    let imageView = ImageView()

    private func setupInternalViews() {
        addSubview(imageView)
    }

    private var appliedConfiguration: BadgeContentConfiguration!

    private func apply(configuration: BadgeContentConfiguration) {
        guard appliedConfiguration != configuration else { return }
        appliedConfiguration = configuration
        imageView.image = configuration.image
        imageView.tintColor = configuration.tintColor
    }
}
