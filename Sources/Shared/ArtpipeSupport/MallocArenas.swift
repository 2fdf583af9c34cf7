#if canImport(Glibc)
    import Glibc
#endif

/// How many arenas glibc's malloc may keep. It gives threads that allocate at once arenas of
/// their own, up to eight a core, and a block freed in one arena serves only that arena: a
/// process whose many threads (librdkafka's, the pools', the cooperative pool's) allocate and
/// free by turns keeps far more resident than it uses. Fewer arenas trade a little lock
/// contention for that memory (docs/operations.md, "Memory", has the index worker's figures).
package enum MallocArenas {
    /// The variable that sets the limit for a whole process, before it starts: when it is set,
    /// the operator's value stands.
    package static let environmentVariable = "MALLOC_ARENA_MAX"

    /// Limits this process to `count` arenas from now on (arenas made before stay) unless
    /// ``environmentVariable`` is set. Returns whether the limit was set here.
    @discardableResult
    package static func limit(to count: Int, environment: [String: String]) -> Bool {
        guard environment[environmentVariable] == nil else { return false }
        #if canImport(Glibc)
            // Swift's Glibc module leaves out <malloc.h>: the function is looked up, and its
            // parameter is glibc's M_ARENA_MAX (a fixed part of its interface).
            typealias SetOption = @convention(c) (Int32, Int32) -> Int32
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
            return unsafeBitCast(symbol, to: SetOption.self)(arenaMaxOption, Int32(max(1, count))) == 1
        #else
            return false
        #endif
    }

    /// `M_ARENA_MAX` in glibc's <malloc.h>.
    private static let arenaMaxOption: Int32 = -8
}
