import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes to an open descriptor with `write(2)` until every byte is out.
public enum WriteAll {
    /// Writes all of `bytes` to `descriptor`, retrying short writes and
    /// writes interrupted by a signal. Returns the error number of a write
    /// that failed (EIO for one that wrote nothing), or nil.
    public static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32) -> Int32? {
        var rest = bytes
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : EIO }
            rest = rest.dropFirst(written)
        }
        return nil
    }
}
