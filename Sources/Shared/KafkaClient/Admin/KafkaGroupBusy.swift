/// A replay refused because the group is in use.
package struct KafkaGroupBusy: Error, CustomStringConvertible {
    package let group: String
    package let detail: String

    package var description: String {
        "group \(group) has live members: \(detail); stop its workers, then replay"
    }
}
