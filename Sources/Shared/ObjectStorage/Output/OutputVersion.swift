/// What identifies one write of an object: a file's device, inode, size and modification
/// time, or an object's ETag. Equal versions mean the same bytes are there.
package struct OutputVersion: Hashable, Sendable, CustomStringConvertible {
    package let token: String

    package init(_ token: String) {
        self.token = token
    }

    package var description: String { token }
}
