extension FixedWidthInteger {
    /// `self + other`, held at the type's bounds rather than trapping past them.
    package func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

extension Sequence where Element: FixedWidthInteger {
    /// The elements' sum, held at the type's bounds.
    package func saturatingSum() -> Element { reduce(0) { $0.saturatingAdding($1) } }
}
