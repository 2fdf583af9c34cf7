import Foundation

/// The `begin`/`done` lines a probe wrote.
package struct ProbeRecord {
    package struct Entry: Hashable, Sendable {
        package let topic: String
        package let partition: Int32
        package let offset: Int64
        package let key: String
    }

    package let begun: [Entry]
    package let done: [Entry]

    package init(url: URL) {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var begun: [Entry] = []
        var done: [Entry] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 5, let partition = Int32(fields[2]), let offset = Int64(fields[3]) else { continue }
            let entry = Entry(topic: String(fields[1]), partition: partition, offset: offset, key: String(fields[4]))
            if fields[0] == "begin" { begun.append(entry) } else if fields[0] == "done" { done.append(entry) }
        }
        self.begun = begun
        self.done = done
    }
}
