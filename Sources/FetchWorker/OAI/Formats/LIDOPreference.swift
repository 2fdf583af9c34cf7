import ArtpipeSupport
import Foundation

/// Which of several LIDO values (titles, names) a record prefers, as LIDO 1.0 and 1.1 mark it:
/// `lido:pref` as a word (`preferred`, `alternate`) or as a LIDO terminology URI (`lido00169`
/// preferred, `lido00526` display, `lido00170` alternative, `lido00426` hidden), on the value or on
/// its set; then the lowest `lido:sortorder`, of the value or of its set.
enum LIDOPreference {
    static let preferred: Set<String> = ["preferred", "http://terminology.lido-schema.org/lido00169"]
    static let alternative: Set<String> = [
        "alternate", "alternative", "hidden", "http://terminology.lido-schema.org/lido00170",
        "http://terminology.lido-schema.org/lido00426",
    ]

    /// 0 preferred, 1 not marked (or marked for display), 2 alternative or hidden.
    static func rank(_ element: XMLTree) -> Int {
        guard let pref = element.attribute("pref")?.lowercased() else { return 1 }
        let mark = pref.trimmingCharacters(in: .whitespaces)
        if preferred.contains(mark) { return 0 }
        return alternative.contains(mark) ? 2 : 1
    }

    /// The values of the best rank there is (a value's own mark, else its set's), lowest
    /// `lido:sortorder` first, then in the record's order.
    static func best(_ values: [(value: XMLTree, set: XMLTree)]) -> [XMLTree] {
        let ranked = values.enumerated().map { index, entry in
            (
                value: entry.value, rank: Self.rank(entry.value.attribute("pref") == nil ? entry.set : entry.value),
                order: Self.sortorder(entry.value) ?? Self.sortorder(entry.set) ?? Int.max, index: index
            )
        }
        guard let top = ranked.map({ $0.rank }).min() else { return [] }
        return ranked.filter { $0.rank == top }.sorted { ($0.order, $0.index) < ($1.order, $1.index) }.map { $0.value }
    }

    private static func sortorder(_ element: XMLTree) -> Int? {
        element.attribute("sortorder").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}
