import ArgumentParser
import SampleCollection

/// The flags that fix a sample collection, shared by `sample-server` and `demo`.
struct SampleCollectionOptions: ParsableArguments {
    @Option(help: "Pages in the sample collection.")
    var pages: Int = 30

    @Option(help: "Works per page (1–100): the page size the collection is laid out for.")
    var pageSize: Int = 100

    @Option(help: "Seed of the generated collection.")
    var seed: UInt64 = 1

    @Option(help: "Share of images that are deliberately broken (truncated, or HTML instead of an image).")
    var brokenImageRate: Double = 0.02

    func validate() throws {
        guard pages >= 1 else { throw ValidationError("--pages must be at least 1") }
        guard (1...100).contains(pageSize) else { throw ValidationError("--page-size must be 1–100") }
        guard pages * pageSize <= 10_000 else {
            throw ValidationError("--pages × --page-size must not exceed 10,000 (the legacy API's limit)")
        }
        guard (0...1).contains(brokenImageRate) else { throw ValidationError("--broken-image-rate must be 0–1") }
    }

    var configuration: SampleCollection.Configuration {
        var configuration = SampleCollection.Configuration()
        configuration.seed = seed
        configuration.pages = pages
        configuration.pageSize = pageSize
        configuration.brokenImageRate = brokenImageRate
        return configuration
    }

    /// The same flags, for a `sample-server` child process.
    var arguments: [String] {
        [
            "--pages", String(pages), "--page-size", String(pageSize), "--seed", String(seed), "--broken-image-rate",
            String(brokenImageRate),
        ]
    }
}
