import Foundation

extension S3Client {
    /// The same requests, each waited for on the calling thread while the HTTP client's event
    /// loops do the work: for code that runs on a thread pool (the workers' file writes) and
    /// must not wait on a task, whose threads may be the ones it blocks.
    package struct Blocking: Sendable {
        let client: S3Client

        /// - Parameter precondition: a header that makes the PUT conditional (`If-Match`,
        ///   `If-None-Match`): a 412 when it does not hold.
        @discardableResult
        package func put(
            _ key: String, body: [UInt8], contentType: String, cacheControl: String? = nil,
            metadata: [String: String] = [:], precondition: (name: String, value: String)? = nil
        ) throws -> String {
            try run(
                client.putCall(
                    key, body: body, contentType: contentType, cacheControl: cacheControl, metadata: metadata,
                    precondition: precondition))
        }

        /// The object's bytes with their ETag; nil when there is none.
        package func getVersioned(_ key: String) throws -> (body: [UInt8], etag: String)? {
            try run(client.getVersionedCall(key))
        }

        package func head(_ key: String) throws -> S3ObjectInfo? {
            try run(client.headCall(key))
        }

        /// Renews the object's `Last-Modified` by copying it onto itself; false when it is not there.
        package func touch(_ key: String, contentType: String, cacheControl: String?) throws -> Bool {
            try run(client.touchCall(key, contentType: contentType, cacheControl: cacheControl, used: Date()))
        }

        package func listAll(prefix: String, directOnly: Bool = false, visit: (S3ObjectInfo) throws -> Void) throws {
            var token: String?
            repeat {
                let page = try run(
                    client.listCall(prefix: prefix, directOnly: directOnly, continuationToken: token, maxKeys: 1_000))
                for object in page.objects { try visit(object) }
                token = page.continuationToken
            } while token != nil
        }

        package func delete(_ keys: [String]) throws -> [S3DeleteFailure] {
            guard !keys.isEmpty else { return [] }
            return try run(client.deleteCall(keys))
        }

        private func run<Result>(_ call: S3Call<Result>) throws -> Result {
            do {
                return try call.interpret(try client.send(call).wait())
            } catch let error as ObjectStoreError
                where error.credentialsExpired && client.credentialsReadAgain(after: error)
            {
                return try call.interpret(try client.send(call).wait())
            }
        }
    }

    package var blocking: Blocking { Blocking(client: self) }
}
