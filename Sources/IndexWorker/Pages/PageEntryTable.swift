/// Where a page partition's entries are kept, by page id. In memory for the one-pass build and
/// the tests (``PageEntriesInMemory``); on the copy's own disk for a running copy
/// (``PageEntriesOnDisk``). Used by one caller at a time (its partition's owner).
package protocol PageEntryTable: AnyObject, Sendable {
    func entry(of pageId: String) throws -> PageEntry?
    func set(_ entry: PageEntry) throws
}
