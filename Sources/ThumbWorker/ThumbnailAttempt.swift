import PipelineContract

/// What one try at an artwork's thumbnails came to.
enum ThumbnailAttempt: Sendable {
    /// Done, made or failed for good: trying again would change nothing.
    case settled(PageThumbnails.Item)
    /// A `failed` item whose image host may answer later, not before `retryAfter` when it said so.
    case failedForNow(PageThumbnails.Item, retryAfter: Duration?)

    var item: PageThumbnails.Item {
        switch self {
        case .settled(let item), .failedForNow(let item, _): item
        }
    }

    var failedForNow: (item: PageThumbnails.Item, retryAfter: Duration?)? {
        if case .failedForNow(let item, let retryAfter) = self { return (item, retryAfter) }
        return nil
    }
}
