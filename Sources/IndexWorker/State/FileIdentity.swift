import Foundation

/// A file as `stat` sees it. State and published files are replaced by rename, so a new
/// version is a new inode even when its size and modification time match the old one's.
struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        seconds = status.st_mtim.tv_sec
        nanoseconds = status.st_mtim.tv_nsec
    }
}
