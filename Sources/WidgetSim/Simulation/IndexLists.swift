/// Lists of indices (the widgets on each page, of each app), flattened into
/// one array: walking a list on every view retains nothing, where an array
/// of arrays retains and releases the inner array each time.
struct IndexLists: Sendable {
    /// `members[starts[list]..<starts[list + 1]]` is list `list`.
    private let starts: [Int]
    private let members: [Int]

    /// `listCount` lists, where list `k` holds, in increasing order, every
    /// index `i` with `keys[i] == k` (the widgets on each page, given each
    /// widget's page). A key outside `0..<listCount` puts its index in no
    /// list.
    init(listCount: Int, grouping keys: [Int]) {
        self.init(listCount: listCount, count: keys.count) { keys[$0] }
    }

    /// `listCount` lists, where list `k` holds, in increasing order, every
    /// index `i` in `0..<count` with `key(i) == k`; a key outside
    /// `0..<listCount` puts its index in no list. `key` is called twice for
    /// each index, so it must answer the same both times. Built by counting, in the
    /// two arrays it is kept in and without an array of keys: a fleet builds
    /// two of these for every device it sets up (README, "Speed").
    init(listCount: Int, count: Int, key: (Int) -> Int) {
        var starts = [Int](repeating: 0, count: listCount + 1)
        for index in 0..<count {
            let key = key(index)
            if 0 <= key && key < listCount { starts[key + 1] += 1 }
        }
        for list in 0..<listCount { starts[list + 1] += starts[list] }
        var members = [Int](repeating: 0, count: starts[listCount])
        // Each list's start serves as its cursor while its members are
        // placed, ending as the next list's start; one shift restores them.
        for index in 0..<count {
            let key = key(index)
            guard 0 <= key && key < listCount else { continue }
            members[starts[key]] = index
            starts[key] += 1
        }
        for list in stride(from: listCount, to: 0, by: -1) { starts[list] = starts[list - 1] }
        starts[0] = 0
        self.starts = starts
        self.members = members
    }

    /// The positions of list `list`'s members, for `member(at:)`.
    func positions(of list: Int) -> Range<Int> { starts[list]..<starts[list + 1] }

    /// The member at `position`.
    func member(at position: Int) -> Int { members[position] }

    func isEmpty(_ list: Int) -> Bool { starts[list] == starts[list + 1] }

    /// List `list` as an array (for the few places that filter it).
    func list(_ list: Int) -> ArraySlice<Int> { members[positions(of: list)] }
}
