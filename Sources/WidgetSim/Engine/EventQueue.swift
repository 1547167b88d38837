/// A priority queue of scheduled events, ordered by `(time, insertion sequence)`.
///
/// Promised: `popNext()` returns events in nondecreasing time, and events
/// scheduled for the same time come out in the order they were scheduled. An
/// event scheduled for the current time from inside a handler therefore runs
/// after every event already queued for that time (as in SwiftNIO's
/// `EmbeddedEventLoop`). A cancelled event never comes out.
///
/// Not promised: the layout of the storage. Ties are never broken by heap
/// position, only by the explicit insertion counter.
///
/// The queue is single-threaded and holds no locks. It is sized for the
/// simulator's workload: one device has a few dozen pending events at most,
/// so cancellation searches linearly instead of keeping an index. (A 4-ary
/// heap was measured and was no faster on this workload.)
public struct EventQueue<Payload> {
    /// Identifies one scheduled event, for cancellation.
    public struct Handle: Hashable, Sendable {
        let _sequence: UInt64
    }

    struct _Slot {
        /// Time in the high 32 bits, insertion sequence in the low 32: one
        /// integer comparison orders by (time, sequence).
        var key: UInt64
        var payload: Payload

        var time: SimTime { SimTime(key >> 32) }
        var sequence: UInt64 { key & 0xFFFF_FFFF }

        func precedes(_ other: _Slot) -> Bool { key < other.key }
    }

    var _storage: [_Slot] = []
    var _nextSequence: UInt64 = 0
    /// The first slot's key, or `UInt64.max` when the queue is empty, kept
    /// as the storage changes: the simulator reads it before every event,
    /// held ones included, and reading it from the storage cost a fleet run
    /// 0.6 % of its instructions (README, "Speed").
    var _nextKey = UInt64.max

    /// The latest time an event may be scheduled for: 2^32 − 1 seconds (136 years).
    public static var maximumTime: SimTime { 0xFFFF_FFFF }

    /// Creates an empty queue with room for `capacity` events before it grows.
    public init(reservingCapacity capacity: Int = 32) {
        _storage.reserveCapacity(capacity)
    }

    /// The number of pending events.
    public var count: Int { _storage.count }

    /// Events scheduled since the queue was made, cancelled or run ones included.
    public var scheduledCount: Int { Int(_nextSequence) }

    /// True when no event is pending.
    public var isEmpty: Bool { _storage.isEmpty }

    /// The time of the next event, or nil when the queue is empty.
    /// - Complexity: O(1)
    public var nextTime: SimTime? { _storage.first?.time }

    /// The next event's order key (time in the high 32 bits, insertion
    /// sequence in the low 32), or `UInt64.max` when the queue is empty.
    var nextKey: UInt64 { _nextKey }

    /// Takes the next insertion sequence for an event kept outside the queue
    /// and returns its order key: an event source that holds its own next
    /// event (a page's next view, a widget's pending request or call
    /// completion, a device's next reload batch) is then ordered against
    /// queued events exactly as if it had been queued at this moment.
    mutating func reserveKey(at time: SimTime) -> UInt64 {
        precondition(time >= 0 && time <= EventQueue.maximumTime, "EventQueue: time \(time) is outside 0...\(EventQueue.maximumTime)")
        precondition(_nextSequence <= 0xFFFF_FFFF, "EventQueue: more than 2^32 events scheduled on one queue")
        let sequence = _nextSequence
        _nextSequence &+= 1
        return UInt64(time) << 32 | sequence
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Schedules `payload` at `time` and returns a handle that can cancel it.
    /// - Complexity: O(log n)
    @inline(__always)
    @discardableResult
    public mutating func schedule(_ payload: Payload, at time: SimTime) -> Handle {
        precondition(time >= 0 && time <= EventQueue.maximumTime, "EventQueue: time \(time) is outside 0...\(EventQueue.maximumTime)")
        precondition(_nextSequence <= 0xFFFF_FFFF, "EventQueue: more than 2^32 events scheduled on one queue")
        let sequence = _nextSequence
        _nextSequence &+= 1
        let key = UInt64(time) << 32 | sequence
        _nextKey = min(_nextKey, key)
        _storage.append(_Slot(key: key, payload: payload))
        let last = _storage.count - 1
        _storage.withUnsafeMutableBufferPointer { slots in EventQueue._siftUp(slots[last], from: last, in: slots) }
        _checkInvariants()
        return Handle(_sequence: sequence)
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Removes and returns the earliest event, or nil when the queue is empty.
    /// - Complexity: O(log n)
    @inline(__always)
    public mutating func popNext() -> (time: SimTime, payload: Payload)? {
        guard let first = _storage.first else { return nil }
        _remove(at: 0)
        _checkInvariants()
        return (first.time, first.payload)
    }

    /// Cancels a scheduled event. Returns false when it already ran or was cancelled.
    /// - Complexity: O(n)
    @discardableResult
    public mutating func cancel(_ handle: Handle) -> Bool {
        guard let index = _storage.firstIndex(where: { $0.key & 0xFFFF_FFFF == handle._sequence }) else {
            return false
        }
        _remove(at: index)
        _checkInvariants()
        return true
    }

    /// True when the event held under `key` (from `reserveKey`) was the last
    /// one scheduled or reserved: held again for the same time, it would
    /// take the same place among all other events.
    func isLatest(key: UInt64) -> Bool {
        (key & 0xFFFF_FFFF) &+ 1 == _nextSequence
    }

    /// Removes every pending event but keeps the storage and the sequence counter.
    public mutating func removeAll() {
        _storage.removeAll(keepingCapacity: true)
        _nextKey = .max
    }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// Fills the hole at `index` with the last slot, sifted into place among
    /// the slots before it, then drops the last slot: one pass over the
    /// buffer, so one uniqueness check for the move and the sift together.
    @inline(__always)
    mutating func _remove(at index: Int) {
        let lastIndex = _storage.count - 1
        if index < lastIndex {
            _storage.withUnsafeMutableBufferPointer { slots in
                let moving = slots[lastIndex]
                let heap = UnsafeMutableBufferPointer(rebasing: slots[..<lastIndex])
                if index > 0 && moving.precedes(heap[(index - 1) / 2]) {
                    EventQueue._siftUp(moving, from: index, in: heap)
                } else {
                    EventQueue._siftDown(moving, from: index, in: heap)
                }
            }
        }
        _storage.removeLast()
        _nextKey = _storage.first?.key ?? .max
    }

    // The sifts work on the storage's buffer, as swift-collections' HeapModule
    // does: one uniqueness check per sift instead of one per element moved.
    // Each places `moving` in the hole at `start`.

    static func _siftUp(_ moving: _Slot, from start: Int, in slots: UnsafeMutableBufferPointer<_Slot>) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard moving.precedes(slots[parent]) else { break }
            slots[child] = slots[parent]
            child = parent
        }
        slots[child] = moving
    }

    static func _siftDown(_ moving: _Slot, from start: Int, in slots: UnsafeMutableBufferPointer<_Slot>) {
        var parent = start
        let count = slots.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let earlier = (right < count && slots[right].precedes(slots[left])) ? right : left
            guard slots[earlier].precedes(moving) else { break }
            slots[parent] = slots[earlier]
            parent = earlier
        }
        slots[parent] = moving
    }
}

extension EventQueue: Sendable where Payload: Sendable {}
extension EventQueue._Slot: Sendable where Payload: Sendable {}
