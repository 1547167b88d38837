extension EventQueue {
    /// Verifies the heap property on every parent–child pair.
    ///
    /// Does real work only when `WIDGETSIM_INTERNAL_CHECKS` is defined (debug
    /// builds, so every test run); release builds compile it away.
    func _checkInvariants() {
        #if WIDGETSIM_INTERNAL_CHECKS
        precondition(_nextKey == _storage.first?.key ?? .max, "EventQueue: the kept next key is not the first slot's")
        for index in 1..<max(1, _storage.count) {
            let parent = (index - 1) / 2
            precondition(
                !_storage[index].precedes(_storage[parent]),
                "EventQueue: slot \(index) precedes its parent \(parent)"
            )
        }
        #endif
    }
}
