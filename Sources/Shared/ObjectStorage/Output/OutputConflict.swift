import ArtpipeSupport

/// A conditional write refused: the path no longer holds what the writer last saw there, so
/// another writer replaced it. For the moment: the writer reads the output anew, and writes again
/// only what it still owns.
package struct OutputConflict: ClassifiedError, Sendable, Equatable {
    package let path: String
    package let expected: OutputCondition

    package init(path: String, expected: OutputCondition) {
        (self.path, self.expected) = (path, expected)
    }

    package var failureClass: FailureClass { .forNow }

    package var description: String {
        switch expected {
        case .absent: "not written: \(path) was written by another writer meanwhile"
        case .version(let version):
            "not written: \(path) no longer holds the version this copy last saw (\(version)); another writer replaced it"
        }
    }
}
