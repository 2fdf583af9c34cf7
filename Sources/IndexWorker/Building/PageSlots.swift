/// Which page is slot n: works refer to their page by a small number, not by its id.
///
/// Invariant: a slot is freed only once no work refers to its page any more, so a freed slot
/// can be given to another page at once (``LiveArtistIndex/update(_:from:)`` frees them last).
struct PageSlots: Sendable {
    private var slotOf: [String: Int32] = [:]
    private var pageIdAt: [String] = []
    private var freeSlots: [Int32] = []

    /// The page in `slot`; empty for a free slot.
    subscript(slot: Int32) -> String { pageIdAt[Int(slot)] }

    /// The slot `pageId` has, if it has one.
    func slot(of pageId: String) -> Int32? { slotOf[pageId] }

    /// The slot of `pageId`, given one if it has none: a freed slot first.
    mutating func slot(for pageId: String) -> Int32 {
        if let slot = slotOf[pageId] { return slot }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            pageIdAt[Int(slot)] = pageId
        } else {
            slot = Int32(pageIdAt.count)
            pageIdAt.append(pageId)
        }
        slotOf[pageId] = slot
        return slot
    }

    /// Frees the slot of a page that is gone.
    mutating func free(_ pageId: String) {
        guard let slot = slotOf.removeValue(forKey: pageId) else { return }
        pageIdAt[Int(slot)] = ""
        freeSlots.append(slot)
    }
}
