import ArgumentParser
import ArtpipeSupport
import Foundation
import Logging
import ObjectStorage

/// Where published files go: `--out DIR` or `--out s3://BUCKET/PREFIX`, and how to reach the
/// store. Keys come from `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY` (and `AWS_SESSION_TOKEN`),
/// or the shared credentials file.
struct OutputOptions: ParsableArguments {
    @Option(
        help: """
            Where the published files go: a directory, or s3://BUCKET[/PREFIX] in an S3-compatible store (keys from \
            AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the shared credentials file).
            """)
    var out: String

    @Option(
        help:
            "The S3-compatible store's URL (MinIO, Ceph RGW, R2…); default AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, else AWS."
    )
    var s3Endpoint: String?

    @Option(help: "The bucket's region (default AWS_REGION, else us-east-1).")
    var s3Region: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Address buckets as ENDPOINT/BUCKET rather than BUCKET.ENDPOINT (default: on with --s3-endpoint).")
    var s3PathStyle: Bool?

    init() {}

    /// The parsed location; a bad address is a configuration error that names the flag.
    func location() throws -> OutputLocation {
        do {
            return try OutputLocation(out, endpoint: s3Endpoint, region: s3Region, pathStyle: s3PathStyle)
        } catch let error as ObjectStoreError {
            throw ConfigurationError("--out: \(error)")
        }
    }

    /// Opens the store, checking once that it can be written.
    func open(touchAfter: Duration = .seconds(3_600), logger: Logger) async throws -> any OutputStore {
        do {
            return try await location().open(touchAfter: touchAfter, logger: logger)
        } catch let error as ObjectStoreError {
            throw ConfigurationError("--out: \(error)")
        }
    }
}
