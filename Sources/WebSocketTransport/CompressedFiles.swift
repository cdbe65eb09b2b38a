import CWebSocketShim
import Foundation
import Locking

/// Text files served gzipped to browsers that accept it: each compressed once per
/// version (its ETag) and kept, up to a total size, so that a page's modules and
/// styles cross the wire at about a fifth of their size without a build step or
/// `.gz` files beside them.
final class CompressedFiles: @unchecked Sendable {
    /// Content types worth compressing (images and fonts are compressed already).
    static func isCompressible(_ contentType: String) -> Bool {
        contentType.hasPrefix("text/") || contentType.hasPrefix("application/json") || contentType.hasPrefix("image/svg")
            || contentType.hasPrefix("application/manifest")
    }

    /// Whether an `Accept-Encoding` value takes gzip (not with `q=0`).
    static func acceptsGzip(_ acceptEncoding: String?) -> Bool {
        guard let acceptEncoding else { return false }
        for part in acceptEncoding.lowercased().split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let coding = fields.first, coding == "gzip" || coding == "*" else { continue }
            let q = fields.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if q > 0 { return true }
        }
        return false
    }

    /// Files larger than this are sent as they are (lws streams them from disk).
    let largestFile: Int
    /// What the kept copies may take in all; past it the oldest go.
    let budget: Int
    private let kept = Locked<(copies: [String: (etag: String, bytes: [UInt8])], order: [String], total: Int)>(([:], [], 0))

    init(largestFile: Int = 4 << 20, budget: Int = 32 << 20) {
        self.largestFile = largestFile
        self.budget = budget
    }

    /// The ETag of a file's gzipped copy: its own, marked (a strong tag names one encoding).
    static func gzipTag(_ etag: String) -> String {
        etag.hasSuffix("\"") ? String(etag.dropLast()) + "-gz\"" : etag + "-gz"
    }

    /// The gzipped bytes of `path` at version `etag`, or nil when it is too large,
    /// unreadable, or does not shrink.
    func gzipped(path: String, etag: String) -> [UInt8]? {
        if let hit = kept.withLock({ $0.copies[path] }), hit.etag == etag { return hit.bytes }
        guard let data = FileManager.default.contents(atPath: path), data.count > 0, data.count <= largestFile else { return nil }
        let size = data.count
        var length = 0
        let compressed: [UInt8]? = data.withUnsafeBytes { raw in
            guard let out = cws_gzip(raw.baseAddress, raw.count, &length) else { return nil }
            defer { free(out) }
            return Array(UnsafeBufferPointer(start: out, count: length))
        }
        guard let compressed, compressed.count < size else { return nil }
        kept.withLock { kept in
            if let old = kept.copies[path] {
                kept.total -= old.bytes.count
                kept.order.removeAll { $0 == path }
            }
            kept.copies[path] = (etag, compressed)
            kept.order.append(path)
            kept.total += compressed.count
            while kept.total > budget, let oldest = kept.order.first {
                kept.order.removeFirst()
                kept.total -= kept.copies.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
        return compressed
    }
}
