import Foundation
import Logging

/// What `--out` names: a folder, or `s3://BUCKET[/PREFIX]` with the store's endpoint, region
/// and addressing (`--s3-endpoint` or `AWS_ENDPOINT_URL`, `--s3-region` or `AWS_REGION`).
package enum OutputLocation: Sendable {
    case folder(URL)
    case bucket(S3Location)

    /// - Parameters:
    ///   - endpoint: `--s3-endpoint`; else `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL`.
    ///   - region: `--s3-region`; else `AWS_REGION` or `AWS_DEFAULT_REGION`.
    package init(
        _ text: String, endpoint: String? = nil, region: String? = nil, pathStyle: Bool? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        // An empty variable counts as unset, as a deploy file's `AWS_REGION: ""` means.
        let setting = { (name: String) in environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let endpoint = endpoint ?? setting("AWS_ENDPOINT_URL_S3") ?? setting("AWS_ENDPOINT_URL")
        let region = region ?? setting("AWS_REGION") ?? setting("AWS_DEFAULT_REGION")
        if let location = try S3Location(text, endpoint: endpoint, region: region, pathStyle: pathStyle) {
            self = .bucket(location)
        } else if text.contains("://") {
            throw ObjectStoreError.configuration("'\(text)' is neither a folder nor an s3:// address")
        } else {
            self = .folder(URL(fileURLWithPath: text, isDirectory: true))
        }
    }

    /// The folder, when it is one: what only a folder can do (`prune`, the index state beside it).
    package var folder: URL? {
        if case .folder(let url) = self { return url }
        return nil
    }

    /// Opens the store and checks, once, that it can be used: a folder is created; a bucket
    /// is listed with the keys from the environment (or the credentials file). A refusal is a
    /// configuration error naming the bucket and endpoint; a store that does not answer yet is
    /// tried again until `patience` passes.
    /// - Parameter touchAfter: in a bucket, how old a reused object may be before it is copied
    ///   onto itself (``BucketOutputStore/markUsed(_:)``).
    package func open(
        environment: [String: String] = ProcessInfo.processInfo.environment, patience: Duration = .seconds(60),
        touchAfter: Duration = .seconds(3_600), logger: Logger
    ) async throws -> any OutputStore {
        switch self {
        case .folder(let url):
            do {
                try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw ObjectStoreError.configuration("cannot create \(url.path): \(error.localizedDescription)")
            }
            return FolderOutputStore(directory: url)
        case .bucket(let location):
            let client = S3Client(
                location: location, credentials: try S3CredentialSource.resolve(environment: environment),
                logger: logger)
            let deadline = ContinuousClock.now + patience
            while true {
                do {
                    try await client.checkAccess()
                    return BucketOutputStore(client: client, touchAfter: touchAfter, logger: logger)
                } catch let error as ObjectStoreError
                    where !error.failureClass.isForGood && ContinuousClock.now < deadline
                {
                    logger.warning(
                        "the object store does not answer yet; trying again",
                        metadata: ["s3.location": "\(location.description)", "reason": "\(error)"])
                    try await Task.sleep(for: .seconds(2))
                }
            }
        }
    }
}
