extension Array {
    /// Inserts `element` into an array already in the order `precedes` gives, after every
    /// element it does not precede: a binary search, for a kept order that takes a few new
    /// elements at a time rather than sorting all of them again.
    package mutating func insert(_ element: Element, keepingOrder precedes: (Element, Element) -> Bool) {
        insert(element, at: partitioningIndex { precedes(element, $0) })
    }

    /// The first index whose element satisfies `isAtOrAfter`, in an array partitioned by it
    /// (every element that does not, first): a binary search for where an element belongs.
    package func partitioningIndex(where isAtOrAfter: (Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
