import ArtpipeSupport

extension IndexSummaries.Stored where Summary == ShardSummary {
    /// The stored summary as JSON, in `JSONEncoder`'s member order with `.sortedKeys`, read back
    /// by `JSONDecoder`. Written by hand, as the index's files are: a shard's summary names every
    /// artist of the shard and is written again whenever one changes (with the encoder, 8 % of the
    /// worker's CPU through five new pages at a million works).
    var json: [UInt8] {
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
