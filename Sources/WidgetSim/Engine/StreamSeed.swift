/// A node in the tree of random streams derived from the master seed.
///
/// Every device, widget and purpose gets its own seed by walking labels down
/// from the master seed: `master.derived("device", "phone").derived("views")`.
/// A stream depends only on its own path, so adding a widget, reordering
/// devices or running devices on other threads or shards never changes the
/// draws of the others. Separate purposes (views, latency, truth) have separate
/// streams, so two variants of a scenario that differ only in reload policy see
/// the same user and the same truth (common random numbers).
public struct StreamSeed: Hashable, Sendable {
    public let value: UInt64

    public init(_ value: UInt64) { self.value = value }

    // Inlined: on the hot path of every view or reload (README, "Speed").
    /// The seed one level down, labelled by an integer.
    @inline(__always)
    public func derived(_ label: UInt64) -> StreamSeed {
        children.seed(label)
    }

    /// The seeds one level down from this one, by integer label.
    var children: Children { Children(of: self) }

    /// The seeds one level down from one seed, by integer label, with the
    /// half of the derivation that depends on the parent alone worked out
    /// once: the simulator derives a seed per instant (a scheduling delay,
    /// a change's forecast horizon) and per day, always from the same parent
    /// (README, "Speed"). `Children(of: s).seed(l)` is `s.derived(l)`.
    struct Children: Sendable {
        /// The parent's mix, to which each label is added.
        let base: UInt64

        init(of parent: StreamSeed) {
            base = SplitMix64.mix(parent.value ^ 0x5851_F42D_4C95_7F2D)
        }

        // Inlined: on the hot path of every view or reload (README, "Speed").
        /// The seed labelled `label`.
        @inline(__always)
        func seed(_ label: UInt64) -> StreamSeed {
            StreamSeed(SplitMix64.mix(base &+ label))
        }

        // Inlined: on the hot path of every view or reload (README, "Speed").
        /// `StreamSeed.unit(at:)` of the parent.
        @inline(__always)
        func unit(at counter: UInt64) -> Double {
            Double(seed(counter).value >> 11) * 0x1.0p-53
        }
    }

    /// The seed one level down, labelled by a string (hashed with FNV-1a, which
    /// unlike Swift's `Hasher` is the same in every process).
    public func derived(_ label: String) -> StreamSeed {
        derived(StreamSeed.fnv1a(label))
    }

    /// The seed down a path of two labels: `derived(first).derived(second)`,
    /// without the array a variadic call builds (a device derives a dozen
    /// such seeds as it is set up; README, "Speed").
    public func derived(_ first: String, _ second: String) -> StreamSeed {
        derived(first).derived(second)
    }

    /// The seed down a path of three labels, as `derived(_:_:)` for two.
    public func derived(_ first: String, _ second: String, _ third: String) -> StreamSeed {
        derived(first).derived(second).derived(third)
    }

    /// The seed down a path of labels.
    public func derived(_ first: String, _ rest: String...) -> StreamSeed {
        rest.reduce(derived(first)) { $0.derived($1) }
    }

    /// A generator seeded from this node.
    public func stream() -> RandomStream { RandomStream(seed: value) }

    /// A uniform double in [0, 1) that depends only on this seed and `counter`:
    /// a counter-based draw, for values that must not depend on how many other
    /// draws happened before (such as how predictable one hour's weather was).
    public func unit(at counter: UInt64) -> Double {
        children.unit(at: counter)
    }

    static func fnv1a(_ text: String) -> UInt64 {
        // A native string's bytes are read in place: a device derives a few
        // dozen seeds from labels as it is set up.
        text.utf8.withContiguousStorageIfAvailable { fnv1a($0) } ?? fnv1a(text.utf8)
    }

    /// FNV-1a, 64 bits, over bytes.
    static func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}
