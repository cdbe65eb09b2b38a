// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CollectionServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "collection-server", targets: ["collection-server"]),
        .library(name: "CollectionCore", targets: ["CollectionCore"]),
        .library(name: "CollectionProtocol", targets: ["CollectionProtocol"]),
        .library(name: "CollectionSync", targets: ["CollectionSync"]),
        .library(name: "WebSocketTransport", targets: ["WebSocketTransport"]),
        .library(name: "CollectionTesting", targets: ["CollectionTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // Pure core: identifiers, snapshots, diffing, validation, layout. No I/O.
        .target(name: "CollectionCore"),
        // Wire protocol v1: message types, strict decoding, size limits.
        .target(name: "CollectionProtocol", dependencies: ["CollectionCore"]),
        // Server-authoritative model and per-viewer state; no sockets.
        .target(name: "CollectionSync", dependencies: ["CollectionCore", "CollectionProtocol"]),
        // libwebsockets 4.1.6 as a system library, plus a C shim for what Swift cannot import.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Checks TLS files with OpenSSL itself (libwebsockets' own TLS library).
        .target(name: "CWebSocketShim", dependencies: ["CLibWebSockets"], linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // Moves bytes; knows nothing of collections.
        .target(
            name: "WebSocketTransport",
            dependencies: ["CLibWebSockets", "CWebSocketShim", .product(name: "Logging", package: "swift-log")]
        ),
        // Test support shipped with the package: a protocol client with a mirror.
        .target(name: "CollectionTesting", dependencies: ["CollectionCore", "CollectionProtocol", "CollectionSync", "WebSocketTransport"]),
        // The only place that wires transport to sync.
        .executableTarget(
            name: "collection-server",
            dependencies: [
                "CollectionCore", "CollectionProtocol", "CollectionSync", "WebSocketTransport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Benchmarks (make bench): release build, prints tables.
        .executableTarget(name: "collection-bench", dependencies: ["CollectionCore", "CollectionProtocol", "CollectionSync", "CollectionTesting", "WebSocketTransport"]),
        .testTarget(name: "CollectionCoreTests", dependencies: ["CollectionCore"]),
        .testTarget(name: "CollectionProtocolTests", dependencies: ["CollectionProtocol"]),
        .testTarget(name: "CollectionSyncTests", dependencies: ["CollectionSync", "CollectionTesting"]),
        .testTarget(name: "WebSocketTransportTests", dependencies: ["WebSocketTransport"]),
        .testTarget(
            name: "ServerTests",
            dependencies: ["collection-server", "WebSocketTransport", "CollectionProtocol", "CollectionTesting", "CLibWebSockets"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
