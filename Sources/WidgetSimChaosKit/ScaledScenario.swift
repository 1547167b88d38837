import Foundation

public enum ScaledScenarioError: Error, CustomStringConvertible {
    case unreadable(String, reason: String)
    case noDevices(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): cannot read the scenario: \(reason)"
        case .noDevices(let path): return "\(path): the scenario has no 'devices' list to copy"
        }
    }
}

/// A scenario made long enough to be interrupted anywhere: its devices
/// copied `devices` times under new ids, over `days` days.
///
/// Promised: the same inputs give the same bytes (keys sorted), so a
/// campaign's runs are reproducible from its seed.
public enum ScaledScenario {
    public static func text(from path: String, devices copies: Int, days: Int) throws(ScaledScenarioError) -> String {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path, reason: "\(error)")
        }
        guard var scenario = object as? [String: Any], let devices = scenario["devices"] as? [[String: Any]], !devices.isEmpty else {
            throw .noDevices(path)
        }
        var copied: [[String: Any]] = []
        for copy in 1...max(1, copies) {
            for var device in devices {
                device["id"] = "\(device["id"] as? String ?? "device")-\(copy)"
                copied.append(device)
            }
        }
        scenario["devices"] = copied
        scenario["days"] = days
        do {
            let data = try JSONSerialization.data(withJSONObject: scenario, options: [.sortedKeys, .prettyPrinted])
            return String(decoding: data, as: UTF8.self) + "\n"
        } catch {
            throw .unreadable(path, reason: "\(error)")
        }
    }
}
