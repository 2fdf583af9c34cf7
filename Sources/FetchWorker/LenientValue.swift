/// A value a source's answer may carry in a shape artpipe does not expect: decoded when it has
/// the expected type, nil otherwise, so an optional detail never makes its page unreadable.
/// As a property's type inside `Optional`, a missing key or `null` is nil too.
struct LenientValue<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Value.self)
    }
}
