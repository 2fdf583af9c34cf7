import PipelineContract

/// One of the three store files in a copy's state folder, with the changelog its rows are a
/// function of: what a checkpoint (``StoreCheckpoint``) is written for and checked against.
package enum StateFile: String, CaseIterable, Sendable {
    /// The pages stage's entries (``PageEntryFile``), from `artpipe.index-pages`.
    case pages = "pages.sqlite"
    /// The works stage's states (``WorkStore``), from `artpipe.index-works-state`.
    case works = "works.sqlite"
    /// The artists stage's lines (``ShardStates``), from its input `artpipe.index-artists`.
    case lines = "lines.sqlite"

    /// The file's name in the state folder.
    package var name: String { rawValue }

    /// The changelog its checkpoint's offsets are of.
    package var topic: String {
        switch self {
        case .pages: ArtpipeTopic.indexPages
        case .works: ArtpipeTopic.indexWorksState
        case .lines: ArtpipeTopic.indexArtists
        }
    }
}
