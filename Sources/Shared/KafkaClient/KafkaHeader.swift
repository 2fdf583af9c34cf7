/// A Kafka record header.
package struct KafkaHeader: Sendable, Hashable {
    package var name: String
    package var value: [UInt8]?

    package init(_ name: String, _ value: [UInt8]?) {
        self.name = name
        self.value = value
    }

    package init(_ name: String, _ value: String) {
        self.init(name, Array(value.utf8))
    }

    /// The value as UTF-8 text, or nil when absent or not UTF-8.
    package var stringValue: String? {
        value.flatMap { String(validating: $0, as: UTF8.self) }
    }
}

extension Array where Element == KafkaHeader {
    /// The value of the first header with this name.
    package func value(of name: String) -> String? {
        first { $0.name == name }?.stringValue
    }

    /// These headers with every one named in `headers` replaced by those.
    package func replacing(with headers: [KafkaHeader]) -> [KafkaHeader] {
        let replaced = Set(headers.map(\.name))
        return filter { !replaced.contains($0.name) } + headers
    }
}
