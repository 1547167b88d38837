/// Virtual time: a whole number of seconds since the scenario's start.
///
/// Nothing in the simulator reads the wall clock; every instant is a `SimTime`
/// and every duration is a count of seconds. Integer time keeps event order
/// exact and output byte-identical across runs and platforms.
public typealias SimTime = Int
