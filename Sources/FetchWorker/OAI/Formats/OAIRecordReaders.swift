import ArtpipeSupport

/// Reads a record's metadata by what it is, not by what was asked for: the root element's
/// namespace says the format (a repository that answers `oai_dc` to a LIDO harvest is read
/// as what it sent).
struct OAIRecordReaders: Sendable {
    let edm: EDMRecordReader
    let lido: LIDORecordReader
    let dublinCore: DublinCoreRecordReader

    init(language: String) {
        let text = OAITextChoice(language: language)
        edm = EDMRecordReader(text: text)
        lido = LIDORecordReader(text: text)
        dublinCore = DublinCoreRecordReader(text: text)
    }

    /// `header`'s record (its identifier and datestamp) with what its metadata (the element
    /// inside `<metadata>`) says; throws ``OAIRecordUnreadable``. A record with neither an object
    /// number of its own, nor a title, nor a creator and an image describes no work; one with a
    /// creator and an image but no title is a work with an empty title.
    func read(_ root: XMLTree, header: OAIRecord) throws -> OAIRecord {
        let record = try describe(root, header: header)
        let pictured = !record.creator.isEmpty && record.imageURL != nil
        guard record.objectNumber != header.identifier || !record.title.isEmpty || pictured else {
            throw OAIRecordUnreadable(
                "record without an object number (dc:identifier, lido:workID), a title, or a creator and an image")
        }
        return record
    }

    private func describe(_ root: XMLTree, header: OAIRecord) throws -> OAIRecord {
        switch (root.namespace, root.name) {
        case (OAINamespace.rdf, "RDF"):
            return try edm.read(root, header: header)
        case (OAINamespace.lido, "lido"):
            return try lido.read(root, header: header)
        case (OAINamespace.lido, "lidoWrap"):
            guard let record = root.child(OAINamespace.lido, "lido") else {
                throw OAIRecordUnreadable("lido:lidoWrap without a lido:lido")
            }
            return try lido.read(record, header: header)
        case (OAINamespace.oaiDC, "dc"):
            return try dublinCore.read(root, header: header)
        default:
            throw OAIRecordUnreadable(
                "metadata in a format artpipe does not read: \(root.name) in \(root.namespace.isEmpty ? "no namespace" : root.namespace)"
            )
        }
    }
}
