extension Array {
    /// Inserts `element` into an array already in the order `precedes` gives, after every
    /// element it does not precede: a binary search, for a kept order that takes a few new
    /// elements at a time rather than sorting all of them again.
    package mutating func insert(_ element: Element, keepingOrder precedes: (Element, Element) -> Bool) {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if precedes(element, self[middle]) { high = middle } else { low = middle + 1 }
        }
        insert(element, at: low)
    }

    /// In an array already in the order `precedes` gives, the index of the first element that
    /// does not precede `element`: where `element` is, or would go before its equals.
    package func firstIndex(notPreceding element: Element, in precedes: (Element, Element) -> Bool) -> Int {
        var (low, high) = (0, count)
        while low < high {
            let middle = (low + high) / 2
            if precedes(self[middle], element) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
