import Foundation

/// Queries of the flow layout: frames, attributes, rect queries.
extension CollectionViewFlowLayout {
    // MARK: Queries

    var contentSizeForQueries: CGSize {
        let length = sections.last?.end ?? 0
        return scrollDirection == .vertical ? CGSize(width: boundsSize.width, height: length) : CGSize(width: length, height: boundsSize.height)
    }


    /// The frame of an item without building attributes (no allocation).
    /// - Parameters:
    ///   - item: The item's index in its section.
    ///   - section: The section's index.
    /// - Returns: The item's frame.
    public func frameForItem(_ item: Int, inSection section: Int) -> CGRect {
        let g = sections[section]
        let vertical = scrollDirection == .vertical
        if let (w, h) = fixedSize {
            let line = item / g.columns
            let (u0, step) = FlowLines.fixedLine(g, inLine: min(g.columns, g.count - line * g.columns), width: w, alignment: lineAlignment)
            return FlowLines.makeRect(vertical, u: u0 + CGFloat(item - line * g.columns) * step,
                                 v: g.itemsStart + CGFloat(line) * (h + g.lineSpacing), uExtent: w, vExtent: h)
        }
        let geometry = storage.items[g.firstItem + item]
        let line = Int(geometry.line)
        let v = storage.lineV[line] + (storage.lineExtent[line] - geometry.vExtent) / 2
        return FlowLines.makeRect(vertical, u: geometry.u, v: v, uExtent: geometry.uExtent, vExtent: geometry.vExtent)
    }

    func itemAttributes(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section),
              (0..<sections[indexPath.section].count).contains(indexPath.item) else { return nil }
        var attributes = CollectionViewLayoutAttributes(forCellWith: indexPath)
        attributes.frame = frameForItem(indexPath.item, inSection: indexPath.section)
        return attributes
    }

    func supplementaryAttributes(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count >= 1, sections.indices.contains(indexPath.section) else { return nil }
        let g = sections[indexPath.section]
        let vertical = scrollDirection == .vertical
        var v: CGFloat, extent: CGFloat, pinned = false
        switch kind {
        case CollectionElementKind.sectionHeader where g.headerExtent > 0:
            (v, extent) = (g.start, g.headerExtent)
            if sectionHeadersPinToVisibleBounds, let b = visibleBounds {
                let top = vertical ? b.minY : b.minX
                v = min(max(top, g.start), g.footerStart - extent)
                pinned = true
            }
        case CollectionElementKind.sectionFooter where g.footerExtent > 0:
            (v, extent) = (g.footerStart, g.footerExtent)
            if sectionFootersPinToVisibleBounds, let b = visibleBounds {
                let bottom = vertical ? b.maxY : b.maxX
                v = max(min(bottom - extent, g.footerStart), g.start + g.headerExtent)
                pinned = true
            }
        default:
            return nil
        }
        var attributes = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: kind, with: IndexPath(item: 0, section: indexPath.section))
        attributes.frame = FlowLines.makeRect(vertical, u: 0, v: v, uExtent: crossLength, vExtent: extent)
        attributes.zIndex = pinned ? Self.pinnedZIndex : Self.supplementaryZIndex
        return attributes
    }


    /// Calls `body` for every element intersecting `rect`, in section order (header,
    /// items, footer), without building an array. O(log sections + log lines + k).
    /// - Parameters:
    ///   - rect: A rectangle in content coordinates.
    ///   - body: Called with each element's attributes.
    public func forEachElement(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        guard !sections.isEmpty, !rect.isNull else { return }
        let vertical = scrollDirection == .vertical
        let vMin = vertical ? rect.minY : rect.minX, vMax = vertical ? rect.maxY : rect.maxX
        var s = firstSection(endingAfter: vMin)
        while s < sections.count, sections[s].start < vMax {
            let g = sections[s]
            let path = IndexPath(item: 0, section: s)
            if let header = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionHeader, at: path), header.frame.intersects(rect) {
                body(header)
            }
            if g.lines > 0 {
                forEachItem(in: rect, section: s, vMin: vMin, vMax: vMax) { section, item, frame in
                    body(CollectionViewLayoutAttributes(cellAt: item, inSection: section, frame: frame))
                }
            }
            if let footer = layoutAttributesForSupplementaryView(ofKind: CollectionElementKind.sectionFooter, at: path), footer.frame.intersects(rect) {
                body(footer)
            }
            s += 1
        }
    }

    /// Calls `body` with the section, item and frame of every item intersecting
    /// `rect`: the same answer as the attributes query, without building attributes
    /// or index paths (for hot paths such as a server tracking many windows).
    /// - Parameters:
    ///   - rect: A rectangle in content coordinates.
    ///   - body: Called with each item's section, index and frame.
    public func forEachItemFrame(in rect: CGRect, _ body: (_ section: Int, _ item: Int, _ frame: CGRect) -> Void) {
        guard !sections.isEmpty, !rect.isNull else { return }
        let vertical = scrollDirection == .vertical
        let vMin = vertical ? rect.minY : rect.minX, vMax = vertical ? rect.maxY : rect.maxX
        var s = firstSection(endingAfter: vMin)
        while s < sections.count, sections[s].start < vMax {
            if sections[s].lines > 0 { forEachItem(in: rect, section: s, vMin: vMin, vMax: vMax, body) }
            s += 1
        }
    }

    @inline(__always)
    private static func intersects(_ a: CGRect, _ b: CGRect) -> Bool { a.meets(b) }

    private func forEachItem(in rect: CGRect, section s: Int, vMin: CGFloat, vMax: CGFloat, _ body: (Int, Int, CGRect) -> Void) {
        let g = sections[s]
        let vertical = scrollDirection == .vertical
        if let (w, h) = fixedSize {
            let alignment = lineAlignment
            let uMin = vertical ? rect.minX : rect.minY, uMax = vertical ? rect.maxX : rect.maxY
            let pitch = h + g.lineSpacing
            var line = max(0, Int(((vMin - g.itemsStart - h) / pitch).rounded(.down)))
            while line < g.lines {
                let v = g.itemsStart + CGFloat(line) * pitch
                if v >= vMax { break }
                if v + h > vMin && h > 0 && w > 0 {
                    let start = line * g.columns, end = min(start + g.columns, g.count)
                    let (u0, step) = FlowLines.fixedLine(g, inLine: end - start, width: w, alignment: alignment)
                    var u = u0
                    for item in start..<end {
                        if u + w > uMin && u < uMax {
                            body(s, item, FlowLines.makeRect(vertical, u: u, v: v, uExtent: w, vExtent: h))
                        }
                        u += step
                    }
                }
                line += 1
            }
            return
        }
        // One read of the storage per query: class properties pay access checks in loops.
        let st = storage
        st.lineV.withUnsafeBufferPointer { lineV in
            st.lineExtent.withUnsafeBufferPointer { lineExtent in
                st.lineFirst.withUnsafeBufferPointer { lineFirst in
                    st.items.withUnsafeBufferPointer { items in
                        // Narrow with the sampled index, then search at most one stride of lines.
                        let samples = st.sampledLineEnds
                        var sLow = 0, sHigh = samples.count
                        while sLow < sHigh {
                            let mid = (sLow + sHigh) / 2
                            if samples[mid] <= vMin { sLow = mid + 1 } else { sHigh = mid }
                        }
                        let stride = Storage.sampleStride
                        let lastLine = g.firstLine + g.lines
                        var low = (sLow - 1) * stride + 1, high = sLow * stride + 1
                        if high <= g.firstLine {
                            (low, high) = (g.firstLine, g.firstLine)        // every line of this section ends after vMin
                        } else if low >= lastLine {
                            (low, high) = (lastLine, lastLine)              // none does
                        } else {
                            (low, high) = (max(low, g.firstLine), min(high, lastLine))
                        }
                        while low < high {
                            let mid = (low + high) / 2
                            if lineV[mid] + lineExtent[mid] <= vMin { low = mid + 1 } else { high = mid }
                        }
                        var line = low
                        let uMin = vertical ? rect.minX : rect.minY, uMax = vertical ? rect.maxX : rect.maxY
                        while line < lastLine, lineV[line] < vMax {
                            let end = line + 1 < lastLine ? lineFirst[line + 1] : g.firstItem + g.count
                            for k in lineFirst[line]..<end {
                                let geometry = items[k]
                                if geometry.u + geometry.uExtent <= uMin || geometry.u >= uMax { continue }
                                let v = lineV[line] + (lineExtent[line] - geometry.vExtent) / 2
                                let frame = FlowLines.makeRect(vertical, u: geometry.u, v: v, uExtent: geometry.uExtent, vExtent: geometry.vExtent)
                                if Self.intersects(frame, rect) { body(s, k - g.firstItem, frame) }
                            }
                            line += 1
                        }
                    }
                }
            }
        }
    }

    /// Binary search: the first section whose end is after `v`.
    private func firstSection(endingAfter v: CGFloat) -> Int {
        sections.partitioningIndex { $0.end > v }
    }

}
