import ArtpipeSupport
import Foundation

/// Reads the XML answers of ListObjectsV2 and DeleteObjects.
enum S3ListResult {
    /// The largest `Size` a listed object may have: 64 TiB, past any object S3 stores. A larger
    /// or negative size is no object's (sums over a listing are saturating all the same).
    static let maxObjectBytes = 1 << 46

    /// A listing whose object has no `Size`, or one outside `0...maxObjectBytes`, is malformed.
    static func parse(_ body: [UInt8], request: String) throws -> S3ListPage {
        let tree = try document(body, root: "ListBucketResult", request: request)
        let objects = try tree.children.filter { $0.name == "Contents" }.map { contents in
            let field = { (name: String) in contents.children.first { $0.name == name } }
            let text = field("Size")?.text ?? ""
            guard let size = Int(text), (0...maxObjectBytes).contains(size) else {
                throw ObjectStoreError.malformed(
                    "an object of size \"\(text.prefix(40))\" in a listing", request: request)
            }
            return S3ObjectInfo(
                key: field("Key")?.rawText ?? "", size: size,
                etag: (field("ETag")?.text ?? "").trimmingCharacters(in: CharacterSet(charactersIn: "\"")),
                lastModified: field("LastModified").flatMap { try? Date($0.text, strategy: .iso8601) })
        }
        let truncated = tree.children.first { $0.name == "IsTruncated" }?.text == "true"
        let token = tree.children.first { $0.name == "NextContinuationToken" }?.rawText
        if truncated && token == nil {
            throw ObjectStoreError.malformed("a truncated listing without NextContinuationToken", request: request)
        }
        return S3ListPage(objects: objects, continuationToken: truncated ? token : nil)
    }

    static func deleteFailures(_ body: [UInt8], request: String) throws -> [S3DeleteFailure] {
        let tree = try document(body, root: "DeleteResult", request: request)
        return tree.children.filter { $0.name == "Error" }.map { error in
            let field = { (name: String) in error.children.first { $0.name == name } }
            return S3DeleteFailure(
                key: field("Key")?.rawText ?? "", code: field("Code")?.text, message: field("Message")?.text)
        }
    }

    private static func document(_ body: [UInt8], root: String, request: String) throws -> XMLTree {
        let tree: XMLTree
        do {
            tree = try XMLTree.parse(body)
        } catch {
            throw ObjectStoreError.malformed("\(error)", request: request)
        }
        guard tree.name == root else {
            throw ObjectStoreError.malformed("expected <\(root)>, got <\(tree.name)>", request: request)
        }
        return tree
    }
}
