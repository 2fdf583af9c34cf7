import ArtpipeSupport
import Foundation
import NIOHTTP1

/// One answer of the store, with the error it carries, if any.
struct S3Response {
    let request: String
    let status: Int
    let headers: HTTPHeaders
    let body: [UInt8]

    /// The ETag, without its quotes.
    var etag: String? {
        headers.first(name: "etag").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }

    /// The `<Code>` of an error document (`NoSuchBucket`, `AccessDenied`, `SlowDown`).
    var errorCode: String? { errorDocument?.code }

    private var errorDocument: (code: String?, message: String?)? {
        guard status >= 300, !body.isEmpty, let tree = try? XMLTree.parse(body), tree.name == "Error" else {
            return nil
        }
        return (tree.children.first { $0.name == "Code" }?.text, tree.children.first { $0.name == "Message" }?.text)
    }

    /// Throws the store's error unless the status is in `low...high`.
    func expect(_ low: Int, _ high: Int) throws {
        guard !(low...high).contains(status) else { return }
        let document = errorDocument
        throw ObjectStoreError.status(
            code: status, error: document?.code, message: document?.message, request: request)
    }
}
