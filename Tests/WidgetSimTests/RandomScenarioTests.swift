import Testing
@testable import WidgetSim

/// Property test: random valid scenarios (any mix of policies, budget models,
/// triggers, pages and latencies) run without crashing, pass `check`, and give
/// the same bytes twice. `make fuzz SEEDS=100000` runs the long sweep.
@Suite("Random scenarios")
struct RandomScenarioTests {
    /// A short sweep for every `make test`; each seed names its reproduction.
    @Test(arguments: Array(UInt64(1)...UInt64(40)))
    func aRandomScenarioRunsPassesCheckAndRepeats(seed: UInt64) {
        let failure = RandomScenario.failure(seed: seed)
        #expect(failure == nil, "seed \(seed): \(failure ?? ""). Reproduce: make fuzz SEED=\(seed)")
    }

    @Test func theSameSeedGeneratesTheSameScenario() {
        #expect(RandomScenario.text(seed: 7) == RandomScenario.text(seed: 7))
        #expect(RandomScenario.text(seed: 7) != RandomScenario.text(seed: 8))
    }
}
