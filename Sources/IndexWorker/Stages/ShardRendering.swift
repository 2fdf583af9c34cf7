import ArtpipeSupport

/// What a shard's published files depend on besides its rows: the build that renders them
/// (``BuildIdentity``) and the address the gallery is served from (`--site-url`), which its
/// pages name. A state file's checkpoint records it (``StoreCheckpoint/build``): a shard's mark
/// of what it published is kept only by a copy that renders the same way.
package struct ShardRendering: Sendable, Equatable {
    package let build: String?
    package let site: SiteAddress?

    package init(build: String? = BuildIdentity.current, site: SiteAddress?) {
        (self.build, self.site) = (build, site)
    }

    /// As a checkpoint records it: the build id, then the site's address where there is one; nil
    /// when the build is unknown (then no checkpoint's mark of what was published is kept).
    package var identity: String? {
        build.map { build in site.map { build + " " + $0.base } ?? build }
    }
}
