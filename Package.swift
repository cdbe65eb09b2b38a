// swift-tools-version:6.0
import PackageDescription

// The tests' own code is compiled without optimization, in the release build too: the
// code they test is the optimized library's, and optimizing 15,000 lines of test
// bodies took 80 of the clean build's seconds.
let testCode: [SwiftSetting] = [.unsafeFlags(["-Onone"])]

let package = Package(
    name: "CollectionServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "collection-server", targets: ["collection-server"]),
        .library(name: "CollectionServer", targets: ["CollectionServer"]),
        // PostgreSQL for several servers, apart: an app on SQLite builds none of its packages.
        .library(name: "CollectionServerPostgres", targets: ["CollectionServerPostgres"]),
        // The engine alone (README, "Writing against the engine"); CollectionServer re-exports it.
        .library(name: "CollectionCore", targets: ["CollectionCore"]),
        .library(name: "CollectionTesting", targets: ["CollectionTesting"]),
        // The other library targets (protocol, sync, storage, transport) are not products:
        // an app names them only through what CollectionServer re-exports, which the API check covers.
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
    ],
    targets: [
        // Pure core: identifiers, snapshots, diffing, validation, layout. No I/O.
        .target(name: "CPrefetch"),
        .target(name: "Locking"),
        .target(name: "CollectionCore", dependencies: ["CPrefetch", "Locking"]),
        // A message's bytes with a run shared by many messages: what the protocol
        // writes and the transport sends, neither depending on the other.
        .target(name: "MessageBytes"),
        // Wire protocol v1: message types, strict decoding, size limits.
        .target(name: "CollectionProtocol", dependencies: ["CollectionCore", "MessageBytes"]),
        // Server-authoritative model and per-viewer state; no sockets.
        .target(name: "CollectionSync", dependencies: ["CollectionCore", "CollectionProtocol", "MessageBytes", "Locking"]),
        // Where collections are kept: SQLite through GRDB (the embedded default).
        .target(name: "CollectionStorage", dependencies: ["CollectionProtocol", "CollectionSync", "Locking", .product(name: "GRDB", package: "GRDB.swift")]),
        // Collections shared by several servers: PostgreSQL through postgres-nio.
        .target(name: "CollectionPostgres", dependencies: ["CollectionProtocol", "CollectionSync", "Locking", .product(name: "PostgresNIO", package: "postgres-nio")]),
        // libwebsockets 4.1.6 as a system library, plus a C shim for what Swift cannot import.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Checks TLS files with OpenSSL itself (libwebsockets' own TLS library).
        .target(name: "CWebSocketShim", dependencies: ["CLibWebSockets"],
                linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto"), .linkedLibrary("ev"), .linkedLibrary("z")]),
        // Moves bytes; knows nothing of collections.
        .target(
            name: "WebSocketTransport",
            dependencies: ["CLibWebSockets", "CWebSocketShim", "CPrefetch", "MessageBytes", "Locking", .product(name: "Logging", package: "swift-log")]
        ),
        // The browser client (Public/collection-view), shipped as resources.
        .target(name: "CollectionClient", path: "Public", sources: ["CollectionClient.swift"], resources: [.copy("collection-view")]),
        // The library an app imports: the server, its collections, the app's delegates.
        // (Tokens are signed with the OpenSSL libwebsockets links, through CWebSocketShim.)
        .target(
            name: "CollectionServer",
            dependencies: ["CollectionCore", "CollectionProtocol", "CollectionSync", "CollectionStorage", "WebSocketTransport", "CWebSocketShim", "Locking",
                           "CollectionClient", .product(name: "Logging", package: "swift-log")]
        ),
        // `.postgres(url:nodeID:options:)` storage for the library.
        .target(name: "CollectionServerPostgres", dependencies: ["CollectionServer", "CollectionPostgres"]),
        // Test support shipped with the package: a protocol client with a mirror.
        .target(name: "CollectionTesting", dependencies: ["CollectionCore", "CollectionProtocol", "CollectionSync", "WebSocketTransport", "CollectionServer"]),
        // The project's own test support (not a product): PostgreSQL for tests, journaled and shared hubs.
        .target(name: "ProjectTestSupport", dependencies: ["CollectionTesting", "CollectionCore", "CollectionProtocol", "CollectionSync"]),
        // Examples, on nothing but CollectionServer's public API (their pages: Examples/Public).
        // Two layouts of an app's own (CollectionViewLayout subclasses), as UIKit apps write them.
        .target(name: "ExampleLayouts", dependencies: ["CollectionServer"], path: "Examples/Layouts"),
        .target(name: "PhotoLibraryExample", dependencies: ["CollectionServer", "ExampleLayouts"], path: "Examples/PhotoLibrary"),
        .target(name: "BoardExample", dependencies: ["CollectionServer"], path: "Examples/Board"),
        .target(name: "TicketBoardExample", dependencies: ["CollectionServer"], path: "Examples/TicketBoard"),
        .target(name: "StorefrontExample", dependencies: ["CollectionServer"], path: "Examples/Storefront"),
        .target(name: "SignInExample", dependencies: ["CollectionServer"], path: "Examples/SignIn"),
        .target(name: "RetroExample", dependencies: ["CollectionServer"], path: "Examples/Retro"),
        // The examples' launcher.
        .executableTarget(
            name: "collection-server",
            dependencies: [
                "CollectionServer", "CollectionServerPostgres", "PhotoLibraryExample", "BoardExample", "TicketBoardExample", "StorefrontExample",
                "SignInExample", "RetroExample", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks (make bench): release build, prints tables.
        .executableTarget(name: "collection-bench", dependencies: ["CollectionCore", "CollectionProtocol", "CollectionSync", "ProjectTestSupport", "WebSocketTransport",
                                                                "PhotoLibraryExample"]),
        .testTarget(name: "CollectionCoreTests", dependencies: ["CollectionCore"], swiftSettings: testCode),
        .testTarget(name: "CollectionProtocolTests", dependencies: ["CollectionProtocol", "MessageBytes"], swiftSettings: testCode),
        .testTarget(name: "CollectionSyncTests", dependencies: ["CollectionSync", "ProjectTestSupport"], swiftSettings: testCode),
        .testTarget(name: "WebSocketTransportTests", dependencies: ["WebSocketTransport"], swiftSettings: testCode),
        .testTarget(name: "CollectionStorageTests", dependencies: ["CollectionStorage", "CollectionPostgres", "CollectionSync", "ProjectTestSupport", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: testCode),
        .testTarget(name: "CollectionServerTests", dependencies: ["CollectionServer", "CollectionServerPostgres", "ProjectTestSupport", "CollectionProtocol", "TicketBoardExample", "ExampleLayouts", "StorefrontExample", "PhotoLibraryExample", "SignInExample", "RetroExample"], swiftSettings: testCode),
        .testTarget(
            name: "ServerTests",
            dependencies: ["collection-server", "WebSocketTransport", "CollectionProtocol", "ProjectTestSupport", "CLibWebSockets"],
            swiftSettings: testCode
        ),
    ],
    swiftLanguageModes: [.v6]
)
