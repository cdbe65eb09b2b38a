import Foundation

/// What one cell shows: the page's `<template>` it is drawn with, and the fields
/// its `data-field` (and `data-fill`) elements take.
public struct CellContent: Sendable, Hashable {
    /// The template's id, without the page's `tpl-` prefix.
    public var template: String
    /// Field values by name.
    public var fields: [String: String]
    /// The action handlers of its accessories, by kind (``list(_:accessories:indentationLevel:)``
    /// keeps them): a viewer's `accessory` message runs one. Not part of its equality.
    var accessoryActions: [String: CellAccessory.ActionHandler] = [:]

    public static func == (a: CellContent, b: CellContent) -> Bool { a.template == b.template && a.fields == b.fields }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(template)
        hasher.combine(fields)
    }

    /// Content drawn with `template`.
    ///
    /// - Parameters:
    ///   - template: The template's id, without the page's `tpl-` prefix.
    ///   - fields: Field values by name.
    public init(template: String, fields: [String: String]) {
        self.template = template
        self.fields = fields
    }

    /// A list row (UIKit's `UICollectionViewListCell`): drawn by the page's
    /// `tpl-list-cell`, or else by the client's own list row, with the
    /// configuration's text, secondary text and image, and the accessories (a
    /// viewer choosing one with an action handler runs it, with the collection locked).
    ///
    /// - Parameters:
    ///   - configuration: The row's text, secondary text and image.
    ///   - accessories: What the row shows at its ends (disclosure, checkmark, delete…).
    ///   - indentationLevel: How far the row is indented (an outline's depth).
    /// - Returns: The row's content.
    public static func list(_ configuration: ListContentConfiguration, accessories: [CellAccessory] = [], indentationLevel: Int = 0) -> CellContent {
        var fields = configuration.fields
        if !accessories.isEmpty { fields["accessories"] = CellAccessory.field(accessories) }
        if indentationLevel > 0 { fields["indentationLevel"] = String(indentationLevel) }
        var content = CellContent(template: CollectionViewListCell.reuseIdentifier, fields: fields)
        content.accessoryActions = CellAccessory.actions(accessories)
        return content
    }

    /// Content drawn with `template`, its fields from an `Encodable` value's
    /// top-level properties: strings as they are, numbers and booleans as JSON
    /// writes them, nested values as JSON text, nil left out.
    ///
    /// - Parameters:
    ///   - template: The template's id, without the page's `tpl-` prefix.
    ///   - value: A value whose top-level properties become the fields.
    public init(template: String, encoding value: some Encodable) {
        self.template = template
        fields = Self.fields(of: value)
    }
    static func fields(of value: some Encodable) -> [String: String] { ContentFields.of(value) }
}

/// How an item becomes a cell, as UIKit's `UICollectionView.CellRegistration`: a
/// template of the page and the fields it fills.
public struct CellRegistration<Item>: Sendable {
    /// The template cells are drawn with.
    public let template: String
    private let make: @Sendable (Item) -> [String: String]

    /// Cells from `template` with the fields `handler` gives.
    ///
    /// - Parameters:
    ///   - template: The template's id, without the page's `tpl-` prefix.
    ///   - handler: An item's field values by name.
    public init(template: String, handler: @escaping @Sendable (Item) -> [String: String]) {
        self.template = template
        make = handler
    }

    /// Cells from `template`, their fields from an `Encodable` value (see
    /// ``CellContent/init(template:encoding:)``).
    ///
    /// - Parameters:
    ///   - template: The template's id, without the page's `tpl-` prefix.
    ///   - content: An item's value, whose top-level properties become the fields.
    public init<Content: Encodable & Sendable>(template: String, content: @escaping @Sendable (Item) -> Content) {
        self.template = template
        make = { CellContent.fields(of: content($0)) }
    }

    /// The content of `item`'s cell.
    ///
    /// - Parameter item: The item a cell shows.
    /// - Returns: Its template and fields.
    public func content(for item: Item) -> CellContent { CellContent(template: template, fields: make(item)) }
}
