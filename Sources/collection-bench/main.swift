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
if which == "diff-profile" {
    // Only our diff, for a profiler: 100k mixed and no change, many times.
    for c in DiffBench.cases(n: 100_000).prefix(2) {
        let a = DiffBench.snapshot(c.old), b = DiffBench.snapshot(c.new)
        for _ in 0..<30 { blackHole(BatchUpdate(from: a, to: b)) }
    }
}
