import Crypto
import PipelineContract
import Testing

@Suite("Page ids and the pipeline's names")
struct PageIDTests {
    @Test("SHA-256 digests are lower-case hex (FIPS 180-4 test vectors)")
    func digestVectors() {
        #expect(
            SHA256.hexDigest(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hexDigest(of: [UInt8]())
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hexDigest(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000)).hasPrefix("41edece42d63e8d9"))
    }

    @Test("a query's page ids do not depend on parameter order, and stay what they were")
    func stablePageIDs() {
        let id = PageID.make(source: "rijksmuseum", query: ["s": "artist", "q": "x"], page: 3)
        #expect(id == PageID.make(source: "rijksmuseum", query: ["q": "x", "s": "artist"], page: 3))
        // SHA-256 of "q=x&s=artist", first 16 hex digits: ids published before keep matching.
        #expect(id == "rijksmuseum:91cfa3cee44cc55c:3")
        #expect(id != PageID.make(source: "rijksmuseum", query: ["q": "x"], page: 3))
    }

    @Test("every stage's group and topics come from one place")
    func stages() {
        #expect(PipelineStage.groupIDs == ["artpipe-fetch", "artpipe-thumb", "artpipe-index"])
        #expect(PipelineStage(groupID: "artpipe-thumb") == .thumb)
        #expect(PipelineStage(groupID: "someone-else") == nil)
        #expect(PipelineStage.index.inputTopics.contains(ArtpipeTopic.deadLetters))
        #expect(PipelineStage.fetch.workerName == "fetch")
    }
}
