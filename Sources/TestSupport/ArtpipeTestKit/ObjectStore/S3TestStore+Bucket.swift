import Logging
import ObjectStorage

extension S3TestStore {
    /// A client of `address` (`s3://BUCKET/PREFIX`) with this store's keys, its bucket made.
    package func makeBucket(_ address: String) async throws -> S3Client {
        guard let location = try S3Location(address, endpoint: endpoint, region: nil) else {
            throw S3TestStoreError("not a bucket address: \(address)")
        }
        let client = S3Client(
            location: location,
            credentials: S3CredentialSource(
                fixed: S3Credentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey)),
            logger: .test)
        try await client.createBucket()
        return client
    }
}
