import ArtpipeSupport

/// The service answered, in its own format, that it cannot serve the request for the moment
/// (Flickr's `stat: fail` with a code other than a bad key or method): tried again later,
/// like a 503.
package struct SourceUnavailableError: ClassifiedError {
    package let description: String
    package var failureClass: FailureClass { .forNow }

    package init(_ description: String) {
        self.description = description
    }
}
