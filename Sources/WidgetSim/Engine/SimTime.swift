/// Virtual time: a whole number of seconds since the scenario's start.
///
/// Nothing in the simulator reads the wall clock; every instant is a `SimTime`
/// and every duration is a count of seconds. Integer time keeps event order
/// exact and output byte-identical across runs and platforms.
public typealias SimTime = Int

/// Seconds in common calendar units, for readable arithmetic on `SimTime`.
public enum Seconds {
    public static let minute = 60
    public static let hour = 3_600
    public static let day = 86_400
}
