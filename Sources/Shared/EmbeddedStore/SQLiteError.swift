import ArtpipeSupport

/// What SQLite said when a call failed: its result code and message, and the statement.
package struct SQLiteError: ClassifiedError, Equatable {
    package var code: Int32
    package var message: String
    package var statement: String?

    /// For the moment: the store is the copy's own scratch state (a full disk, an I/O error
    /// pass; the state is rebuilt from Kafka in any case), so nothing is dropped on its word.
    package var failureClass: FailureClass { .forNow }

    package var description: String {
        "SQLite error \(code): \(message)" + (statement.map { " (in \($0))" } ?? "")
    }
}
