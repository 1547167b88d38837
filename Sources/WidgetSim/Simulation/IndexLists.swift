/// Lists of indices (the widgets on each page, of each app), flattened into
/// one array: walking a list on every view retains nothing, where an array
/// of arrays retains and releases the inner array each time.
struct IndexLists: Sendable {
    /// `members[starts[list]..<starts[list + 1]]` is list `list`.
    private let starts: [Int]
    private let members: [Int]

    init(_ lists: [[Int]]) {
        var starts = [0]
        for list in lists { starts.append(starts[starts.count - 1] + list.count) }
        self.starts = starts
        members = lists.flatMap { $0 }
    }

    /// The positions of list `list`'s members, for `member(at:)`.
    func positions(of list: Int) -> Range<Int> { starts[list]..<starts[list + 1] }

    /// The member at `position`.
    func member(at position: Int) -> Int { members[position] }

    func isEmpty(_ list: Int) -> Bool { starts[list] == starts[list + 1] }

    /// List `list` as an array (for the few places that filter it).
    func list(_ list: Int) -> ArraySlice<Int> { members[positions(of: list)] }
}
