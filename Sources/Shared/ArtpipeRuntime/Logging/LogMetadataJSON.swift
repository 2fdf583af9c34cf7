import ArtpipeSupport
import Logging

/// Log metadata as JSON values: numbers and booleans stay numbers and booleans.
enum LogMetadataJSON {
    static func append(_ value: Logger.Metadata.Value, to json: inout JSONText) {
        switch value {
        case .string(let string):
            json.string(string)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as any BinaryInteger: json.verbatim("\(number)")
            case let number as Double where number.isFinite: json.verbatim("\(number)")
            case let flag as Bool: json.raw(flag ? "true" : "false")
            default: json.string(convertible.description)
            }
        case .array(let values):
            json.byte(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { json.byte(UInt8(ascii: ",")) }
                append(element, to: &json)
            }
            json.byte(UInt8(ascii: "]"))
        case .dictionary(let dictionary):
            json.byte(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { json.byte(UInt8(ascii: ",")) }
                json.string(key)
                json.byte(UInt8(ascii: ":"))
                append(dictionary[key]!, to: &json)
            }
            json.byte(UInt8(ascii: "}"))
        }
    }
}
