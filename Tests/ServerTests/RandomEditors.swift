import CollectionProtocol
import ProjectTestSupport
import Foundation
import Testing

/// A random edit of the demo's photos, as JSON with op id `op`: 40% inserts, 30%
/// moves after another item, 20% deletes, 10% shuffles.
func randomEdit(_ op: String, ids: [String], sectionOf: [String: String], rng: inout SplitMix) -> String {
    let a = ids[rng.next(ids.count)], b = ids[rng.next(ids.count)]
    switch rng.next(10) {
    case 0..<4: return #"{"type":"insert","op":"\#(op)","section":"\#(sectionOf[a]!)","count":1}"#
    case 4..<7: return #"{"type":"move","op":"\#(op)","item":"\#(a)","section":"\#(sectionOf[b]!)","after":"\#(b)"}"#
    case 7..<9: return #"{"type":"delete","op":"\#(op)","items":["\#(a)"]}"#
    default: return #"{"type":"shuffle","op":"\#(op)","section":"\#(sectionOf[a]!)"}"#
    }
}

/// Every viewer sends `opsEach` random edits (op ids `c<n>-<k>`, viewer n's random
/// numbers seeded with `seed + n`) without waiting, while reading everything that
/// comes; each viewer's answers by op id (two answers to one op are an issue).
func sendRandomEdits(_ viewers: [TestViewer], opsEach: Int, ids: [String], sectionOf: [String: String],
                     seed: UInt64, timeout: Double) async throws -> [Int: [String: ServerMessage]] {
    try await withThrowingTaskGroup(of: (Int, [String: ServerMessage]).self) { group in
        for (c, v) in viewers.enumerated() {
            group.addTask {
                var rng = SplitMix(seed: seed + UInt64(c))
                for k in 0..<opsEach { v.send(randomEdit("c\(c)-\(k)", ids: ids, sectionOf: sectionOf, rng: &rng)) }
                var answers: [String: ServerMessage] = [:]
                while answers.count < opsEach {
                    let m = try await v.next(where: { $0.type == "ack" || $0.type == "reject" }, timeout: scaled(timeout))
                    switch m {
                    case .ack(let op, _), .reject(let op, _, _):
                        #expect(answers[op] == nil, "two answers for \(op)")
                        answers[op] = m
                    default: break
                    }
                }
                return (c, answers)
            }
        }
        var all: [Int: [String: ServerMessage]] = [:]
        for try await (c, a) in group { all[c] = a }
        return all
    }
}
