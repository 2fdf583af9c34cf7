import Testing

@testable import IndexWorker

@Suite("A published file's content, known by digest or by its bytes as its path says")
struct FileContentTests {
    @Test("a bucket file by digest, a shared file by its bytes: equal bytes are equal, others not, absence apart")
    func byPath() {
        let (page, other) = (Array("<li>Aa</li>\n".utf8), Array("<li>Ab</li>\n".utf8))
        for path in ["works/0af.jsonl", "gallery/0af.html", "gallery/letter-a-2.html", "index.json"] {
            #expect(FileContent(page, at: path) == FileContent(Array(page), at: path), "\(path)")
            #expect(FileContent(page, at: path) != FileContent(other, at: path), "\(path)")
            #expect(FileContent(nil, at: path) == FileContent(nil, at: path), "\(path)")
            #expect(FileContent([], at: path) != FileContent(nil, at: path), "\(path)")
        }
    }
}
