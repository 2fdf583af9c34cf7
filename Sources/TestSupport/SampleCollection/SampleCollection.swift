import Foundation

/// The sample museum collection: every object, which page lists it, and what its image URL
/// serves, all derived from a seed. It is the ground truth a full crawl is checked against.
///
/// It has the real legacy API's quirks: works of one artist span pages, some objects are
/// listed on two neighbouring pages, some have no image, makers are empty, `anonymous` or
/// non-Latin, and a few images are broken.
package struct SampleCollection: Sendable {
    package struct Configuration: Sendable, Equatable {
        package var seed: UInt64 = 1
        package var pages: Int = 30
        package var pageSize: Int = 100
        /// Share of works without an image.
        package var noImageRate: Double = 0.08
        /// Share of images that are deliberately broken (truncated or not an image).
        package var brokenImageRate: Double = 0.02

        package init() {}
    }

    package let configuration: Configuration
    /// Each page's listing, page 1 first, in the API's `s=artist` order.
    package let pages: [[SampleWork]]
    /// Every distinct object, by id.
    package let works: [SampleWork]

    /// The `count` the API reports: listings, duplicates included.
    package var count: Int { pages.reduce(0) { $0 + $1.count } }

    /// Pages whose first entry repeats the previous page's last, as the real API sometimes does.
    static func repeatsPreviousWork(page: Int) -> Bool { page >= 2 && page % 5 == 2 }

    package init(_ configuration: Configuration) {
        self.configuration = configuration
        var random = SampleRandom(seed: configuration.seed)
        let repeats = (1...max(configuration.pages, 1)).filter(Self.repeatsPreviousWork).count
        let distinct = max(configuration.pages * configuration.pageSize - repeats, 0)
        let makers = Self.makers(count: max(distinct / 8, 8), random: &random)

        var drafts: [(objectNumber: String, title: String, maker: String, image: SampleWork.Image?)] = []
        var usedNumbers = Set<String>()
        for index in 0..<distinct {
            var objectNumber = SampleNames.objectNumber(
                random.pick(SampleNames.objectPrefixes) + String(random.int(in: 1...99_999)), index: index)
            while usedNumbers.contains(objectNumber) { objectNumber += "-\(index)" }
            usedNumbers.insert(objectNumber)
            let title = random.pick(SampleNames.subjects) + random.pick(SampleNames.qualifiers)
            let maker = random.pick(makers)
            var image: SampleWork.Image?
            if !random.chance(configuration.noImageRate) {
                let (width, height) = random.pick(Self.imageSizes)
                image = .jpeg(width: width, height: height)
                if random.chance(configuration.brokenImageRate) {
                    image = index % 2 == 0 ? .truncated(width: width, height: height) : .notAnImage
                }
            }
            drafts.append((objectNumber, title, maker, image))
        }
        // The API's artist order: by maker, case-insensitively; ties in no particular order.
        drafts.sort { a, b in
            let (keyA, keyB) = (Self.sortKey(a.maker), Self.sortKey(b.maker))
            return keyA != keyB ? keyA < keyB : a.objectNumber < b.objectNumber
        }
        let works = drafts.enumerated().map { id, draft in
            SampleWork(
                id: id, objectNumber: draft.objectNumber, title: draft.title, maker: draft.maker, image: draft.image)
        }
        var pages: [[SampleWork]] = []
        var next = 0
        for page in 1...max(configuration.pages, 1) where configuration.pages > 0 {
            var listing: [SampleWork] = []
            if Self.repeatsPreviousWork(page: page), let previous = pages.last?.last {
                listing.append(previous)
            }
            while listing.count < configuration.pageSize, next < works.count {
                listing.append(works[next])
                next += 1
            }
            pages.append(listing)
        }
        self.pages = pages
        self.works = works
    }

    /// The sizes images come in, 1,000 to 4,000 pixels, landscape, portrait and square: few
    /// enough that the server makes each JPEG once.
    static let imageSizes = [
        (1_000, 750), (1_200, 1_600), (1_500, 1_500), (1_800, 1_200), (2_048, 1_365), (2_400, 3_000), (2_500, 1_700),
        (3_000, 2_000), (3_000, 4_000), (3_500, 2_400), (4_000, 2_667), (4_000, 3_000), (2_000, 4_000), (1_024, 1_024),
        (1_600, 1_000), (3_200, 3_200),
    ]

    package func work(id: Int) -> SampleWork? {
        works.indices.contains(id) ? works[id] : nil
    }

    static func sortKey(_ maker: String) -> String {
        maker.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    private static func makers(count: Int, random: inout SampleRandom) -> [String] {
        var makers = SampleNames.fixedMakers + ["", "anonymous"]
        var seen = Set(makers)
        var attempts = 0
        while makers.count < count, attempts < count * 20 {
            attempts += 1
            let name = random.pick(SampleNames.givenNames) + " " + random.pick(SampleNames.familyNames)
            if seen.insert(name).inserted { makers.append(name) }
        }
        return makers
    }
}
