import Foundation

/// Maps request paths to files under one directory: decodes percent-escapes,
/// refuses any path that could leave the directory, picks the content type.
/// The decisions are pure; only ``resolve(_:)`` looks at the file system.
public struct StaticFiles: Sendable {
    /// What to answer.
    public enum Answer: Equatable, Sendable {
        case file(path: String, contentType: String, validators: Validators)
        case notFound
        case forbidden
    }

    /// The served directory, absolute, without a trailing slash.
    public let root: String

    /// Serves `root`.
    public init(root: String) {
        var r = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        while r.count > 1 && r.hasSuffix("/") { r.removeLast() }
        self.root = r
    }

    /// Content types by extension.
    public static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "json": "application/json", "svg": "image/svg+xml", "png": "image/png",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "ico": "image/x-icon", "txt": "text/plain; charset=utf-8",
        "woff2": "font/woff2", "map": "application/json", "webmanifest": "application/manifest+json",
    ]

    /// The relative path a request names, or nil when it must be refused
    /// (escapes, `..` or `.` segments, control characters, bad escapes).
    public static func relativePath(for requestPath: String) -> String? {
        let pathOnly = requestPath.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard let decoded = pathOnly.removingPercentEncoding else { return nil }
        guard decoded.hasPrefix("/"), !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" }) else { return nil }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: true)
        if segments.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") }) { return nil }
        if segments.isEmpty || decoded.hasSuffix("/") { return (segments + ["index.html"]).joined(separator: "/") }
        return segments.joined(separator: "/")
    }

    /// Decides what to answer for `requestPath`.
    public func resolve(_ requestPath: String) -> Answer {
        guard let relative = Self.relativePath(for: requestPath) else { return .forbidden }
        let full = URL(fileURLWithPath: root + "/" + relative).resolvingSymlinksInPath().path
        guard full.hasPrefix(root + "/") else { return .forbidden }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue,
              let attributes = try? FileManager.default.attributesOfItem(atPath: full),
              let size = (attributes[.size] as? NSNumber)?.intValue, let modified = attributes[.modificationDate] as? Date else { return .notFound }
        let ext = (relative as NSString).pathExtension.lowercased()
        return .file(path: full, contentType: Self.contentTypes[ext] ?? "application/octet-stream",
                     validators: Validators(size: size, modified: modified))
    }

    /// A file's validators: an ETag from its size and modification time, and its
    /// Last-Modified date, so that a browser revalidates with a 304 instead of
    /// loading the file again.
    public struct Validators: Equatable, Sendable {
        /// The strong entity tag, quoted.
        public var etag: String
        /// The modification time as an HTTP date.
        public var lastModified: String
        /// The modification time in whole seconds since 1970.
        public var modifiedSeconds: Int

        /// Validators for a file of `size` bytes last modified at `modified`.
        public init(size: Int, modified: Date) {
            let nanoseconds = Int64((modified.timeIntervalSince1970 * 1e9).rounded())
            etag = "\"\(String(size, radix: 16))-\(String(nanoseconds, radix: 16))\""
            modifiedSeconds = Int(modified.timeIntervalSince1970.rounded(.down))
            lastModified = Self.httpDate(modifiedSeconds)
        }

        /// Whether a conditional request's copy is still current: `If-None-Match`
        /// names this ETag (or `*`), or, without it, `If-Modified-Since` is not
        /// before the modification time (RFC 9110 §13.2.2).
        public func unchanged(ifNoneMatch: String?, ifModifiedSince: String?) -> Bool {
            if let ifNoneMatch {
                return ifNoneMatch.split(separator: ",").contains { tag in
                    let t = tag.trimmingCharacters(in: .whitespaces)
                    return t == "*" || t == etag || t == "W/" + etag
                }
            }
            guard let ifModifiedSince, let since = Self.parseHTTPDate(ifModifiedSince) else { return false }
            return since >= modifiedSeconds
        }

        private static let days = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

        /// IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT".
        static func httpDate(_ seconds: Int) -> String {
            var t = time_t(seconds)
            var parts = tm()
            gmtime_r(&t, &parts)
            func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(days[seconds / 86_400 % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        }

        /// Seconds since 1970 of an IMF-fixdate, or nil.
        static func parseHTTPDate(_ text: String) -> Int? {
            let f = text.split(separator: " ")
            guard f.count == 6, f[5] == "GMT", let day = Int(f[1]), let month = months.firstIndex(of: String(f[2])), let year = Int(f[3]) else { return nil }
            let hms = f[4].split(separator: ":").compactMap { Int($0) }
            guard hms.count == 3 else { return nil }
            var parts = tm()
            parts.tm_mday = Int32(day)
            parts.tm_mon = Int32(month)
            parts.tm_year = Int32(year - 1900)
            parts.tm_hour = Int32(hms[0])
            parts.tm_min = Int32(hms[1])
            parts.tm_sec = Int32(hms[2])
            return Int(timegm(&parts))
        }
    }
}
