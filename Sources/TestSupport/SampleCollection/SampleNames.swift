/// Word lists the sample collection draws makers and titles from: Dutch, French, Spanish,
/// Japanese and Polish names, so sorting and escaping meet diacritics and other scripts.
package enum SampleNames {
    package static let givenNames = [
        "Jan", "Pieter", "Judith", "Rachel", "Frans", "Aelbert", "Élisabeth", "Gerard", "Maria", "Cornelis",
        "Hendrick", "Ferdinand", "Jacob", "Clara", "Willem", "Anthonie", "Geertgen", "Joséphine", "Søren", "Zoë",
    ]
    package static let familyNames = [
        "van Rijn", "Steen", "Leyster", "Ruysch", "Hals", "Cuyp", "Vigée Le Brun", "ter Borch", "Ter Borch", "Dou",
        "de Hooch", "Bol", "van Ruisdael", "Peeters", "Wtewael", "Mignon", "Zurbarán", "Kierkegaard", "Öller",
        "Łempicka", "Ångström", "van Goyen", "Averkamp", "Saenredam",
    ]
    /// Makers written as the API writes them, beyond the generated ones.
    package static let fixedMakers = [
        "anonymous", "Katsushika Hokusai 葛飾北斎", "Utagawa Hiroshige 歌川広重", "Rembrandt van Rijn",
        "Johannes Vermeer", "Francisco de Goya y Lucientes",
    ]
    static let subjects = [
        "Still Life with Flowers", "View of Haarlem", "Portrait of a Woman", "The Merry Drinker", "Winter Landscape",
        "Interior of a Church", "Nature morte aux pêches", "Paysage d'hiver", "Bodegón", "Fuji from the Sea",
        "The Kitchen Maid", "River View with Ferry", "Vase with Tulips", "Self-portrait", "Study of a Head",
        "Ships in a Storm", "A Lady at the Virginals", "Skaters on the Ice", "Große Landschaft", "Łódź at dusk",
    ]
    static let qualifiers = [
        "", " (sketch)", " — study", " & Pendant", " <after the master>", " \"Evening\"", ", c. 1650", " nº 2",
    ]
    static let objectPrefixes = ["SK-A-", "SK-C-", "RP-P-1906-", "RP-T-00-", "BK-NM-", "AK-MAK-"]

    /// Endings of object numbers as museums write them (`RP-P-OB-23.990`, `NG 2`, `BK-16676/A`),
    /// with every character a URL treats specially and letters beyond ASCII.
    static let objectNumberEndings = [".990", " (A)", "/A", "#2", "?b", "%20", "+1", "-é", "-ß.ñ", "[1]"]

    /// `base`, or, for one work in five, `base` with one of ``objectNumberEndings``: the choice
    /// follows `index` alone, so the seeded draws and every other field stay as they were.
    package static func objectNumber(_ base: String, index: Int) -> String {
        guard index % 5 == 2 else { return base }
        return base + objectNumberEndings[(index / 5) % objectNumberEndings.count]
    }
}
