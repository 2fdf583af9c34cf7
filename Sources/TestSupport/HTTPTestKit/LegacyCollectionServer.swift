import Foundation

/// A stand-in for the legacy collection API: `total` generated objects, `artist`-sorted,
/// answering `/api/en/collection?p=&ps=` like the real one (p·ps ≤ 10,000 enforced).
package enum LegacyCollectionServer {
    package static let apiKey = "test-key-8e5f2c"

    static func object(_ index: Int) -> String {
        let hasImage = index % 7 != 3
        let image =
            hasImage
            ? "{\"url\": \"https://lh3.googleusercontent.com/img\(index)=s0\", \"width\": 2000, \"height\": 1500}"
            : "null"
        return """
            {"objectNumber": "SK-\(index)", "title": "Work \(index)", "principalOrFirstMaker": "Artist \(index / 10)", \
            "hasImage": \(hasImage), "showImage": true, "webImage": \(image)}
            """
    }

    package static func answer(_ request: TestHTTPServer.Request, total: Int) -> TestHTTPServer.Response {
        guard request.query["key"] == apiKey else {
            return TestHTTPServer.Response(status: 401, body: Array("Invalid key".utf8))
        }
        let page = Int(request.query["p"] ?? "1") ?? 1
        let size = Int(request.query["ps"] ?? "10") ?? 10
        guard page * size <= 10_000 else {
            return TestHTTPServer.Response(status: 400, body: Array("p*ps > 10000".utf8))
        }
        let objects = ((page - 1) * size..<min(total, page * size)).map(object)
        return .json(
            """
            {"count": \(total), "artObjects": [\(objects.joined(separator: ","))], \
            "facets": [{"name": "type", "facets": [{"key": "painting", "value": \(total / 3)}, {"key": "print", "value": \(total - total / 3)}]}]}
            """)
    }
}
