import Foundation
import IndexWorker
import SampleCollection

/// What the index must hold for a sample collection: checked field by field so a failure says
/// which work is wrong.
enum GroundTruth {
    struct Mismatch: CustomStringConvertible {
        let description: String
    }

    /// Every work of the collection except those only listed on `failedPages`, grouped under
    /// its maker, with the thumbnail status its image calls for and files on disk for `ok`.
    ///
    /// - Parameters:
    ///   - leftOut: object numbers the source cannot read, so never indexed.
    ///   - unknownMaker: what the source calls an empty maker, when it names it.
    static func mismatches(
        _ index: ArtistIndex, collection: SampleCollection, output: URL, failedPages: Set<Int> = [],
        leftOut: Set<String> = [], unknownMaker: String? = nil
    ) -> [Mismatch] {
        var expected: [SampleWork] = []
        for (number, listing) in collection.pages.enumerated() where !failedPages.contains(number + 1) {
            expected += listing.filter { !leftOut.contains($0.objectNumber) }
        }
        return mismatches(index, expected: expected, output: output, unknownMaker: unknownMaker)
    }

    /// Exactly the `expected` works, each grouped under its maker, with the thumbnail status its
    /// image calls for and files on disk for `ok`.
    ///   - objectNumber: the object number the source gives a work (Flickr's and iTunes' are their ids).
    static func mismatches(
        _ index: ArtistIndex, expected works: [SampleWork], output: URL, unknownMaker: String? = nil,
        objectNumber: (SampleWork) -> String = \.objectNumber
    ) -> [Mismatch] {
        var problems: [Mismatch] = []
        let expected = Dictionary(works.map { (objectNumber($0), $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        for artist in index.artists {
            for work in artist.works {
                guard seen.insert(work.objectNumber).inserted else {
                    problems.append(Mismatch(description: "\(work.objectNumber) listed twice"))
                    continue
                }
                guard let truth = expected[work.objectNumber] else {
                    problems.append(Mismatch(description: "\(work.objectNumber) is not in the collection"))
                    continue
                }
                let maker = truth.maker.trimmingCharacters(in: .whitespacesAndNewlines)
                if artist.name != (maker.isEmpty ? unknownMaker ?? "" : maker) {
                    problems.append(
                        Mismatch(description: "\(work.objectNumber) under '\(artist.name)', not '\(truth.maker)'"))
                }
                if work.title != truth.title {
                    problems.append(Mismatch(description: "\(work.objectNumber) titled '\(work.title)'"))
                }
                // Harvested over OAI-PMH (a record id), the record's date and page come through.
                if work.recordId != nil, work.date != truth.date || work.landingPage != truth.landingPage {
                    problems.append(
                        Mismatch(
                            description:
                                "\(work.objectNumber) dated '\(work.date ?? "none")' at \(work.landingPage ?? "no page")"
                        ))
                }
                switch truth.image {
                case nil:
                    if work.thumbnailStatus != "noImage" {
                        problems.append(
                            Mismatch(description: "\(work.objectNumber) has no image but is \(work.thumbnailStatus)"))
                    }
                case .jpeg?:
                    let files = work.thumbnails.values.map { output.appendingPathComponent($0).path }
                    if work.thumbnailStatus != "ok" || files.isEmpty
                        || !files.allSatisfy({ FileManager.default.fileExists(atPath: $0) })
                    {
                        problems.append(
                            Mismatch(
                                description:
                                    "\(work.objectNumber) should have thumbnails: \(work.thumbnailStatus) \(work.thumbnailReason ?? "") \(files)"
                            ))
                    }
                case .truncated?, .notAnImage?:
                    if work.thumbnailStatus != "failed" || (work.thumbnailReason ?? "").isEmpty {
                        problems.append(
                            Mismatch(
                                description: "\(work.objectNumber) has a broken image but is \(work.thumbnailStatus)"))
                    }
                }
            }
        }
        for missing in Set(expected.keys).subtracting(seen).sorted() {
            problems.append(Mismatch(description: "\(missing) is missing from the index"))
        }
        return problems
    }
}
