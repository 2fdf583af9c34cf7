/// Flickr's licence ids (`flickr.photos.licenses.getInfo`) as rights statements: the licence's
/// URI where it has one, else its name.
enum FlickrLicense {
    static let statements: [Int: String] = [
        0: "All Rights Reserved",
        1: "https://creativecommons.org/licenses/by-nc-sa/2.0/",
        2: "https://creativecommons.org/licenses/by-nc/2.0/",
        3: "https://creativecommons.org/licenses/by-nc-nd/2.0/",
        4: "https://creativecommons.org/licenses/by/2.0/",
        5: "https://creativecommons.org/licenses/by-sa/2.0/",
        6: "https://creativecommons.org/licenses/by-nd/2.0/",
        7: "https://www.flickr.com/commons/usage/",
        8: "United States Government Work",
        9: "https://creativecommons.org/publicdomain/zero/1.0/",
        10: "https://creativecommons.org/publicdomain/mark/1.0/",
    ]

    /// The statement of licence `id`; nil for an id not in Flickr's list above (one added later).
    static func statement(id: Int) -> String? {
        statements[id]
    }
}
