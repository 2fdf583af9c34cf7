import ArtpipeSupport
import FuzzTestKit
import Testing

@testable import ObjectStorage

/// An object store's listing and delete answers, made hostile by ``InputMutator`` from the
/// shapes S3 and Ceph's gateway send: refused with an error or read, never a crash.
@Suite("Hostile object store answers are refused, never a crash", .timeLimit(.minutes(2)))
struct S3ListingFuzzTests {
    static let listing = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>site</Name><Prefix>thumbs/</Prefix>\
        <KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated>\
        <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>\
        <Contents><Key>thumbs/200/SK-A-1.3f2a.jpg</Key><LastModified>2026-12-04T10:00:00.000Z</LastModified>\
        <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>10240</Size><StorageClass>STANDARD</StorageClass></Contents>\
        <Contents><Key> spaced key é </Key><LastModified>2026-12-04T10:00:01.000Z</LastModified>\
        <ETag>&quot;x&quot;</ETag><Size>0</Size></Contents></ListBucketResult>
        """
    static let deleted = """
        <?xml version="1.0" encoding="UTF-8"?>
        <DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Deleted><Key>a</Key></Deleted>\
        <Error><Key>b</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>
        """

    @Test("an object without a size, or with one that is no number of bytes, makes the listing malformed")
    func sizes() {
        for size in ["", "<Size>many</Size>", "<Size>-1</Size>", "<Size>\(S3ListResult.maxObjectBytes + 1)</Size>"] {
            let body = "<ListBucketResult><Contents><Key>k</Key>\(size)</Contents></ListBucketResult>"
            #expect(throws: ObjectStoreError.self, "\(size)") {
                try S3ListResult.parse(Array(body.utf8), request: "LIST")
            }
        }
        let sizes = Array(repeating: S3ListResult.maxObjectBytes, count: 1 << 18)
        #expect(sizes.saturatingSum() == Int.max, "a listing's total never runs past Int")
    }

    @Test("listings and delete answers: every hostile variant refused or read; the seeds read")
    func listingsAndDeletes() throws {
        #expect(try S3ListResult.parse(Array(Self.listing.utf8), request: "LIST").objects.count == 2)
        let mutator = InputMutator(seeds: [Array(Self.listing.utf8), Array(Self.deleted.utf8)])
        let report = try FuzzCampaign(target: "s3-listing", count: 600).run(mutator) { body in
            let listed = try? S3ListResult.parse(body, request: "LIST")
            let failures = try? S3ListResult.deleteFailures(body, request: "DELETE")
            return listed != nil || failures != nil
        }
        #expect(report.refused > 0 && report.refused < report.inputs, "\(report)")
    }
}
