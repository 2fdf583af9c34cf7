/// Shard files' inputs grouped by the part of page ids they hold, so that merging one page id
/// looks only at the files that can hold it: its part's, and whole-partition files of the earlier form.
struct ShardsByPart {
    private var parts: [Int: [IndexInputs]] = [:]
    private var whole: [IndexInputs] = []

    init(_ shards: [String: IndexInputs]) {
        for (name, inputs) in shards {
            if let part = IndexShard.part(ofAnyFile: name) {
                parts[part, default: []].append(inputs)
            } else {
                whole.append(inputs)
            }
        }
    }

    func candidates(for pageId: String) -> [IndexInputs] {
        (parts[IndexShard.part(of: pageId)] ?? []) + whole
    }
}
