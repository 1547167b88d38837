/// A fixed number of state records (one per widget, page or app) that one
/// simulator updates in place on every event.
///
/// Why not an array: every write through an array element first asks the
/// runtime whether the array's buffer is shared (copy-on-write), and a
/// device makes several such writes per event; moving the simulator's state
/// into tables saved 4 % of a fleet run's instructions. A table's elements are
/// written through a pointer, with nothing else (and a bounds check where
/// internal invariants are checked, below).
///
/// Not promised: value semantics. Copies of a table share its elements, so a
/// table belongs to one simulator, which is never copied while it runs
/// (`Simulation.run` makes it, runs it and takes its observer back).
///
/// Indices are checked where internal invariants are (debug builds, `make
/// test`, `make fuzz`), not in release builds: every index is a widget, page,
/// app or slot number the simulator derives from its own setup, never a
/// number read from input, and checking the hundreds of accesses of every
/// event cost a fleet run 4 % of its instructions (README, "Speed"), as
/// swift-collections' heap checks its storage only in debug builds.
struct StateTable<Element>: RandomAccessCollection {
    /// The elements, allocated in the same block as the object that owns
    /// them: a device sets up a dozen tables, and one allocation each, not
    /// an array copied into a separate buffer, saves a fleet run 1 % of its
    /// instructions (README, "Speed").
    private final class Storage: ManagedBuffer<Int, Element> {
        deinit {
            _ = withUnsafeMutablePointers { count, elements in elements.deinitialize(count: count.pointee) }
        }
    }

    private let storage: Storage
    private let base: UnsafeMutablePointer<Element>
    /// Kept here as well as in the storage, so a bounds check reads no memory.
    let count: Int

    /// A table of `count` elements, element `i` being `element(i)`, called
    /// once for each index in increasing order (a builder may count as it goes).
    init(count: Int, _ element: (Int) throws -> Element) rethrows {
        precondition(count >= 0, "StateTable: negative count \(count)")
        let storage = unsafeDowncast(Storage.create(minimumCapacity: Swift.max(1, count)) { _ in 0 }, to: Storage.self)
        let base = storage.withUnsafeMutablePointerToElements { $0 }
        // The header counts the elements initialized so far, so that a
        // throwing `element` leaves a storage that deinitializes exactly those.
        // Written through its pointer: `storage.header`, a class's
        // property, was checked for exclusive access at run time, on each
        // of a device's dozen tables (README, "Speed").
        let header = storage.withUnsafeMutablePointerToHeader { $0 }
        for index in 0..<count {
            (base + index).initialize(to: try element(index))
            header.pointee = index + 1
        }
        self.storage = storage
        self.base = base
        self.count = count
    }

    /// A table of `count` copies of `value`.
    init(repeating value: Element, count: Int) {
        self.init(count: count) { _ in value }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        unsafeAddress {
            checkIndex(index, count: count)
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            checkIndex(index, count: count)
            return base + index
        }
    }

    /// The elements, read without holding the table: for a closure called
    /// while the table is alive, so that passing it retains nothing.
    var borrowed: Borrowed { Borrowed(base: base, count: count) }

    struct Borrowed {
        fileprivate let base: UnsafeMutablePointer<Element>
        let count: Int

        subscript(index: Int) -> Element {
            checkIndex(index, count: count)
            return base[index]
        }
    }
}

/// Stops the run if `index` is outside `0..<count`, where internal
/// invariants are checked (see `StateTable`).
@inline(__always)
private func checkIndex(_ index: Int, count: Int) {
    #if WIDGETSIM_INTERNAL_CHECKS
    precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StateTable: index \(index) out of range 0..<\(count)")
    #endif
}

extension StateTable where Element == UInt64 {
    /// The index of the smallest element in `range` (the first of equal
    /// ones) and its value; `(-1, .max)` when every one is `.max`. Reads
    /// each element without a bounds check, the range being checked once:
    /// the simulator asks after every held event it takes.
    func indexOfMinimum(in range: Range<Int>) -> (index: Int, value: UInt64) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "StateTable: range \(range) out of 0..<\(count)")
        var index = -1
        var smallest = UInt64.max
        for position in range where base[position] < smallest {
            smallest = base[position]
            index = position
        }
        return (index, smallest)
    }
}
