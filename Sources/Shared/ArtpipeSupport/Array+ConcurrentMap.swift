extension Array where Element: Sendable {
    /// `map` with at most `limit` transforms running at once; results keep the input's order.
    package func concurrentMap<T: Sendable>(
        limit: Int, _ transform: @escaping @Sendable (Element) async throws -> T
    ) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var results = [T?](repeating: nil, count: count)
            var next = 0
            func startNext() {
                guard next < count else { return }
                let index = next
                let element = self[index]
                next += 1
                group.addTask { (index, try await transform(element)) }
            }
            for _ in 0..<Swift.max(1, limit) { startNext() }
            while let (index, result) = try await group.next() {
                results[index] = result
                startNext()
            }
            return results.map { $0! }
        }
    }
}
