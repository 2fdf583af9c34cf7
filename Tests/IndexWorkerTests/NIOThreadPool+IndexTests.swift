import NIOPosix

extension NIOThreadPool {
    /// The index tests' blocking threads, apart from the process's shared pool: every suite
    /// runs in one test process, and other suites' libvips calls fill that one.
    static let indexTests: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()
}
