import Foundation

/// Writes every byte to `descriptor`, retrying short writes and interrupted calls.
/// Returns 0, or the `errno` of the write that failed.
package func writeFully(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
        let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return errno
        }
        offset += written
    }
    return 0
}
