import Foundation

/// How a flow layout (``CollectionViewFlowLayout``) breaks a section's items into
/// lines and places them on each (its ``FlowLineAlignment``), and the frames that
/// follow: pure functions of the section's geometry, used as the layout prepares
/// and as it answers queries.
enum FlowLines {
    typealias Section = CollectionViewFlowLayout.Section
    typealias Storage = CollectionViewFlowLayout.Storage
    typealias ItemGeometry = CollectionViewFlowLayout.ItemGeometry

    /// Breaks one section's items into lines and places them; returns the end of the last line.
    @inline(__always)
    static func flowItems(geometry g: inout Section, top: CGFloat, vertical: Bool, alignment: FlowLineAlignment,
                                  items: UnsafeMutablePointer<ItemGeometry>, lines st: inout Storage,
                                  size sizeOf: (Int) -> CGSize) -> CGFloat {
        var v = top
        var previousGap: CGFloat?
        var previousCount = 0
        var lineStart = 0
        var used: CGFloat = 0
        var sum: CGFloat = 0
        var uniform = true
        var lineMax: CGFloat = 0
        let base = g.firstItem

        func closeLine(end: Int, isLast: Bool) {
            let m = end - lineStart
            guard m > 0 else { return }
            if st.lineV.count > g.firstLine { v += g.lineSpacing }
            let lineIndex = Int32(st.lineV.count)
            st.lineV.append(v); st.lineExtent.append(lineMax); st.lineFirst.append(base + lineStart)
            let uniformWidth: CGFloat? = uniform ? items[lineStart].uExtent : nil
            let (start, gap) = placement(alignment, count: m, sum: sum, available: g.available, spacing: g.spacing, isLast: isLast,
                                         sectionCount: g.count, previousGap: previousGap, previousCount: previousCount, uniform: uniformWidth)
            var u = g.uStart + start
            for k in lineStart..<end {
                items[k].u = u
                items[k].line = lineIndex
                u += items[k].uExtent + gap
            }
            previousGap = m > 1 ? gap : previousGap
            previousCount = m
            v += lineMax
            lineStart = end
            used = 0
            sum = 0
            uniform = true
            lineMax = 0
        }

        var index = 0
        while index < g.count {
            let size = sizeOf(index)
            let uExtent = max(0, vertical ? size.width : size.height)
            let vExtent = max(0, vertical ? size.height : size.width)
            if index > lineStart && used + g.spacing + uExtent > g.available {
                closeLine(end: index, isLast: false)
            }
            (items + index).initialize(to: ItemGeometry(u: 0, uExtent: uExtent, vExtent: vExtent, line: 0))
            if index > lineStart && uExtent != items[lineStart].uExtent { uniform = false }
            sum += uExtent
            used += (index > lineStart ? g.spacing : 0) + uExtent
            lineMax = max(lineMax, vExtent)
            index += 1
        }
        closeLine(end: g.count, isLast: true)
        return v
    }

    /// Where a line of `count` items totalling `sum` starts, and the gap between its items.
    static func placement(_ alignment: FlowLineAlignment, count m: Int, sum: CGFloat, available: CGFloat, spacing s: CGFloat, isLast: Bool,
                                  sectionCount: Int, previousGap: CGFloat?, previousCount: Int, uniform: CGFloat?) -> (CGFloat, CGFloat) {
        let packed = sum + CGFloat(m - 1) * s
        switch alignment {
        case .leading: return (0, s)
        case .center: return ((available - packed) / 2, s)
        case .trailing: return (available - packed, s)
        case .justified:
            if m == 1 {
                let centered = sectionCount == 1 || !isLast || previousCount == 1
                return (centered ? (available - sum) / 2 : 0, s)
            }
            if !isLast { return (0, (available - sum) / CGFloat(m - 1)) }
            if let gap = previousGap, sum + CGFloat(m - 1) * gap <= available + 0.000_1 { return (0, gap) }
            if let w = uniform {
                // The spacing a full line of such items would have: the same columns.
                let n = max(1, Int(((available + s) / (w + s)).rounded(.down)))
                if n > 1 { return (0, (available - CGFloat(n) * w) / CGFloat(n - 1)) }
            }
            return (0, s)
        }
    }

    /// Fixed sizes: where the first item of a line of `inLine` items starts, and the
    /// distance from one item to the next.
    @inline(__always)
    static func fixedLine(_ g: Section, inLine: Int, width w: CGFloat, alignment: FlowLineAlignment) -> (CGFloat, CGFloat) {
        switch alignment {
        case .justified:
            if g.columns == 1 || g.count == 1 { return (g.uStart + (g.available - w) / 2, 0) }
            return (g.uStart, g.step)
        case .leading:
            return (g.uStart, w + g.spacing)
        case .center:
            let packed = CGFloat(inLine) * w + CGFloat(inLine - 1) * g.spacing
            return (g.uStart + (g.available - packed) / 2, w + g.spacing)
        case .trailing:
            let packed = CGFloat(inLine) * w + CGFloat(inLine - 1) * g.spacing
            return (g.uStart + g.available - packed, w + g.spacing)
        }
    }

    @inline(__always)
    static func makeRect(_ vertical: Bool, u: CGFloat, v: CGFloat, uExtent: CGFloat, vExtent: CGFloat) -> CGRect {
        vertical ? CGRect(x: u, y: v, width: uExtent, height: vExtent) : CGRect(x: v, y: u, width: vExtent, height: uExtent)
    }
}
