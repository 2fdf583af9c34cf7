import ArtpipeSupport

extension IndexSummaries.Stored where Summary == ShardSummary {
    /// The stored summary as JSON, in `JSONEncoder`'s member order with `.sortedKeys`, read back
    /// by `JSONDecoder`. Written by hand, as the index's files are: a shard's summary names every
    /// artist of the shard and is written again whenever one changes (with the encoder, 8 % of the
    /// worker's CPU through five new pages at a million works).
    package var json: [UInt8] {
        var json = JSONText(reservingCapacity: 40 * summary.artists.count + 256)
        json.raw("{\"sequence\":")
        json.int(sequence)
        json.raw(",\"summary\":{\"artists\":[")
        for (number, artist) in summary.artists.enumerated() {
            json.raw(number == 0 ? "{\"name\":" : ",{\"name\":")
            json.string(artist.name)
            json.key("works")
            json.int(artist.works)
            json.byte(UInt8(ascii: "}"))
        }
        json.byte(UInt8(ascii: "]"))
        if let position = summary.position {
            json.key("position")
            json.verbatim(String(position))
        }
        if let published = summary.published {
            json.key("published")
            json.raw(published ? "true" : "false")
        }
        json.key("shard")
        json.int(summary.shard)
        json.key("thumbnails")
        json.counts(summary.thumbnails)
        json.raw("}}")
        return json.bytes
    }
}

extension IndexSummaries.Stored where Summary == ShardSummary {
    /// Reads what ``json`` writes, which is what `JSONEncoder` with `.sortedKeys` wrote before it;
    /// nil at anything else (the caller decodes it then). A copy reads every summary the others
    /// change: at 4 million works those a new page changes took `JSONDecoder` 70 ms, 5.5 ms so
    /// (`artpipe-probe assembly`).
    package init?(json bytes: [UInt8]) {
        var scanner = JSONScanner(bytes)
        guard scanner.skip("{\"sequence\":"), let sequence = scanner.int(),
            scanner.skip(",\"summary\":{\"artists\":[")
        else { return nil }
        var artists: [ShardSummary.Artist] = []
        if !scanner.skip(byte: UInt8(ascii: "]")) {
            repeat {
                guard scanner.skip("{\"name\":"), let name = scanner.string(), scanner.skip(",\"works\":"),
                    let works = scanner.int(), scanner.skip(byte: UInt8(ascii: "}"))
                else { return nil }
                artists.append(ShardSummary.Artist(name: name, works: works))
            } while scanner.skip(byte: UInt8(ascii: ","))
            guard scanner.skip(byte: UInt8(ascii: "]")) else { return nil }
        }
        var summary = ShardSummary(shard: 0, artists: artists, thumbnails: [:])
        if scanner.skip(",\"position\":") {
            guard let position = scanner.int() else { return nil }
            summary.position = Int64(position)
        }
        if scanner.skip(",\"published\":") {
            if scanner.skip("true") {
                summary.published = true
            } else if scanner.skip("false") {
                summary.published = false
            } else {
                return nil
            }
        }
        guard scanner.skip(",\"shard\":"), let shard = scanner.int(), scanner.skip(",\"thumbnails\":"),
            let thumbnails = scanner.counts(), scanner.skip("}}"), scanner.isAtEnd
        else { return nil }
        (summary.shard, summary.thumbnails) = (shard, thumbnails)
        self.init(sequence: sequence, summary: summary)
    }
}
