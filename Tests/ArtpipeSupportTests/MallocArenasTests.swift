import ArtpipeSupport
import Foundation
import Testing

@Suite("malloc's arenas")
struct MallocArenasTests {
    @Test("an operator's MALLOC_ARENA_MAX stands; without it the limit is set")
    func limit() {
        #expect(!MallocArenas.limit(to: 2, environment: [MallocArenas.environmentVariable: "8"]))
        // glibc's own default (eight a core): the test process keeps the arenas it would have had.
        #expect(MallocArenas.limit(to: 8 * ProcessInfo.processInfo.activeProcessorCount, environment: [:]))
    }
}
