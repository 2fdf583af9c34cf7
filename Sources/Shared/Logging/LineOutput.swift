import Foundation
import Synchronization

/// A file descriptor that whole lines are written to, one writer at a time, unbuffered, so a
/// reader of a pipe sees each line as soon as it is logged.
public final class LineOutput: Sendable {
    public static let standardOutput = LineOutput(fileDescriptor: STDOUT_FILENO)

    private let fileDescriptor: Int32
    private let lock = Mutex(())

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    public func write(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            lock.withLock { _ in
                var offset = 0
                while offset < bytes.count {
                    let written = Foundation.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return
                    }
                    offset += written
                }
            }
        }
    }
}
