import Testing

@testable import IndexWorker

@Suite("A file's content known by digest or by its bytes compares the same")
struct FileContentTests {
    @Test("bytes kept and digests agree with each other and with absence, whichever way round")
    func keptAndDigested() {
        let (page, other) = (Array("<li>Aa</li>\n".utf8), Array("<li>Ab</li>\n".utf8))
        #expect(FileContent(keeping: page) == FileContent(page))
        #expect(FileContent(page) == FileContent(keeping: page))
        #expect(FileContent(keeping: page) == FileContent(keeping: Array(page)))
        #expect(FileContent(keeping: page) != FileContent(other))
        #expect(FileContent(keeping: page) != FileContent(keeping: other))
        #expect(FileContent(keeping: nil) == FileContent(nil))
        #expect(FileContent(keeping: []) != FileContent(keeping: nil))
        #expect(FileContent([]) != FileContent(keeping: nil))
    }
}
