import ArtpipeSupport
import Foundation
import ObjectStorage

/// The demo's prefix in a bucket, as ``DemoDirectory`` treats a folder: emptied when an
/// earlier demo wrote there, refused otherwise, so a demo never deletes objects it did not write.
enum DemoBucket {
    static func prepare(_ store: BucketOutputStore) async throws {
        var keys: [String] = []
        try await store.client.listAll(prefix: "") { keys.append($0.key) }
        guard !keys.isEmpty else { return try await mark(store) }
        guard keys.contains(DemoDirectory.marker) else {
            throw ConfigurationError(
                "--out \(store.address(of: "")) is not empty and was not made by artpipe demo; choose another prefix")
        }
        for start in stride(from: 0, to: keys.count, by: 1_000) {
            let failures = try await store.client.delete(Array(keys[start..<min(start + 1_000, keys.count)]))
            if let failure = failures.first {
                throw ConfigurationError("cannot empty \(store.address(of: "")): \(failure.key): \(failure.reason)")
            }
        }
        try await mark(store)
    }

    private static func mark(_ store: BucketOutputStore) async throws {
        try await store.client.put(
            DemoDirectory.marker, body: Array("made by artpipe demo; emptied by the next one\n".utf8),
            contentType: "text/plain")
    }
}
