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
        .target(
            name: "PlaybackForensics",
            dependencies: ["ForensicsCore", "ForensicsParsers", "ForensicsCorrelation", "ForensicsRules", "ForensicsReports"]
        ),
        .executableTarget(
            name: "playback-forensics",
            dependencies: [
                "PlaybackForensics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
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
        .testTarget(name: "ForensicsCoreTests", dependencies: ["ForensicsCore"]),
        .testTarget(
            name: "ForensicsParsersTests",
            dependencies: [
                "ForensicsParsers", "PlaybackForensics", "ForensicsReports",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        .testTarget(name: "ForensicsCorrelationTests", dependencies: ["PlaybackForensics", "ForensicsParsers", "ForensicsReports", "ForensicsRules"]),
        .testTarget(name: "ForensicsRulesTests", dependencies: ["PlaybackForensics"]),
        .testTarget(name: "ForensicsReportsTests", dependencies: ["PlaybackForensics"], exclude: ["Golden"]),
        .testTarget(name: "CLITests", dependencies: ["PlaybackForensics", "playback-forensics"]),
    ],
    swiftLanguageModes: [.v6]
)
