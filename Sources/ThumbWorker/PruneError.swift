/// A file `prune --execute` could not remove or put back.
package struct PruneError: Error, CustomStringConvertible {
    package let path: String
    let reason: String

    package var description: String { "prune: \(path): \(reason)" }
}
