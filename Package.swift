// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "PlaybackForensics",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "playback-forensics", targets: ["playback-forensics"]),
        .library(name: "PlaybackForensics", targets: ["PlaybackForensics"]),
        .library(name: "PlaybackMetricsRecorder", targets: ["PlaybackMetricsRecorder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSystemZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        .target(name: "ForensicsCore"),
        .target(
            name: "ForensicsParsers",
            dependencies: [
                "ForensicsCore", "CSystemZlib",
            ]
        ),
        .target(name: "ForensicsCorrelation", dependencies: ["ForensicsCore"]),
        .target(name: "ForensicsRules", dependencies: ["ForensicsCore"]),
        .target(name: "ForensicsReports", dependencies: ["ForensicsCore"]),
        // The fleet triage index (SQLite through GRDB): schema, rows, problem groups, merging.
        .target(
            name: "ForensicsIndex",
            dependencies: ["ForensicsCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "PlaybackForensics",
            dependencies: [
                "ForensicsCore", "ForensicsParsers", "ForensicsCorrelation", "ForensicsRules", "ForensicsReports",
                "ForensicsIndex", .product(name: "Crypto", package: "swift-crypto"),
                // libyaml's event parser (CYaml, which Yams wraps) reads the rule configuration.
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "playback-forensics",
            dependencies: [
                "PlaybackForensics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "PlaybackMetricsRecorder"),
        .executableTarget(
            name: "playback-forensics-bench",
            dependencies: [
                "ForensicsParsers", "ForensicsCore", "ForensicsCorrelation", "ForensicsRules", "ForensicsReports",
                "PlaybackForensics",
            ]
        ),
        .executableTarget(
            name: "playback-forensics-fuzz",
            dependencies: ["ForensicsParsers", "ForensicsCore", "ForensicsReports", "PlaybackForensics"]
        ),
        // What several test targets share (paths, fixtures' compilers, gzip): not shipped.
        .target(
            name: "ForensicsTestSupport",
            dependencies: ["ForensicsCore", "ForensicsParsers", "ForensicsRules", "CSystemZlib"],
            path: "Tests/ForensicsTestSupport"
        ),
        .testTarget(name: "ForensicsCoreTests", dependencies: ["ForensicsCore"]),
        .testTarget(
            name: "ForensicsParsersTests",
            dependencies: [
                "ForensicsParsers", "ForensicsTestSupport", "PlaybackForensics", "ForensicsReports",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(
            name: "ForensicsCorrelationTests",
            dependencies: ["ForensicsCorrelation", "ForensicsTestSupport", "PlaybackForensics", "ForensicsReports"]
        ),
        .testTarget(
            name: "ForensicsRulesTests",
            dependencies: ["ForensicsRules", "ForensicsTestSupport", "ForensicsParsers", "PlaybackForensics"]
        ),
        .testTarget(
            name: "ForensicsReportsTests",
            dependencies: ["ForensicsReports", "ForensicsTestSupport", "PlaybackForensics"],
            exclude: ["Golden"]
        ),
        .testTarget(name: "ForensicsIndexTests", dependencies: ["ForensicsIndex"]),
        .testTarget(
            name: "PlaybackForensicsTests",
            dependencies: ["PlaybackForensics", "ForensicsTestSupport", "ForensicsParsers", "ForensicsRules"]),
        .testTarget(
            name: "CLITests", dependencies: ["PlaybackForensics", "ForensicsTestSupport", "playback-forensics"]),
    ],
    swiftLanguageModes: [.v6]
)
