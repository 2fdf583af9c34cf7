import PipelineContract

/// One page's thumbnails as the index keeps them: each item's object number, status, reason and colour,
/// and its files' sizes and paths, which is all the published works show. The files' dimensions,
/// byte counts and digests stay in `artpipe.thumbnails`.
///
/// Held in a few flat arrays, the paths in one buffer: at a million works an item as a
/// `PageThumbnails.Item` (its own array of files, a string per path and digest) costs several
/// times what the index needs of it.
package struct IndexedThumbnails: Sendable, Equatable {
    let pageId: String
    private var objectNumbers: [String] = []
    private var statuses: [PageThumbnails.Item.Status] = []
    /// Only items that have one.
    private var reasons: [Int: String] = [:]
    /// Only items that have one.
    private var colours: [Int: String] = [:]
    /// Where each item's files end in `sizes` and `pathEnds`.
    private var fileEnds: [Int32] = []
    private var sizes: [Int] = []
    /// Where each file's path ends in `pathBytes`.
    private var pathEnds: [Int32] = []
    private var pathBytes: [UInt8] = []

    /// An item as state files hold it: the form of `PageThumbnails.Item`, less what the index
    /// does not keep, so state written before reads as it is.
    private struct StoredItem: Codable {
        var objectNumber: String
        var status: PageThumbnails.Item.Status
        var reason: String?
        var files: [StoredFile]
        var colour: String?
    }

    private struct StoredFile: Codable {
        var size: Int
        var path: String
    }

    package init(_ thumbnails: PageThumbnails) {
        self.init(
            pageId: thumbnails.pageId,
            items: thumbnails.items.map { item in
                StoredItem(
                    objectNumber: item.objectNumber, status: item.status, reason: item.reason,
                    files: item.files.map { StoredFile(size: $0.size, path: $0.path) }, colour: item.colour)
            })
    }

    private init(pageId: String, items: [StoredItem]) {
        self.pageId = pageId
        let files = items.map(\.files.count).reduce(0, +)
        objectNumbers.reserveCapacity(items.count)
        statuses.reserveCapacity(items.count)
        fileEnds.reserveCapacity(items.count)
        sizes.reserveCapacity(files)
        pathEnds.reserveCapacity(files)
        pathBytes.reserveCapacity(items.map { $0.files.map(\.path.utf8.count).reduce(0, +) }.reduce(0, +))
        for item in items {
            if let reason = item.reason { reasons[objectNumbers.count] = reason }
            if let colour = item.colour { colours[objectNumbers.count] = colour }
            objectNumbers.append(CanonicalText.of(item.objectNumber))
            statuses.append(item.status)
            for file in item.files {
                sizes.append(file.size)
                pathBytes.append(contentsOf: file.path.utf8)
                pathEnds.append(Int32(pathBytes.count))
            }
            fileEnds.append(Int32(sizes.count))
        }
    }

    /// How many items the page's thumbnails list.
    var count: Int { objectNumbers.count }

    package func objectNumber(_ item: Int) -> String { objectNumbers[item] }

    func status(_ item: Int) -> PageThumbnails.Item.Status { statuses[item] }

    package func reason(_ item: Int) -> String? { reasons[item] }

    func colour(_ item: Int) -> String? { colours[item] }

    /// The item's files, as listed.
    package func files(_ item: Int) -> [(size: Int, path: String)] {
        let first = item == 0 ? 0 : Int(fileEnds[item - 1])
        return (first..<Int(fileEnds[item])).map { file in
            let start = file == 0 ? 0 : Int(pathEnds[file - 1])
            return (sizes[file], String(decoding: pathBytes[start..<Int(pathEnds[file])], as: UTF8.self))
        }
    }

    /// Where each object number's item is: the first, if one is listed twice.
    func positions() -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(count)
        for (position, objectNumber) in objectNumbers.enumerated() where positions[objectNumber] == nil {
            positions[objectNumber] = position
        }
        return positions
    }
}

extension IndexedThumbnails: Codable {
    private enum CodingKeys: String, CodingKey { case pageId, items }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            pageId: try container.decode(String.self, forKey: .pageId),
            items: try container.decode([StoredItem].self, forKey: .items))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pageId, forKey: .pageId)
        let items = (0..<count).map { item in
            StoredItem(
                objectNumber: objectNumbers[item], status: statuses[item], reason: reasons[item],
                files: files(item).map { StoredFile(size: $0.size, path: $0.path) }, colour: colours[item])
        }
        try container.encode(items, forKey: .items)
    }
}
