import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A directory opened by descriptor, without following a link, for work
/// on a tree that someone else may change while it runs (the old report
/// directory of another user, written by root).
///
/// Promised: every operation is relative to an open directory, and every
/// directory below is opened with `O_NOFOLLOW`, so a directory swapped for
/// a symbolic link meanwhile leads nowhere outside: the link itself is
/// what gets linked, moved or removed. Names are raw bytes, so a name that
/// is not UTF-8 is handled like any other.
final class DirectoryDescriptor {
    let descriptor: Int32

    /// The directory at `path` (which is not followed if it is a link), or nil.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Entry `name` of `parent` if it is a directory (never a link to one), or nil.
    init?(_ name: [CChar], in parent: DirectoryDescriptor) {
        let descriptor = openat(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The names of its entries (not "." and ".."), NUL-terminated, sorted
    /// by their bytes; nil when it cannot be read.
    func names() -> [[CChar]]? {
        let copy = dup(descriptor)
        guard copy >= 0 else { return nil }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return nil
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [[CChar]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 }).map { CChar(bitPattern: $0) } + [0]
            }
            if name == [0x2E, 0] || name == [0x2E, 0x2E, 0] { continue }
            names.append(name)
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The status of entry `name`, not following a link.
    func status(of name: [CChar]) -> stat? {
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// Its own status.
    func status() -> stat? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? status : nil
    }

    /// Removes entry `name` and everything below it; true when it is gone.
    /// A directory left read-only inside (a carried-over `chmod 555`
    /// folder) is opened up first: it is being deleted, and its files live
    /// on in the new reports as links.
    func remove(_ name: [CChar]) -> Bool {
        if unlinkat(descriptor, name, 0) == 0 || errno == ENOENT { return true }
        var child = DirectoryDescriptor(name, in: self)
        if child == nil && errno == EACCES {
            _ = fchmodat(descriptor, name, 0o700, AT_SYMLINK_NOFOLLOW)
            child = DirectoryDescriptor(name, in: self)
        }
        guard let child else { return false }
        if let own = child.status() { _ = fchmod(child.descriptor, (own.st_mode & 0o7777) | 0o700) }
        for entry in child.names() ?? [] { _ = child.remove(entry) }
        return unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOENT
    }

    /// The text of a raw name, for messages and for matching report names.
    static func text(_ name: [CChar]) -> String {
        String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A name as the raw bytes `names()` gives.
    static func name(_ text: String) -> [CChar] { Array(text.utf8CString) }
}
