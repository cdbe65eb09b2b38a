import CollectionCore
import CollectionProtocol
import Foundation

/// What a collection's background view shows (UIKit's `backgroundView`): the page's
/// template `tpl-<template>` with these fields, behind every cell, as large as the
/// viewport and not scrolling. An empty state, say.
public struct BackgroundContent: Sendable, Hashable {
    /// The template's id, without the page's `tpl-` prefix.
    public var template: String
    /// Field values by name.
    public var fields: [String: String]

    /// A background drawn with `template`.
    public init(template: String, fields: [String: String] = [:]) {
        self.template = template
        self.fields = fields
    }
}

extension CollectionHub {
    /// The background view every viewer is shown now.
    public var currentBackground: BackgroundContent? { store.background }

    /// The background view now (UIKit's `backgroundView`, for every viewer): set it,
    /// and every viewer gets a window with it (or without it). With a
    /// ``backgroundProvider``, the provider's answer after the next batch replaces it.
    public func setBackgroundView(_ content: BackgroundContent?) -> [Outgoing] {
        guard adoptBackground(content) else { return [] }
        return oncePerState { viewer in
            guard viewer.ready else { return (nil, []) }
            let (changed, removed) = viewer.refreshWindow()
            return (.window(.init(contentSize: viewer.contentSize, bands: viewer.bands, add: changed, remove: removed)), [])
        }
    }

    /// Makes the background view from the collection now and after every batch
    /// (nil: it stays as it is, for ``setBackgroundView(_:)``). Every viewer whose
    /// background changes gets a window.
    public func setBackgroundProvider(_ provider: ((CollectionModel) -> BackgroundContent?)?) -> [Outgoing] {
        backgroundProvider = provider
        guard let provider else { return [] }
        return setBackgroundView(provider(model))
    }

    /// The background the provider makes for the model now (after a batch, or when the provider is set).
    func refreshBackground() {
        guard let backgroundProvider else { return }
        adoptBackground(backgroundProvider(model))
    }

    /// Gives every view state the background; false when it did not change.
    @discardableResult
    func adoptBackground(_ content: BackgroundContent?) -> Bool {
        guard content != store.background else { return false }
        store.background = content
        var seen: Set<ObjectIdentifier> = []
        for viewer in viewers.values where seen.insert(ObjectIdentifier(viewer.state)).inserted {
            viewer.state.showBackground(content)
        }
        return true
    }
}
