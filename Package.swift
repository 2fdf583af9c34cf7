// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "artpipe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "artpipe", targets: ["artpipe"]),
        .executable(name: "artpipe-probe", targets: ["artpipe-probe"]),
        .library(name: "Shared", targets: ["Shared"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        .systemLibrary(
            name: "CLibVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(
            name: "CVips",
            dependencies: ["CLibVips"]
        ),
        .target(
            name: "ThumbWorker",
            dependencies: [
                "Shared",
                "CVips",
                "HTTPFetching",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "IndexWorker",
            dependencies: [
                "Shared",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "Shared",
            dependencies: [
                "CKafka",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "artpipe",
            dependencies: [
                "Shared",
                "FetchWorker",
                "ThumbWorker",
                "IndexWorker",
                "HTTPFetching",
                "SampleCollection",
                "WorkerEndpoints",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "HTTPFetching",
            dependencies: [
                "Shared",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "FetchWorker",
            dependencies: [
                "Shared",
                "HTTPFetching",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "WorkerEndpoints",
            dependencies: [
                "Shared",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "SampleCollection",
            dependencies: [
                "ThumbWorker",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "ArtpipeTestKit",
            dependencies: [
                "Shared",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "artpipe-probe",
            dependencies: [
                "Shared",
                "IndexWorker",
                "HTTPFetching",
                "FetchWorker",
                "ThumbWorker",
                "ArtpipeTestKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SharedTests",
            dependencies: [
                "Shared",
                "ArtpipeTestKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "IndexWorkerTests",
            dependencies: ["IndexWorker", "FetchWorker", "Shared", "ArtpipeTestKit"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "ThumbWorkerTests",
            dependencies: [
                "ThumbWorker",
                "HTTPFetching",
                "ArtpipeTestKit",
                "Shared",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "Shared",
                "IndexWorker",
                "SampleCollection",
                "ArtpipeTestKit",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FetchWorkerTests",
            dependencies: [
                "FetchWorker",
                "HTTPFetching",
                "Shared",
                "ArtpipeTestKit",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
