import Foundation

/// A creator's name as a library catalogue writes it with the person's role after it (the BnF's
/// and Gallica's "Hugo, Victor (1802-1885). Auteur du texte"), so that one person in two roles is
/// one name, not two.
enum OAICreatorName {
    /// The longest role phrase taken off, in characters.
    static let longestRole = 60

    /// `name` without a final ". <Role>" segment, taken off only where what comes before it ends
    /// with parenthesised life dates ("(1802-1885)", "(1975-....)", "(18..-19..)") and the role is
    /// words alone (it starts with a capital letter, and has no digit, parenthesis or full stop);
    /// any other name is returned as it is.
    static func withoutRole(_ name: String) -> String {
        guard let cut = name.range(of: "). ", options: .backwards) else { return name }
        let person = name[..<cut.lowerBound]
        let role = name[cut.upperBound...]
        guard let first = role.first, first.isUppercase, role.count <= longestRole,
            !role.contains(where: { $0.isNumber || $0 == "(" || $0 == ")" || $0 == "." }),
            let open = person.lastIndex(of: "("), isLifeDates(person[person.index(after: open)...])
        else { return name }
        return String(name[..<cut.upperBound].dropLast(2))
    }

    /// "1802-1885", "1975-....", "18..-19..", "1802-": a year (digits, or some digits and dots
    /// for the unknown ones), a hyphen, and a year, dots or nothing.
    private static func isLifeDates(_ text: Substring) -> Bool {
        let sides = text.split(separator: "-", omittingEmptySubsequences: false)
        guard sides.count == 2 else { return false }
        let (birth, death) = (trimmed(sides[0]), trimmed(sides[1]))
        return isYear(birth, digitsAtLeast: 2) && (death.isEmpty || isYear(death, digitsAtLeast: 0))
    }

    /// Up to four digits and dots, digits first, with at least `digitsAtLeast` digits; a `?` after it.
    private static func isYear(_ text: Substring, digitsAtLeast: Int) -> Bool {
        let written = text.hasSuffix("?") ? text.dropLast() : text
        let digits = written.prefix { $0.isASCII && $0.isWholeNumber }
        let rest = written.dropFirst(digits.count)
        return (1...4).contains(written.count) && digits.count >= digitsAtLeast && rest.allSatisfy { $0 == "." }
    }

    /// `text` without spaces at either end.
    private static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
