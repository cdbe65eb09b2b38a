// Benchmarks for `make bench` (release build). Prints Markdown tables.
import Foundation
import CollectionCore

let which = CommandLine.arguments.dropFirst().first ?? "all"
if which == "all" || which == "diff" { print(DiffBench.run()); print() }
if which == "all" || which == "layout" { print(LayoutBench.run()); print(); print(CompositionalBench.run()); print() }
if which == "all" || which == "hub" { print(HubBench.run()); print() }
if which == "all" || which == "network" { print(try await NetworkBench.run()); print() }
if which == "all" || which == "load" { print(try await LoadBench.run()); print() }
if which == "all" || which == "storage" { print(try await StorageBench.run()); print() }
if which == "all" || which == "cluster" { print(try await ClusterBench.run()); print() }
if which == "diff-profile" {
    // Only our diff, for a profiler: 100k mixed and no change, many times.
    for c in DiffBench.cases(n: 100_000).prefix(2) {
        let a = DiffBench.snapshot(c.old), b = DiffBench.snapshot(c.new)
        for _ in 0..<30 { blackHole(BatchUpdate(from: a, to: b)) }
    }
}
if which == "compositional-profile" {
    // Only the compositional rect query, for a profiler.
    let layout = CollectionViewCompositionalLayout(sectionProvider: CompositionalBench.sections()[0].1)
    layout.prepare(counts: Array(repeating: 100, count: 1_000), boundsSize: CGSize(width: 1000, height: 800))
    var n = 0
    for k in 0..<300_000 { layout.forEachElement(in: CGRect(x: 0, y: CGFloat(k % 1000) * 200, width: 1000, height: 800)) { _ in n += 1 } }
    blackHole(n)
}
