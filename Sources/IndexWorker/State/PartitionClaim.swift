import ArtpipeSupport
import Foundation
import KafkaClient

/// Which index instance may write a partition's state: `DIR/.index-state/<topic>-<partition>.owner`
/// holds the latest claim, an instance's id and a number one above the claim before it.
///
/// Kafka hands a partition to a new member when the old one's session expires, but the old one
/// learns of it only at its next poll, and may write its older state over the new owner's
/// meanwhile. So an instance claims a partition when it is assigned, before loading its state,
/// and writes the state only while its claim is still the latest, both under an exclusive
/// `flock` of the claim file: a write either comes before the new owner's claim (and the new
/// owner loads it) or sees that claim and writes nothing.
struct PartitionClaim: Sendable, Equatable {
    let instance: String
    let number: Int64

    static let fileSuffix = ".owner"

    static func fileName(_ topicPartition: KafkaTopicPartition) -> String {
        "\(topicPartition.topic)-\(topicPartition.partition)\(fileSuffix)"
    }

    /// Runs `body` with the claim file locked, giving it the claim now on file (nil when none)
    /// and a way to replace it.
    static func locked<Result>(
        _ topicPartition: KafkaTopicPartition, in directory: URL,
        _ body: (_ current: PartitionClaim?, _ replace: (PartitionClaim) throws -> Void) throws -> Result
    ) throws -> Result {
        let path = directory.appendingPathComponent(fileName(topicPartition)).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileWriteError(path: path, reason: String(cString: strerror(errno))) }
        }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        let current = count > 0 ? parse(String(decoding: buffer[..<count], as: UTF8.self)) : nil
        // Written in place: a rename would give the next locker another file than the one locked.
        return try body(current) { claim in
            let text = Array("\(claim.instance) \(claim.number)\n".utf8)
            guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, text, text.count, 0) == text.count else {
                throw FileWriteError(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    private static func parse(_ text: String) -> PartitionClaim? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let number = Int64(fields[1]) else { return nil }
        return PartitionClaim(instance: String(fields[0]), number: number)
    }
}
