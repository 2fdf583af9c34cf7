import ArtpipeSupport
import ArtpipeTestKit
import Foundation
import Testing

@testable import ObjectStorage

/// Signature Version 4: AWS's published examples, and botocore (an independent signer, from
/// PyPI) on the same requests, with the keys and queries that encodings get wrong.
@Suite("S3 request signing")
struct S3SignerTests {
    static let exampleCredentials = S3Credentials(
        accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    static func authorization(
        _ method: String, path: String, query: [(String, String)] = [], headers: [(String, String)] = [],
        payload: String = emptyHash, signer: S3Signer = S3Signer(credentials: exampleCredentials, region: "us-east-1"),
        host: String = "examplebucket.s3.amazonaws.com", date: Date = exampleDate
    ) -> String {
        let signed = signer.signedHeaders(
            method: method, path: path, query: query, headers: [("host", host)] + headers, payloadSHA256: payload,
            date: date)
        return signed.first { $0.0 == "authorization" }?.1 ?? ""
    }

    static func signature(_ authorization: String) -> String {
        String(authorization.split(separator: "=").last ?? "")
    }

    @Test(
        "AWS's examples for S3: GET an object with a range, PUT with a storage class, a bucket's lifecycle, a listing")
    func awsExamples() {
        #expect(
            Self.signature(Self.authorization("GET", path: "/test.txt", headers: [("Range", "bytes=0-9")]))
                == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(
            Self.signature(
                Self.authorization(
                    "PUT", path: S3Encoding.path("/test$file.text"),
                    headers: [
                        ("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY"),
                    ],
                    payload: "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072"))
                == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        #expect(
            Self.signature(Self.authorization("GET", path: "/", query: [("lifecycle", "")]))
                == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
        #expect(
            Self.signature(Self.authorization("GET", path: "/", query: [("max-keys", "2"), ("prefix", "J")]))
                == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test("encoding: unreserved bytes kept, everything else %XX in capitals, slashes kept only in paths")
    func encoding() {
        #expect(S3Encoding.component("a b+c/d~e_f.g-h") == "a%20b%2Bc%2Fd~e_f.g-h")
        #expect(S3Encoding.path("/thumbs/200/ab/Zurbarán 1+1.jpg") == "/thumbs/200/ab/Zurbar%C3%A1n%201%2B1.jpg")
        #expect(
            S3Encoding.canonicalQuery([("prefix", "a b"), ("list-type", "2"), ("a", "2"), ("a", "1")])
                == "a=1&a=2&list-type=2&prefix=a%20b")
    }

    /// The requests compared with botocore: keys and queries with `+`, spaces, non-ASCII,
    /// reserved characters, repeated spaces in header values, and temporary credentials.
    static let comparedRequests:
        [(method: String, path: String, query: [(String, String)], headers: [(String, String)])] = [
            (
                "PUT", "/artpipe/thumbs/200/7f/SK-A-1718.3f2a.jpg", [],
                [("Content-Type", "image/jpeg"), ("Cache-Control", "public, max-age=31536000, immutable")]
            ),
            ("GET", "/artpipe/works/Zurbarán, Francisco de/a+b c.json", [], []),
            ("HEAD", "/artpipe/thumbs/200/00/日本 画.jpg", [], [("x-amz-meta-sha256", "  padded   value  ")]),
            (
                "GET", "/artpipe",
                [
                    ("list-type", "2"), ("prefix", "thumbs/200/ab+c d/é"), ("continuation-token", "1/AbC+dE=="),
                    ("max-keys", "1000"),
                ], []
            ),
            (
                "POST", "/artpipe", [("delete", "")],
                [("Content-Type", "application/xml"), ("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==")]
            ),
            ("GET", "/artpipe/odd!'()*&$@=;:,?[]#%.txt", [("a", "!'()*"), ("b", "%20")], []),
        ]

    @Test("every request signs as botocore signs it, with and without a session token")
    func matchesBotocore() throws {
        let python = TestPython.path
        let script = try #require(ChildProcess.packageRoot()).appendingPathComponent("Tests/Servers/sigv4_botocore.py")
        for token in [nil, "FwoGZXIvYXdzEBYaDPlus+Slash/Equals=="] {
            let credentials = S3Credentials(
                accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                sessionToken: token)
            let signer = S3Signer(credentials: credentials, region: "eu-west-1")
            let date = Date(timeIntervalSince1970: 1_795_000_123)
            var items: [[String: Any]] = []
            var ours: [String] = []
            for (index, request) in Self.comparedRequests.enumerated() {
                let payload = S3Signer.payloadHash(Array("body \(index)".utf8))
                items.append([
                    "method": request.method, "host": "127.0.0.1:7480", "path": request.path,
                    "params": request.query.map { [$0.0, $0.1] }, "headers": request.headers.map { [$0.0, $0.1] },
                    "payload": payload, "timestamp": S3Signer.timestamps(date).0, "region": "eu-west-1",
                    "key": credentials.accessKeyID, "secret": credentials.secretAccessKey, "token": token as Any,
                ])
                ours.append(
                    Self.authorization(
                        request.method, path: S3Encoding.path(request.path), query: request.query,
                        headers: request.headers, payload: payload, signer: signer, host: "127.0.0.1:7480", date: date))
            }
            let theirs = try Self.run(python, script: script.path, input: JSONSerialization.data(withJSONObject: items))
            #expect(theirs.count == ours.count)
            for (index, (mine, botocore)) in zip(ours, theirs).enumerated() {
                #expect(mine == botocore, "request \(index): \(Self.comparedRequests[index].path)")
            }
        }
    }

    static func run(_ python: String, script: String, input: Data) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "botocore's signer failed (make setup installs it)")
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
