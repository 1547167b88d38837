/// Runs a simulation's devices, one after another, into one observer.
///
/// Promised: device `i` runs the same whatever other devices run, in whatever
/// order or thread (its streams derive from the master seed and its own id),
/// so a fleet can be split over threads and shards and a comparison over
/// replications, all through this one loop.
public enum Simulation {
    /// Runs the devices `indices` of `setup`'s population, in that order, into
    /// `observer`, and returns it. `deviceFinished` is called after each device
    /// with the device and the number of events it handled. Throws when a
    /// device passes `limits` (see `RunLimits`); the observer is then dropped.
    public static func run<Observer: SimulationObserver, Indices: Sequence<Int>>(
        _ setup: SimulationSetup,
        devices indices: Indices,
        observer: consuming Observer,
        limits: RunLimits = RunLimits(),
        deviceFinished: (inout Observer, DeviceSetup, Int) -> Void = { _, _, _ in }
    ) throws(RunLimitExceeded) -> Observer {
        var observer = observer
        for index in indices {
            let device = setup.population.device(index, master: setup.masterSeed)
            // Hand the observer over rather than share it, so appending rows never copies them.
            var simulator = DeviceSimulator(device: device, of: setup, deviceIndex: index, observer: consume observer)
            simulator.limits = limits
            simulator.run()
            if let stopped = simulator.stopped { throw stopped }
            let events = simulator.eventsProcessed
            observer = simulator.observer
            // Ends the simulator's life here, not at the end of the
            // iteration: while it lived, it shared the observer's buffers,
            // and the first write after the device (`deviceFinished`)
            // copied them, 8 KiB a device for a fleet (README, "Speed").
            _ = consume simulator
            deviceFinished(&observer, device, events)
        }
        return observer
    }

    /// Runs every device of `setup` into `observer`.
    public static func run<Observer: SimulationObserver>(
        _ setup: SimulationSetup, observer: consuming Observer, limits: RunLimits = RunLimits()
    ) throws(RunLimitExceeded) -> Observer {
        try run(setup, devices: 0..<setup.population.count, observer: observer, limits: limits)
    }

    /// Runs every device of `setup` and keeps every row, for the per-event reports.
    public static func run(_ setup: SimulationSetup, limits: RunLimits = RunLimits()) throws(RunLimitExceeded) -> ReportCollector {
        try run(setup, observer: ReportCollector(), limits: limits)
    }
}
