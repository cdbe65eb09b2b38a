import CollectionCore
import Foundation
import Testing

/// Element keys and layout attributes hold their kind by number (interned): they
/// must still answer, compare and hash by the kind's text.
@Suite struct ElementKindTests {
    @Test func keysKeepTheirKindsTextAndDifferByIt() {
        let p = IndexPath(item: 3, section: 1)
        let unique = "badge-\(UUID().uuidString)"   // a kind no other test has seen
        let badge = ElementKey.supplementary(unique, p)
        #expect(badge.kind == unique)
        #expect(badge == ElementKey.supplementary(String(unique.utf8.map { Character(UnicodeScalar($0)) }), p))   // the same text, made anew
        #expect(badge != ElementKey.supplementary(unique + "x", p))
        #expect(badge != ElementKey.decoration(unique, p))
        #expect(ElementKey.supplementary(CollectionView.elementKindSectionHeader, p).kind == "UICollectionElementKindSectionHeader")
        #expect(ElementKey.supplementary(CollectionView.elementKindSectionFooter, p).kind == "UICollectionElementKindSectionFooter")
        #expect(ElementKey.cell(p).kind == "")
        // As dictionary keys: every kind its own entry.
        let kinds = (0..<50).map { "kind-\($0)-\(unique)" }
        var table: [ElementKey: String] = [:]
        for k in kinds { table[.supplementary(k, p)] = k }
        table[.cell(p)] = "cell"
        #expect(table.count == 51)
        #expect(kinds.allSatisfy { table[.supplementary($0, p)] == $0 })
        #expect(table[.supplementary(CollectionView.elementKindSectionHeader, p)] == nil)
    }

    @Test func attributesKeepNilApartFromAKindAndCompareByKind() {
        let p = IndexPath(item: 0, section: 2)
        var a = CollectionViewLayoutAttributes(forCellWith: p)
        #expect(a.representedElementKind == nil)
        a.representedElementKind = ""
        #expect(a.representedElementKind == "")
        #expect(a != CollectionViewLayoutAttributes(forCellWith: p))
        a.representedElementKind = nil
        #expect(a == CollectionViewLayoutAttributes(forCellWith: p))
        let s = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "ribbon", with: p)
        #expect(s.representedElementKind == "ribbon")
        #expect(s != CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "ribbon2", with: p))
        #expect(s == CollectionViewLayoutAttributes(forSupplementaryViewOfKind: "rib" + "bon", with: p))
        #expect(CollectionViewLayoutAttributes(forDecorationViewOfKind: "ribbon", with: p).representedElementKind == "ribbon")
    }

    @Test func kindsNamedFromManyThreadsAtOnceGetOneNumberEach() async {
        let run = UUID().uuidString
        let kinds = (0..<64).map { "k\($0)-\(run)" }
        let p = IndexPath(item: 0, section: 0)
        // Every task names every kind, in its own order: all must agree on the keys.
        let tables = await withTaskGroup(of: [String: ElementKey].self) { group in
            for t in 0..<8 {
                group.addTask {
                    var mine: [String: ElementKey] = [:]
                    for i in kinds.indices { let k = kinds[(i * (t + 1)) % kinds.count]; mine[k] = .supplementary(k, p) }
                    for k in kinds where mine[k] == nil { mine[k] = .supplementary(k, p) }
                    return mine
                }
            }
            var all: [[String: ElementKey]] = []
            for await t in group { all.append(t) }
            return all
        }
        #expect(tables.count == 8)
        for k in kinds {
            let keys = tables.map { $0[k] }
            #expect(keys.allSatisfy { $0 == keys[0] && $0?.kind == k })
        }
        #expect(Set(tables[0].values).count == kinds.count)
    }
}
