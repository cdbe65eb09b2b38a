import CollectionCore
import Foundation
import Testing

@Suite struct DiffableDataSourceTests {
    final class Host {
        let cv: CollectionView
        let dataSource: CollectionViewDiffableDataSource<String, String>
        var provided = 0

        init() {
            let layout = CollectionViewFlowLayout()
            layout.itemSize = CGSize(width: 100, height: 50)
            layout.minimumInteritemSpacing = 0
            layout.minimumLineSpacing = 0
            cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)
            let registration = CollectionView.CellRegistration<TitleCell, String> { cell, _, item in cell.title = item }
            var count = 0
            dataSource = CollectionViewDiffableDataSource(collectionView: cv) { cv, indexPath, item in
                count += 1
                return cv.dequeueConfiguredReusableCell(using: registration, for: indexPath, item: item)
            }
            _ = count
        }

        func titles(_ section: Int) -> [String] {
            (0..<cv.numberOfItems(inSection: section)).map { (cv.cellForItem(at: IndexPath(item: $0, section: section)) as? TitleCell)?.title ?? "?" }
        }
    }

    func snapshot(_ sections: [(String, [String])]) -> Snapshot<String, String> {
        var s = Snapshot<String, String>()
        for (id, items) in sections {
            s.appendSections([id])
            s.appendItems(items, toSection: id)
        }
        return s
    }

    @Test func applyDiffsAndPerformsTheBatch() {
        let host = Host()
        host.dataSource.apply(snapshot([("a", ["1", "2", "3"]), ("b", ["4"])]), animatingDifferences: false)
        #expect(host.cv.numberOfSections == 2 && host.titles(0) == ["1", "2", "3"])
        _ = host.cv.mirror.takeAppliedUpdates()
        var next = host.dataSource.snapshot()
        next.moveItem("1", afterItem: "3")
        next.insertItems(["new"], beforeItem: "4")
        next.deleteItems(["2"])
        host.dataSource.apply(next)
        #expect(host.titles(0) == ["3", "1"] && host.titles(1) == ["new", "4"])
        let update = host.cv.mirror.takeAppliedUpdates().last
        #expect(update?.kind == .batch && update?.animated == true)
        #expect(update?.batch.movedItems.count == 1 && update?.batch.deletedItems == [IndexPath(item: 1, section: 0)])
        #expect(host.dataSource.itemIdentifier(for: IndexPath(item: 0, section: 1)) == "new")
        #expect(host.dataSource.indexPath(for: "4") == IndexPath(item: 1, section: 1))
        #expect(host.dataSource.sectionIdentifier(for: 1) == "b" && host.dataSource.index(for: "a") == 0)
    }

    @Test func reconfigureKeepsTheCellAndReloadReplacesIt() throws {
        let host = Host()
        host.dataSource.apply(snapshot([("a", ["x", "y"])]))
        let cell = try #require(host.cv.cellForItem(at: IndexPath(item: 0, section: 0)) as? TitleCell)
        var next = host.dataSource.snapshot()
        next.reconfigureItems(["x"])
        host.dataSource.apply(next)
        #expect(host.cv.cellForItem(at: IndexPath(item: 0, section: 0)) === cell && cell.reuseCount == 0)
        var again = host.dataSource.snapshot()
        #expect(again.reconfiguredItemIdentifiers.isEmpty)   // marks are consumed by apply
        again.reloadItems(["x"])
        host.dataSource.apply(again)
        #expect(host.cv.mirror.takeAppliedUpdates().last?.batch.reloadedItems == [IndexPath(item: 0, section: 0)])
    }

    @Test func reloadedSectionsWithMovesInAndOutStayValid() {
        let host = Host()
        host.dataSource.apply(snapshot([("a", ["1", "2"]), ("b", ["3", "4"])]))
        #expect(host.titles(1) == ["3", "4"])
        var next = snapshot([("a", ["1", "3"]), ("b", ["4", "2"])])
        next.reloadSections(["a"])
        host.dataSource.apply(next)
        #expect(host.titles(0) == ["1", "3"] && host.titles(1) == ["4", "2"])
        #expect(host.cv.mirror.takeAppliedUpdates().last?.kind == .batch)
    }

    @Test func sectionSnapshotsExpandAndCollapse() {
        let host = Host()
        var outline = NSDiffableDataSourceSectionSnapshot<String>()
        outline.append(["Fruit", "Veg"])
        outline.append(["Apple", "Pear"], to: "Fruit")
        outline.append(["Gala"], to: "Apple")
        #expect(outline.visibleItems == ["Fruit", "Veg"])
        outline.expand(["Fruit"])
        #expect(outline.visibleItems == ["Fruit", "Apple", "Pear", "Veg"])
        #expect(!outline.isVisible("Gala") && outline.level(of: "Gala") == 2 && outline.parent(of: "Gala") == "Apple")
        host.dataSource.apply(outline, to: "food")
        #expect(host.titles(0) == ["Fruit", "Apple", "Pear", "Veg"])
        outline.collapse(["Fruit"])
        host.dataSource.apply(outline, to: "food")
        #expect(host.titles(0) == ["Fruit", "Veg"])
        #expect(host.dataSource.snapshot(for: "food").items == ["Fruit", "Apple", "Gala", "Pear", "Veg"])
        #expect(outline.snapshot(of: "Fruit").items == ["Apple", "Gala", "Pear"])
        outline.insert(["Cherry"], after: "Apple")
        outline.delete(["Apple"])
        #expect(outline.items == ["Fruit", "Cherry", "Pear", "Veg"] && !outline.contains("Gala"))
    }

    @Test func reorderingThroughInteractiveMovementUpdatesTheSnapshot() {
        let host = Host()
        host.dataSource.apply(snapshot([("a", ["1", "2", "3", "4"])]))
        #expect(!host.cv.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))   // no handler: no reordering
        var reordered: [String] = []
        host.dataSource.reorderingHandlers.canReorderItem = { _ in true }
        host.dataSource.reorderingHandlers.didReorder = { reordered = $0.finalSnapshot.itemIdentifiers }
        #expect(host.cv.beginInteractiveMovementForItem(at: IndexPath(item: 0, section: 0)))
        host.cv.updateInteractiveMovementTargetPosition(CGPoint(x: 50, y: 75))   // item 3's slot (line 1, column 0)
        host.cv.endInteractiveMovement()
        #expect(reordered == ["2", "3", "4", "1"])
        #expect(host.dataSource.snapshot().itemIdentifiers == ["2", "3", "4", "1"])
        #expect(host.titles(0) == ["2", "3", "4", "1"])
    }

    /// Moves by neighbour (within a section and across), moves to an index, and the
    /// snapshot copies they are made on, against plain arrays: the order, each item's
    /// section and index path, and the copy each started from left as it was.
    @Test func movesInPlaceMatchPlainArrays() {
        var rng = SplitMix64(seed: 7)
        let ids = (0..<40).map { "i\($0)" }
        var expected: [[String]] = [Array(ids[0..<15]), Array(ids[15..<16]), Array(ids[16..<40])]
        let names = ["a", "b", "c"]
        var s = snapshot(Array(zip(names, expected)))
        for step in 0..<300 {
            let kept = s
            let keptExpected = expected
            let item = ids[Int.random(in: 0..<ids.count, using: &rng)]
            let from = expected.firstIndex { $0.contains(item) }!
            expected[from].removeAll { $0 == item }
            switch step % 3 {
            case 0, 1:
                guard let other = ids.filter({ $0 != item }).randomElement(using: &rng) else { continue }
                let to = expected.firstIndex { $0.contains(other) }!
                let j = expected[to].firstIndex(of: other)!
                expected[to].insert(item, at: step % 3 == 0 ? j : j + 1)
                if step % 3 == 0 { s.moveItem(item, beforeItem: other) } else { s.moveItem(item, afterItem: other) }
            default:
                let to = Int.random(in: 0..<3, using: &rng)
                let index = Int.random(in: 0...expected[to].count, using: &rng)
                expected[to].insert(item, at: index)
                s.moveItem(item, to: index, inSection: names[to])
            }
            for (k, name) in names.enumerated() { #expect(s.itemIdentifiers(inSection: name) == expected[k]) }
            for (k, section) in expected.enumerated() {
                for (i, id) in section.enumerated() {
                    #expect(s.sectionIdentifier(containingItem: id) == names[k] && s.indexPath(for: id) == IndexPath(item: i, section: k))
                }
            }
            #expect(s.numberOfItems == ids.count)
            for (k, name) in names.enumerated() { #expect(kept.itemIdentifiers(inSection: name) == keptExpected[k]) }
            for (k, section) in keptExpected.enumerated() { for id in section { #expect(kept.sectionIdentifier(containingItem: id) == names[k]) } }
        }
    }

    @Test func snapshotMutationsByNeighbour() {
        var s = snapshot([("a", ["1", "2"]), ("b", ["3"])])
        s.insertSections(["z"], beforeSection: "a")
        s.appendItems(["9"], toSection: "z")
        s.moveSection("b", beforeSection: "z")
        #expect(s.sectionIdentifiers == ["b", "z", "a"] && s.itemIdentifiers == ["3", "9", "1", "2"])
        s.moveItem("2", beforeItem: "3")
        #expect(s.itemIdentifiers(inSection: "b") == ["2", "3"])
        s.deleteAllItems()
        #expect(s.numberOfItems == 0 && s.numberOfSections == 0)
    }
}
