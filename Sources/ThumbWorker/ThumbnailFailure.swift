import ArtpipeSupport

/// Why an image gave no thumbnail; `description` is the short reason put in `PageThumbnails`.
package enum ThumbnailFailure: ClassifiedError, Equatable {
    case empty
    case notAnImage
    case formatNotAllowed(String)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case undecodable(String)

    /// The same bytes fail the same way.
    package var failureClass: FailureClass { .forGood }

    package var description: String {
        switch self {
        case .empty: "empty body"
        case .notAnImage: "not an image"
        case .formatNotAllowed(let format): "format \(format) is not allowed"
        case .tooManyPixels(let width, let height, let limit):
            "too large: \(width)x\(height) pixels (limit \(limit / 1_000_000) megapixels)"
        case .undecodable(let detail): "undecodable: \(detail)"
        }
    }
}
