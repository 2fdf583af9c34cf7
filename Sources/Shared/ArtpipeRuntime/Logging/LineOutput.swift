import ArtpipeSupport
import Foundation
import Synchronization

/// A file descriptor that whole lines are written to, one writer at a time, unbuffered, so a
/// reader of a pipe sees each line as soon as it is logged.
package final class LineOutput: Sendable {
    package static let standardOutput = LineOutput(fileDescriptor: STDOUT_FILENO)

    private let fileDescriptor: Int32
    private let lock = Mutex(())

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    package func write(_ line: String) {
        var line = line
        line.withUTF8 { bytes in
            // A failed log write has nowhere to be reported; the line is dropped.
            _ = lock.withLock { _ in writeFully(fileDescriptor, UnsafeRawBufferPointer(bytes)) }
        }
    }
}
