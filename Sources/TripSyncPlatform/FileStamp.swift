/// What tells a changed file from an unchanged one without reading it: its size, modification
/// time (nanoseconds) and inode, from one `stat`. A home's sync state remembers these per file,
/// and the folder handle and the blob files report them.
package struct FileStamp: Equatable {
    package var size: Int64
    package var modified: Int64
    package var inode: UInt64

    package init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }
}
