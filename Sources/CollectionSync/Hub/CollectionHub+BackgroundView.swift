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
    /// background that follows the model (``setBackgroundFollowsModel(_:)``), the
    /// delegate's answer after the next batch replaces it.
    public func setBackgroundView(_ content: BackgroundContent?) -> [Outgoing] {
        viewers.show(background: content, keptIn: store) ? viewers.windows() : []
    }

    /// Makes the background view from the collection now and after every batch, by
    /// asking ``hubDelegate`` (`hub(_:backgroundFor:)`); false: it stays as it is, for
    /// ``setBackgroundView(_:)``. Every viewer whose background changes gets a window.
    public func setBackgroundFollowsModel(_ follows: Bool) -> [Outgoing] {
        backgroundFollowsModel = follows
        guard follows else { return [] }
        return setBackgroundView(hubDelegate?.hub(self, backgroundFor: model))
    }

    /// The background the delegate makes for the model now (after a batch).
    func refreshBackground() {
        guard backgroundFollowsModel else { return }
        viewers.show(background: hubDelegate?.hub(self, backgroundFor: model), keptIn: store)
    }
}
