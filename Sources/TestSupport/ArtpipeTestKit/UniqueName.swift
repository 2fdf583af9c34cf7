/// Names that no other test uses, for topics and groups.
package enum UniqueName {
    package static func make(_ prefix: String) -> String {
        "\(prefix)-\(UInt32.random(in: 0...UInt32.max))"
    }
}
