import Foundation
import PipelineContract

/// What the index is made from: the latest `Page` and `PageThumbnails` of each page id (the
/// thumbnails as ``IndexedThumbnails``, what the index uses of them), and
/// the page requests that went to the dead letters. Adding a message twice, or out of
/// order with another page's, changes nothing: the index is a function of this state only.
package struct IndexInputs: Sendable, Equatable {
    package private(set) var pages: [String: Page] = [:]
    package private(set) var thumbnails: [String: IndexedThumbnails] = [:]
    package private(set) var failedPages: [String: FailedPage] = [:]
    /// When each input was produced (the Kafka message's timestamp, milliseconds since the
    /// epoch), so that a page id found in two shards resolves to the newest input.
    package private(set) var producedAt = ProducedTimes()

    /// A page request FetchWorker gave up on.
    package struct FailedPage: Sendable, Codable, Equatable {
        let request: PageRequest
        package let reason: String
    }

    /// Production times by page id, one map per kind of input.
    package struct ProducedTimes: Sendable, Codable, Equatable {
        var pages: [String: Int64] = [:]
        package var thumbnails: [String: Int64] = [:]
        package var failedPages: [String: Int64] = [:]
    }

    package init() {}

    /// Within one partition the later message is the newer input, so adding replaces.
    package mutating func add(_ page: Page, producedAt time: Int64? = nil) {
        pages[page.pageId] = page.canonicalized()
        producedAt.pages[page.pageId] = time
    }

    package mutating func add(_ pageThumbnails: PageThumbnails, producedAt time: Int64? = nil) {
        thumbnails[pageThumbnails.pageId] = IndexedThumbnails(pageThumbnails)
        producedAt.thumbnails[pageThumbnails.pageId] = time
    }

    package mutating func addFailure(_ request: PageRequest, reason: String, producedAt time: Int64? = nil) {
        failedPages[request.pageId] = FailedPage(request: request, reason: reason)
        producedAt.failedPages[request.pageId] = time
    }

    /// Adds another shard's inputs. A page id in both (its key moved to another partition when
    /// the topic got more partitions) keeps the input produced last; equal or unknown times keep
    /// the one whose encoding sorts last, so the result never depends on the order of merging.
    mutating func merge(_ other: IndexInputs) {
        // Into nothing, a merge is a copy: the first shard of a build costs no inserts.
        if self == IndexInputs() {
            self = other
            return
        }
        Self.merge(&pages, &producedAt.pages, other.pages, other.producedAt.pages)
        Self.merge(&thumbnails, &producedAt.thumbnails, other.thumbnails, other.producedAt.thumbnails)
        Self.merge(&failedPages, &producedAt.failedPages, other.failedPages, other.producedAt.failedPages)
    }

    private static func merge<Value: Encodable & Equatable>(
        _ values: inout [String: Value], _ times: inout [String: Int64], _ others: [String: Value],
        _ otherTimes: [String: Int64]
    ) {
        for (pageId, other) in others { offer(pageId, other, otherTimes[pageId], to: &values, &times) }
    }

    /// One shard's input for a page id, kept if it wins over the one held (see ``merge(_:)``).
    private static func offer<Value: Encodable & Equatable>(
        _ pageId: String, _ other: Value, _ otherTime: Int64?, to values: inout [String: Value],
        _ times: inout [String: Int64]
    ) {
        if let current = values[pageId] {
            let (time, otherTime) = (times[pageId] ?? .min, otherTime ?? .min)
            guard otherTime > time || (otherTime == time && current != other && sortsAfter(other, current)) else {
                return
            }
        }
        values[pageId] = other
        times[pageId] = otherTime
    }

    /// Every page id with an input of any kind.
    var pageIds: Set<String> {
        Set(pages.keys).union(thumbnails.keys).union(failedPages.keys)
    }

    /// The inputs of the page ids `keep` accepts.
    func filter(_ keep: (String) -> Bool) -> IndexInputs {
        var kept = IndexInputs()
        kept.pages = pages.filter { keep($0.key) }
        kept.thumbnails = thumbnails.filter { keep($0.key) }
        kept.failedPages = failedPages.filter { keep($0.key) }
        kept.producedAt.pages = producedAt.pages.filter { keep($0.key) }
        kept.producedAt.thumbnails = producedAt.thumbnails.filter { keep($0.key) }
        kept.producedAt.failedPages = producedAt.failedPages.filter { keep($0.key) }
        return kept
    }

    /// Sets one page id's inputs to what merging `shards` gives it, whatever they held before:
    /// how a merge is kept current when only some shards changed.
    mutating func resolve(_ pageId: String, from shards: some Sequence<IndexInputs>) {
        pages[pageId] = nil
        thumbnails[pageId] = nil
        failedPages[pageId] = nil
        producedAt.pages[pageId] = nil
        producedAt.thumbnails[pageId] = nil
        producedAt.failedPages[pageId] = nil
        for shard in shards {
            if let page = shard.pages[pageId] {
                Self.offer(pageId, page, shard.producedAt.pages[pageId], to: &pages, &producedAt.pages)
            }
            if let thumbnails = shard.thumbnails[pageId] {
                Self.offer(
                    pageId, thumbnails, shard.producedAt.thumbnails[pageId], to: &self.thumbnails,
                    &producedAt.thumbnails)
            }
            if let failure = shard.failedPages[pageId] {
                Self.offer(
                    pageId, failure, shard.producedAt.failedPages[pageId], to: &failedPages, &producedAt.failedPages)
            }
        }
    }

    private static func sortsAfter(_ value: some Encodable, _ other: some Encodable) -> Bool {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let (bytes, otherBytes) = ((try? encoder.encode(value)) ?? Data(), (try? encoder.encode(other)) ?? Data())
        return otherBytes.lexicographicallyPrecedes(bytes)
    }
}
