import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The answers the stand-ins share: error pages and JSON documents.
enum SampleResponse {
    static func html(_ status: HTTPResponse.Status, _ page: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    static func json(
        _ document: [String: Any], status: HTTPResponse.Status = .ok,
        contentType: String = "application/json; charset=utf-8", headers: HTTPFields = [:]
    ) throws -> Response {
        let body = try JSONSerialization.data(
            withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
