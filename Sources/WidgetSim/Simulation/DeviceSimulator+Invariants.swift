extension DeviceSimulator {
    /// Verifies each widget's reload bookkeeping after an event: a pending
    /// reload waits in exactly one way (a held request, a batch, or a view),
    /// nothing waits without a pending reload, no batch is planned while a
    /// call is in flight, a completion is held exactly while a call is in
    /// flight, and every planned batch is open; and that the earliest held
    /// view and reload event are what a search of their slots finds.
    ///
    /// Does real work only when `WIDGETSIM_INTERNAL_CHECKS` is defined (debug
    /// builds, so every test run, and `make fuzz`).
    func _checkInvariants() {
        #if WIDGETSIM_INTERNAL_CHECKS
        for (index, widget) in widgets.enumerated() {
            let waits = [hasHeldRequest(index), widget.batchTime != nil, widget.waitingForView].filter { $0 }.count
            if schedules[index].pending == nil {
                precondition(waits == 0, "widget \(index): waits for a reload that is not pending")
            } else {
                precondition(waits <= 1, "widget \(index): a pending reload waits in \(waits) ways at once")
            }
            if widget.inFlight != nil {
                precondition(widget.batchTime == nil && !hasHeldRequest(index), "widget \(index): planned while a call is in flight")
            }
            precondition((heldKeys[completionSlot(index)] != .max) == (widget.inFlight != nil), "widget \(index): a completion held without a call in flight, or none with one")
            if let batch = widget.batchTime {
                precondition(openBatches.contains(batch), "widget \(index): joined batch \(batch), which is not open")
                precondition(batch >= now, "widget \(index): joined batch \(batch), which is in the past")
            }
            precondition(widget.added || (widget.inFlight == nil && schedules[index].pending == nil), "widget \(index): reloads before it was added")
            precondition(widget.pushCallsAwaiting >= 0, "widget \(index): \(widget.pushCallsAwaiting) push calls awaiting")
        }
        let views = heldKeys.indexOfMinimum(in: 0..<viewSlotCount)
        precondition(views.index == earliestViewSlot && views.value == earliestViewKey,
                     "the earliest held view is slot \(views.index), not \(earliestViewSlot)")
        let reloads = heldKeys.indexOfMinimum(in: viewSlotCount..<heldKeys.count)
        precondition(reloads.index == earliestReloadSlot && reloads.value == earliestReloadKey,
                     "the earliest held reload event is slot \(reloads.index), not \(earliestReloadSlot)")
        #endif
    }
}
