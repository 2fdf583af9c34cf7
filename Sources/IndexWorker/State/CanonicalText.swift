import Foundation

/// One spelling for text that Swift compares as equal: Unicode's NFC.
///
/// "Cézanne" with a precomposed `é` and with `e` plus a combining accent are one dictionary key
/// in Swift, so whichever spelling a process meets first would name the artist, and that
/// depends on its hash seed: two index instances would publish different bytes and overwrite
/// each other. Makers and object numbers enter the index through here.
enum CanonicalText {
    static func of(_ text: String) -> String {
        isASCII(text) ? text : text.precomposedStringWithCanonicalMapping
    }

    /// `text` in Unicode's NFD: one spelling for text whose NFC form is not the one kept.
    static func decomposed(_ text: String) -> String {
        isASCII(text) ? text : text.decomposedStringWithCanonicalMapping
    }

    /// ASCII, nearly every name, is NFC already.
    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }
}
