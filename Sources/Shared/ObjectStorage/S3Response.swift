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

    /// `Last-Modified`, to the second.
    var lastModified: Date? {
        headers.first(name: "last-modified").flatMap { Self.httpDate.date(from: $0) }
    }

    /// HTTP dates (`Tue, 24 Nov 2026 15:06:24 GMT`); a formatter is safe to share once made.
    nonisolated(unsafe) private static let httpDate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter
    }()

    /// A copy may fail after its 200 is sent: its error document then comes with the 200.
    var copyFailed: Bool {
        status == 200 && request.hasPrefix("COPY ") && (try? XMLTree.parse(body))?.name == "Error"
    }

    /// The `<Code>` of an error document (`NoSuchBucket`, `AccessDenied`, `SlowDown`).
    var errorCode: String? { errorDocument?.code }

    private var errorDocument: (code: String?, message: String?)? {
        guard status >= 300 || copyFailed, !body.isEmpty, let tree = try? XMLTree.parse(body), tree.name == "Error"
        else {
            return nil
        }
        return (tree.children.first { $0.name == "Code" }?.text, tree.children.first { $0.name == "Message" }?.text)
    }

    /// Throws the store's error unless the status is in `low...high`.
    func expect(_ low: Int, _ high: Int) throws {
        guard !(low...high).contains(status) || copyFailed else { return }
        let document = errorDocument
        throw ObjectStoreError.status(
            code: status, error: document?.code, message: document?.message, request: request)
    }
}
