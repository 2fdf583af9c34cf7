import Logging

/// JSON rendering of log metadata.
enum JSONText {
    static func append(_ value: Logger.Metadata.Value, to text: inout String) {
        switch value {
        case .string(let string):
            appendString(string, to: &text)
        case .stringConvertible(let convertible):
            switch convertible {
            case let number as any BinaryInteger: text += "\(number)"
            case let number as Double where number.isFinite: text += "\(number)"
            case let flag as Bool: text += flag ? "true" : "false"
            default: appendString(convertible.description, to: &text)
            }
        case .array(let values):
            text += "["
            for (index, element) in values.enumerated() {
                if index > 0 { text += "," }
                append(element, to: &text)
            }
            text += "]"
        case .dictionary(let dictionary):
            text += "{"
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                appendString(key, to: &text)
                text += ":"
                append(dictionary[key]!, to: &text)
            }
            text += "}"
        }
    }

    static func appendString(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
