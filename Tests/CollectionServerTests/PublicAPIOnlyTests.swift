import Foundation
import Testing

/// The examples and the executable are built on nothing but the library's public API
/// (`CollectionServer`, and `CollectionServerPostgres` for PostgreSQL storage): they
/// import no other module of this package, and nothing `@testable`.
@Suite struct PublicAPIOnlyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let allowed: Set<String> = ["CollectionServer", "CollectionServerPostgres", "PhotoLibraryExample", "BoardExample", "TicketBoardExample", "ExampleLayouts", "StorefrontExample", "SignInExample", "RetroExample",
                                       "ArgumentParser", "Synchronization", "Foundation", "Dispatch"]

    @Test func examplesAndTheLauncherImportOnlyThePublicLibrary() throws {
        var files: [URL] = []
        for folder in ["Examples", "Sources/collection-server"] {
            let dir = Self.root.appendingPathComponent(folder)
            let found = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            files += found.filter { $0.pathExtension == "swift" }
        }
        #expect(files.count >= 5)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import ") || line.hasPrefix("@testable") || line.hasPrefix("@_exported") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!line.hasPrefix("@"), "\(file.lastPathComponent): \(line)")
                #expect(Self.allowed.contains(module), "\(file.lastPathComponent) imports \(module)")
            }
        }
    }
}
