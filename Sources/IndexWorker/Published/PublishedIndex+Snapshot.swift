import ObjectStorage

extension PublishedIndex {
    /// The whole index as one publish left it, read while an index worker may be publishing
    /// (what `prune` needs: a work that moved between buckets must not be in neither).
    ///
    /// The versions of `index.json` and of every `works/` file are listed before and after the
    /// files are read; until one pass finds them unchanged, the next pass reads again the files
    /// whose version changed. The files of that pass are one moment's, so one publish's.
    /// Throws when `passes` passes in a row met a publish.
    package static func snapshot(from output: any OutputStore, passes: Int = 10) throws
        -> (manifest: IndexManifest, index: ArtistIndex)
    {
        var held: [String: (version: OutputVersion, bytes: [UInt8])] = [:]
        for _ in 1...passes {
            let before = try indexDataVersions(in: output)
            func read(_ path: String) throws -> [UInt8]? {
                if let version = before[path], let kept = held[path], kept.version == version { return kept.bytes }
                guard let bytes = try output.read(path) else { return nil }
                if let version = before[path] { held[path] = (version, bytes) }
                return bytes
            }
            let result: (manifest: IndexManifest, index: ArtistIndex)
            do {
                result = try PublishedIndex.read(from: output, reading: read)
            } catch let error as ReadError {
                // A bucket removed halfway through a publish reads as missing: only a still index is wrong.
                if try indexDataVersions(in: output) == before { throw error }
                continue
            }
            if try indexDataVersions(in: output) == before { return result }
        }
        throw ReadError(
            description: "\(output.address(of: IndexLayout.manifestPath)) changed while it was read, \(passes) times "
                + "in a row: an index worker is publishing without pause; run again")
    }

    /// The versions of `index.json` and of every `works/` file.
    private static func indexDataVersions(in output: any OutputStore) throws -> [String: OutputVersion] {
        var versions = try output.versions(in: IndexLayout.worksFolder)
        versions[IndexLayout.manifestPath] = try output.version(of: IndexLayout.manifestPath)
        return versions
    }
}
