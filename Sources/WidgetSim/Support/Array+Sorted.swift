extension Array {
    func isSorted(by areInOrder: (Element, Element) -> Bool) -> Bool {
        var index = startIndex
        while index + 1 < endIndex {
            if !areInOrder(self[index], self[index + 1]) { return false }
            index += 1
        }
        return true
    }
}

extension Array where Element: Comparable {
    /// The index of the first element strictly greater than `value`, in an
    /// array sorted in ascending order (`count` when there is none).
    /// - Complexity: O(log n)
    func firstIndex(greaterThan value: Element) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
