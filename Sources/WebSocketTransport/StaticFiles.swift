import Foundation

/// Maps request paths to files under one directory: decodes percent-escapes,
/// refuses any path that could leave the directory, picks the content type.
/// The decisions are pure; only ``resolve(_:)`` looks at the file system.
public struct StaticFiles: Sendable {
    /// What to answer.
    public enum Answer: Equatable, Sendable {
        case file(path: String, contentType: String)
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
        guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { return .notFound }
        let ext = (relative as NSString).pathExtension.lowercased()
        return .file(path: full, contentType: Self.contentTypes[ext] ?? "application/octet-stream")
    }
}
