import ArtpipeSupport
import Foundation

/// `works/<bucket>.jsonl`: one JSON object per work, its artist's name included, so a tool can
/// stream every work without loading the index.
package enum WorkLines {
    /// One line, decoded.
    package struct Line: Codable, Sendable, Equatable {
        var artist: String
        var work: ArtistIndex.Work

        package init(artist: String, work: ArtistIndex.Work) {
            self.artist = artist
            self.work = work
        }

        private enum CodingKeys: String, CodingKey { case artist }

        package init(from decoder: any Decoder) throws {
            artist = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .artist)
            work = try ArtistIndex.Work(from: decoder)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(artist, forKey: .artist)
            try work.encode(to: encoder)
        }
    }

    /// Decodes a bucket file. Throws on a line that is not a work, naming it.
    static func parse(_ bytes: some Collection<UInt8>, file: String) throws -> [Line] {
        let decoder = JSONDecoder()
        var lines: [Line] = []
        for (number, line) in bytes.split(separator: UInt8(ascii: "\n")).enumerated() {
            do {
                lines.append(try decoder.decode(Line.self, from: Data(line)))
            } catch {
                throw PublishedIndex.ReadError(description: "\(file) line \(number + 1) is not a work: \(error)")
            }
        }
        return lines
    }

    static func render(_ slices: [IndexLayout.Slice], of index: IndexContent) -> [UInt8] {
        var json = JSONText(reservingCapacity: 320 * slices.map(\.works.count).reduce(0, +))
        for slice in slices {
            let artist = index.artists[slice.artist]
            for work in index.works(of: slice.artist, slice.works) {
                json.raw("{\"artist\":")
                json.string(artist.name)
                render(work, into: &json)
                json.raw("}\n")
            }
        }
        return json.bytes
    }

    private static func render(_ work: ArtistIndex.Work, into json: inout JSONText) {
        json.key("objectNumber")
        json.string(work.objectNumber)
        json.key("title")
        json.string(work.title)
        json.key("pageId")
        json.string(work.pageId)
        json.key("page")
        json.int(work.page)
        if let imageURL = work.imageURL {
            json.key("imageURL")
            json.string(imageURL)
        }
        json.key("thumbnailStatus")
        json.string(work.thumbnailStatus)
        if let reason = work.thumbnailReason {
            json.key("thumbnailReason")
            json.string(reason)
        }
        json.key("thumbnails")
        render(work.thumbnails, into: &json)
        if let recordId = work.recordId {
            json.key("recordId")
            json.string(recordId)
        }
        if let datestamp = work.datestamp {
            json.key("datestamp")
            json.string(datestamp)
        }
        render("date", work.date, into: &json)
        if let years = work.years {
            json.key("years")
            json.raw("{\"earliest\":")
            json.int(years.earliest)
            json.raw(",\"latest\":")
            json.int(years.latest)
            json.byte(UInt8(ascii: "}"))
        }
        render("landingPage", work.landingPage, into: &json)
        render("rights", work.rights, into: &json)
        render("iiifManifest", work.iiifManifest, into: &json)
        render("iiifImageService", work.iiifImageService, into: &json)
        render("colour", work.colour, into: &json)
        if let webp = work.webpThumbnails {
            json.key("webpThumbnails")
            render(webp, into: &json)
        }
    }

    /// Paths by size, as a JSON object in the order of the sizes' numbers.
    private static func render(_ paths: [String: String], into json: inout JSONText) {
        json.byte(UInt8(ascii: "{"))
        let sizes = paths.keys.sorted { (Int($0) ?? .max, $0) < (Int($1) ?? .max, $1) }
        for (number, size) in sizes.enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            json.string(size)
            json.byte(UInt8(ascii: ":"))
            json.string(paths[size] ?? "")
        }
        json.byte(UInt8(ascii: "}"))
    }

    /// `"key":"value"` after a comma, when there is a value.
    private static func render(_ key: StaticString, _ value: String?, into json: inout JSONText) {
        guard let value else { return }
        json.key(key)
        json.string(value)
    }
}
