/// A page partition's entries in a dictionary: the one-pass build's and the tests' table.
package final class PageEntriesInMemory: PageEntryTable, @unchecked Sendable {
    private var entries: [String: PageEntry] = [:]

    package init() {}

    package func entry(of pageId: String) -> PageEntry? { entries[pageId] }

    package func set(_ entry: PageEntry) { entries[entry.pageId] = entry }
}
