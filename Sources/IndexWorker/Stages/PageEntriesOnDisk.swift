/// One assignment's entries of a page partition in its copy's ``PageEntryFile``.
final class PageEntriesOnDisk: PageEntryTable, Sendable {
    private let file: PageEntryFile
    private let partition: Int
    let slot: Int

    init(file: PageEntryFile, partition: Int, slot: Int) {
        (self.file, self.partition, self.slot) = (file, partition, slot)
    }

    func entry(of pageId: String) throws -> PageEntry? {
        try file.entry(of: pageId, slot: slot)
    }

    func set(_ entry: PageEntry) throws {
        try file.set(entry, partition: partition, slot: slot)
    }
}
