import ArtpipeSupport
import Foundation

/// The Python with the tests' packages (oai-repo, botocore, moto): `ARTPIPE_TEST_PYTHON`, else
/// the checkout's `.build-python` (`make setup` makes it), else `python3` on the PATH.
package enum TestPython {
    package static var path: String {
        let environment = ProcessInfo.processInfo.environment["ARTPIPE_TEST_PYTHON"]
        let checkout = ChildProcess.packageRoot()?.appendingPathComponent(".build-python/bin/python3").path
        return [environment, checkout].compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "python3"
    }
}
