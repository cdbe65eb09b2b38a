// Benchmarks for `make bench` (release build). Prints Markdown tables.
import Foundation
import CollectionCore

let which = CommandLine.arguments.dropFirst().first ?? "all"

/// Prints a table and a blank line, and flushes them: a later benchmark's progress
/// lines on stderr then never land inside a row of this one (stdout to a file or a
/// pipe is flushed in 4 KB blocks otherwise).
func emit(_ table: String) {
    print(table)
    print()
    fflush(nil)  // every output stream (naming `stdout` is not concurrency-safe)
}

if which == "all" || which == "diff" { emit(DiffBench.run()) }
if which == "all" || which == "layout" { emit(LayoutBench.run()); emit(CompositionalBench.run()) }
if which == "all" || which == "hub" { emit(HubBench.run()) }
if which == "all" || which == "network" { emit(try await NetworkBench.run()) }
if which == "all" || which == "load" { emit(try await LoadBench.run()) }
if which == "all" || which == "storage" { emit(try await StorageBench.run()) }
if which == "all" || which == "cluster" { emit(try await ClusterBench.run()) }
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
