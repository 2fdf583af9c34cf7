/// One value, or several. Most objects are listed on one page and most records have one
/// version, so the usual case holds its value inline instead of in an array of one.
enum OneOrMore<Element: Sendable>: Sequence, Sendable {
    case one(Element)
    case many([Element])

    /// With `element` added after the others.
    func adding(_ element: Element) -> OneOrMore {
        switch self {
        case .one(let first): .many([first, element])
        case .many(let elements): .many(elements + [element])
        }
    }

    /// Without the elements `remove` picks; nil when none is left.
    func removing(where remove: (Element) -> Bool) -> OneOrMore? {
        switch self {
        case .one(let element): return remove(element) ? nil : self
        case .many(let elements):
            let kept = elements.filter { !remove($0) }
            return kept.count > 1 ? .many(kept) : kept.first.map { .one($0) }
        }
    }

    func makeIterator() -> Iterator { Iterator(source: self) }

    struct Iterator: IteratorProtocol {
        let source: OneOrMore
        var position = 0

        mutating func next() -> Element? {
            defer { position += 1 }
            switch source {
            case .one(let element): return position == 0 ? element : nil
            case .many(let elements): return position < elements.count ? elements[position] : nil
            }
        }
    }
}
