extension String {
    /// The string cut to its first `count` Unicode scalars, with "…" after when anything was
    /// cut. By scalar, not by character: one character (a letter and its marks) can be any length.
    package func prefix(scalars count: Int) -> String {
        let scalars = unicodeScalars
        guard scalars.count > count else { return self }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(count))
        return String(cut) + "…"
    }
}
