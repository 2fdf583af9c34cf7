/// A repository's complete list of identifiers for a scope (`ListIdentifiers` followed to its
/// last token): what a reconciliation compares the records the pipeline holds with.
package struct OAIIdentifierListing: Sendable, Equatable {
    /// Records the repository lists as present.
    package var present: Set<String> = []
    /// Records it lists as deleted (a repository that keeps some deletions).
    package var deleted: Set<String> = []
    /// The server's clock when the listing began: a removal is stamped with it, so it is newer
    /// than any version the repository had stamped before.
    package var responseDate: String
}
