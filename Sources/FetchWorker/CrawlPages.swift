/// Which pages a crawl asks for: `all`, one page `7`, or a range `1-20`.
package enum CrawlPages: Sendable, Equatable {
    case all
    case range(ClosedRange<Int>)

    package init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text == "all" {
            self = .all
            return
        }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        switch bounds.count {
        case 1:
            guard let page = bounds[0], page >= 1 else { return nil }
            self = .range(page...page)
        case 2:
            guard let first = bounds[0], let last = bounds[1], first >= 1, last >= first else { return nil }
            self = .range(first...last)
        default:
            return nil
        }
    }
}
