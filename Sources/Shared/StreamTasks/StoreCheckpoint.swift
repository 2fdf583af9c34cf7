import Foundation

/// What a store's file held when its copy stopped cleanly (Kafka Streams' `.checkpoint`): per
/// partition, the offset of its changelog up to which the file shows that changelog's rows, and
/// nothing that is not in them. A copy started again on the same `--state` keeps those
/// partitions' rows and reads only the changelog from there (``PartitionRestore/resumeOffset``);
/// a partition it does not name is restored in full, as is every partition of a file whose
/// checkpoint is missing or refused (``refusal(file:bounds:partitionCount:now:)``).
///
/// The file is the truth only while it is sealed: its checkpoint is written after the file was
/// synced, and taken away (``take(at:)``) before the file is opened again to be written, so a
/// copy killed at any moment leaves either a checkpoint whose file is as it says, or none.
package struct StoreCheckpoint: Codable, Sendable, Equatable {
    /// The layout of the checkpoint and of the store files it vouches for; one written by a
    /// version with another is refused. A store file's tables are checked by their schema
    /// (``SQLiteDatabase``'s `user_version`); what its blobs hold is not: bump this when a
    /// store's compact encoding changes.
    package static let currentFormat = 3

    /// How long ago a partition's rows may have stopped following its changelog: Kafka's
    /// cleaner removes a tombstone `delete.retention.ms` (a day by default, and on every artpipe
    /// topic) after it cleaned its segment, so rows older than that could miss a deletion.
    package static let maximumAge: TimeInterval = 20 * 3600

    /// Where one partition's rows stand.
    package struct Mark: Codable, Sendable, Equatable {
        /// The changelog's offset up to which the file shows its rows: the restore reads on from here.
        package var offset: Int64
        /// The works stage's mark of lines sent (``WorkStore``), as its changelog held it there.
        package var linesSent: Int64?
        /// The pages stage's table of the partition in the file (``PageEntryFile``).
        package var slot: Int?
        /// What the artists stage counts of a shard's works that its file's indexes do not give
        /// without reading every line: its works by thumbnail status.
        package var tally: [String: Int]?
        /// Until when the rows followed the changelog: when the partition was revoked (at the
        /// stop, or before it); nil: when the checkpoint was written.
        package var asOf: Date?
        /// What was published from these rows, as the file holds them: while the output still
        /// holds it, it needs no rendering again. Trusted only by the build that wrote the
        /// checkpoint (``StoreCheckpoint/build``).
        package var published: Publication?

        package init(
            offset: Int64, linesSent: Int64? = nil, slot: Int? = nil, tally: [String: Int]? = nil, asOf: Date? = nil,
            published: Publication? = nil
        ) {
            (self.offset, self.linesSent, self.slot, self.tally, self.asOf) = (offset, linesSent, slot, tally, asOf)
            self.published = published
        }
    }

    /// What the output holds of a partition's rows as a copy published them.
    package struct Publication: Codable, Sendable, Equatable {
        /// The sequence number of the output's record of what was published (the artists
        /// stage's shard summary).
        package var record: Int
        /// A digest of the versions of the files published, as the output lists them: another
        /// writer's file, one gone or one left over changes it.
        package var files: String

        package init(record: Int, files: String) {
            (self.record, self.files) = (record, files)
        }
    }

    package var format: Int
    /// The Kafka cluster's id, where the brokers gave one.
    package var cluster: String?
    /// The changelog the offsets are of, and its partition count.
    package var topic: String
    package var partitionCount: Int
    package var written: Date
    /// The store file's size when sealed: one cut short since is refused.
    package var fileBytes: Int64
    package var partitions: [Int: Mark]
    /// The build of artpipe that wrote it (``BuildIdentity``), where known, and whatever else
    /// decides how its rows are rendered (the index's site address): another build, or another
    /// setting, may render the same rows otherwise, so only the same keeps the marks'
    /// ``Mark/published``.
    package var build: String?

    package init(
        cluster: String?, topic: String, partitionCount: Int, written: Date, fileBytes: Int64,
        partitions: [Int: Mark], format: Int = currentFormat, build: String? = nil
    ) {
        (self.cluster, self.topic, self.partitionCount, self.written) = (cluster, topic, partitionCount, written)
        (self.fileBytes, self.partitions, self.format, self.build) = (fileBytes, partitions, format, build)
    }
}
