// swift-tools-version:6.0
import PackageDescription

// The module map (README, "Architecture"): a leaf of support code; a generic librdkafka
// client; the pipeline contract; the worker runtime; the three workers; the commands.
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let serviceLifecycle = Target.Dependency.product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")
let hummingbird = Target.Dependency.product(name: "Hummingbird", package: "hummingbird")
let httpTypes = Target.Dependency.product(name: "HTTPTypes", package: "swift-http-types")
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")

/// Where the modules the workers share live, and where what exists only for tests and the demo lives.
func shared(_ module: String) -> String { "Sources/Shared/\(module)" }
func testSupport(_ module: String) -> String { "Sources/TestSupport/\(module)" }

let package = Package(
    name: "artpipe",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "artpipe", targets: ["artpipe"]),
        // For the tests and benchmarks only; links the test kit, never shipped.
        .executable(name: "artpipe-probe", targets: ["artpipe-probe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
    ],
    targets: [
        // C libraries.
        .systemLibrary(name: "CKafka", pkgConfig: "rdkafka", providers: [.apt(["librdkafka-dev"])]),
        .systemLibrary(
            name: "CLibVips", path: shared("CLibVips"), pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVips", dependencies: ["CLibVips"], path: shared("CVips")),
        .target(name: "CFileWriteback", path: shared("CFileWriteback")),
        .systemLibrary(
            name: "CSQLite", path: shared("CSQLite"), pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Foundations: no artpipe concept in these three.
        .target(name: "ArtpipeSupport", dependencies: ["CFileWriteback"], path: shared("ArtpipeSupport")),
        .target(
            name: "KafkaClient", dependencies: ["CKafka", "ArtpipeSupport", logging, nioPosix],
            path: shared("KafkaClient")),
        .target(
            name: "HTTPFetching",
            dependencies: [
                "ArtpipeSupport", logging, nioCore, nioPosix,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ], path: shared("HTTPFetching")),

        .target(name: "EmbeddedStore", dependencies: ["CSQLite", "ArtpipeSupport"], path: shared("EmbeddedStore")),
        .target(
            name: "ObjectStorage",
            dependencies: [
                "ArtpipeSupport", logging, nioCore,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ], path: shared("ObjectStorage")),

        // The pipeline: its contract, the runtime every worker runs in, the workers.
        .target(
            name: "PipelineContract",
            dependencies: ["KafkaClient", .product(name: "Crypto", package: "swift-crypto")],
            path: shared("PipelineContract")),
        .target(
            name: "ArtpipeRuntime",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", logging, nioPosix, serviceLifecycle,
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ], path: shared("ArtpipeRuntime")),
        // A stage partition's life (assigned, restoring, ready, revoked) and its restore from a
        // changelog: the generic part of the index's stream processing.
        .target(
            name: "StreamTasks", dependencies: ["KafkaClient", "ArtpipeSupport", logging],
            path: shared("StreamTasks")),
        .target(
            name: "FetchWorker",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "HTTPFetching", logging,
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        .target(
            name: "ThumbWorker",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "HTTPFetching", "CVips",
                "ObjectStorage", logging, nioPosix, .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),
        .target(
            name: "IndexWorker",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "ObjectStorage", "EmbeddedStore",
                "StreamTasks", logging, nioPosix, serviceLifecycle, .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]),

        // Around the workers: HTTP endpoints, the command line, the sample collection.
        .target(
            name: "WorkerEndpoints",
            dependencies: [
                "KafkaClient", "ArtpipeRuntime", "ArtpipeSupport", hummingbird, httpTypes, nioCore, logging,
                serviceLifecycle,
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ], path: shared("WorkerEndpoints")),
        // What the operator's commands read and decide (status, a crawl's last harvest): the commands only wire.
        .target(
            name: "PipelineOperations",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", "IndexWorker", "ObjectStorage", logging, nioPosix,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ], path: shared("PipelineOperations")),
        .target(
            name: "ArtpipeCommandLine",
            dependencies: ["ArtpipeSupport", "KafkaClient", "ArtpipeRuntime", argumentParser, logging, nioPosix],
            path: shared("ArtpipeCommandLine")),
        .target(name: "SampleImages", dependencies: ["CVips"], path: testSupport("SampleImages")),
        .target(
            name: "SampleCollection",
            dependencies: ["ArtpipeSupport", "SampleImages", hummingbird, httpTypes, nioCore, nioPosix, logging],
            path: testSupport("SampleCollection")),
        .executableTarget(
            name: "artpipe",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "ArtpipeCommandLine",
                "FetchWorker", "ThumbWorker", "IndexWorker", "HTTPFetching", "SampleCollection", "WorkerEndpoints",
                "ObjectStorage", "PipelineOperations", argumentParser, logging, nioPosix, serviceLifecycle,
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),

        // Test support, a kit per concern, so that a Kafka test does not link libvips: the base kit
        // (processes, waiting with a deadline, names, the recorded responses, the test object store),
        // Kafka (the embedded broker, in-process workers, topic readers), HTTP (loopback servers,
        // the sample collection and its images); and the probe executable.
        .target(
            name: "ArtpipeTestKit",
            dependencies: ["ArtpipeSupport", "HTTPFetching", "ObjectStorage", logging],
            path: testSupport("ArtpipeTestKit"),
            resources: [.copy("Fixtures")]),
        .target(
            name: "KafkaTestKit",
            dependencies: [
                "ArtpipeTestKit", "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeRuntime", logging,
            ], path: testSupport("KafkaTestKit")),
        .target(name: "FuzzTestKit", path: testSupport("FuzzTestKit")),
        .target(
            name: "HTTPTestKit",
            dependencies: [
                "ArtpipeTestKit", "ArtpipeSupport", "HTTPFetching", "PipelineContract", "ThumbWorker",
                "SampleCollection", logging, hummingbird, httpTypes, nioCore, nioPosix,
            ], path: testSupport("HTTPTestKit")),
        .executableTarget(
            name: "artpipe-probe",
            dependencies: [
                "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "ArtpipeCommandLine",
                "IndexWorker", "HTTPFetching", "FetchWorker", "ThumbWorker", "SampleImages", "ArtpipeTestKit",
                "KafkaTestKit", "HTTPTestKit", "SampleCollection", "ObjectStorage",
                argumentParser, logging, nioCore, nioPosix, .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ], path: testSupport("artpipe-probe")),

        // Tests, one target per module they test.
        .testTarget(name: "ArtpipeSupportTests", dependencies: ["ArtpipeSupport", "ArtpipeTestKit"]),
        .testTarget(name: "EmbeddedStoreTests", dependencies: ["EmbeddedStore"]),
        .testTarget(
            name: "KafkaClientTests", dependencies: ["KafkaClient", "ArtpipeTestKit", "KafkaTestKit", logging]),
        .testTarget(
            name: "StreamTasksTests",
            dependencies: ["StreamTasks", "KafkaClient", "ArtpipeTestKit", "KafkaTestKit", logging]),
        .testTarget(
            name: "PipelineContractTests",
            dependencies: [
                "PipelineContract", "KafkaClient", "ArtpipeTestKit", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "ArtpipeRuntimeTests",
            dependencies: [
                "ArtpipeRuntime", "KafkaClient", "PipelineContract", "ArtpipeSupport", "ArtpipeTestKit", "KafkaTestKit",
                logging,
                serviceLifecycle, .product(name: "Metrics", package: "swift-metrics"),
            ]),
        .testTarget(
            name: "ArtpipeCommandLineTests",
            dependencies: [
                "ArtpipeCommandLine", "ArtpipeSupport", "KafkaClient", "PipelineContract", "ArtpipeTestKit",
                "HTTPTestKit",
            ]),
        .testTarget(
            name: "ObjectStorageTests",
            dependencies: ["FuzzTestKit", "ObjectStorage", "ArtpipeSupport", "ArtpipeTestKit", "HTTPTestKit", logging]),
        .testTarget(
            name: "HTTPFetchingTests",
            dependencies: [
                "HTTPFetching", "ArtpipeSupport", "ArtpipeTestKit", "HTTPTestKit", logging, nioCore,
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .testTarget(
            name: "FetchWorkerTests",
            dependencies: [
                "FuzzTestKit",
                "FetchWorker", "ArtpipeSupport", "HTTPFetching", "SampleCollection", "KafkaClient", "PipelineContract",
                "ArtpipeRuntime",
                "ArtpipeTestKit", "KafkaTestKit", "HTTPTestKit",
                logging, hummingbird, .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .testTarget(
            name: "ThumbWorkerTests",
            dependencies: [
                "ThumbWorker", "HTTPFetching", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "ArtpipeSupport",
                "SampleImages",
                "ArtpipeTestKit", "KafkaTestKit", "HTTPTestKit", logging, nioPosix,
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "PipelineOperationsTests",
            dependencies: [
                "PipelineOperations", "PipelineContract", "KafkaClient", "ArtpipeTestKit", "KafkaTestKit",
                logging,
            ]),
        .testTarget(
            name: "IndexWorkerTests",
            dependencies: [
                "FuzzTestKit", "StreamTasks",
                "IndexWorker", "FetchWorker", "KafkaClient", "PipelineContract", "ArtpipeRuntime", "ArtpipeSupport",
                "ArtpipeTestKit", "KafkaTestKit", "ObjectStorage", "EmbeddedStore",
                "SampleCollection", nioPosix,
            ]),
        .testTarget(
            name: "PipelineTests",
            dependencies: [
                "KafkaClient", "PipelineContract", "ArtpipeSupport", "IndexWorker", "ThumbWorker", "HTTPFetching",
                "SampleCollection", "SampleImages", "ArtpipeTestKit", "KafkaTestKit", "HTTPTestKit", "ObjectStorage",
                "PipelineOperations", logging,
            ]),
    ]
)
