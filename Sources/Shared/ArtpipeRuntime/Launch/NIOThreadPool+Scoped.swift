import NIOPosix

extension NIOThreadPool {
    /// Runs `body` with a started pool of `threads` threads, then shuts the pool down
    /// gracefully (queued work finishes, threads end), whether `body` threw or not.
    ///
    /// Each process makes one such pool for all its blocking work (libvips, file writes and
    /// fsync, name look-ups, Kafka's one-shot calls) and hands it to what needs it.
    package static func withPool<T: Sendable>(
        threads: Int, _ body: (NIOThreadPool) async throws -> T
    ) async throws -> T {
        let pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
        let result: Result<T, any Error>
        do {
            result = .success(try await body(pool))
        } catch {
            result = .failure(error)
        }
        try? await pool.shutdownGracefully()
        return try result.get()
    }
}
