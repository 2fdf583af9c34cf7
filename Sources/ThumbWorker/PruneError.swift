/// A file `prune --execute` could not remove or put back.
package struct PruneError: Error, CustomStringConvertible {
    package let path: String
    package let reason: String

    package var description: String { "prune: \(path): \(reason)" }
}
