// swift-tools-version:6.0
// libFuzzer targets, built apart from the main package (they have no main):
//   make fuzz            (builds, then fuzzes for FUZZ_SECONDS)
import PackageDescription

let package = Package(
    name: "FuzzTesting",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "CollectionServer", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzHub",
            dependencies: [.product(name: "CollectionTesting", package: "CollectionServer")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
