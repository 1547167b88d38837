/// A fixed number of state records (one per widget, page or app) that one
/// simulator updates in place on every event.
///
/// Why not an array: every write through an array element first asks the
/// runtime whether the array's buffer is shared (copy-on-write), and a
/// device makes several such writes per event; moving the simulator's state
/// into tables saved 4 % of a fleet run's instructions. A table's elements are
/// written through a pointer, with a bounds check and nothing else.
///
/// Not promised: value semantics. Copies of a table share its elements, so a
/// table belongs to one simulator, which is never copied while it runs
/// (`Simulation.run` makes it, runs it and takes its observer back).
struct StateTable<Element>: RandomAccessCollection {
    private final class Storage {
        let base: UnsafeMutablePointer<Element>
        let count: Int

        init(_ elements: [Element]) {
            count = elements.count
            base = UnsafeMutablePointer<Element>.allocate(capacity: Swift.max(1, count))
            _ = UnsafeMutableBufferPointer(start: base, count: count).initialize(from: elements)
        }

        deinit {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    private let storage: Storage
    private let base: UnsafeMutablePointer<Element>
    /// Kept here as well as in the storage, so a bounds check reads no memory.
    let count: Int

    init(_ elements: [Element]) {
        storage = Storage(elements)
        base = storage.base
        count = elements.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(index: Int) -> Element {
        unsafeAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StateTable: index \(index) out of range")
            return UnsafePointer(base + index)
        }
        nonmutating unsafeMutableAddress {
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StateTable: index \(index) out of range")
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
            precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "StateTable: index \(index) out of range")
            return base[index]
        }
    }
}
