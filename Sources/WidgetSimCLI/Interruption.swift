import Dispatch
import Foundation
import WidgetSim

/// SIGINT, SIGTERM and SIGHUP end the run cleanly through
/// `InterruptionGuard`: temporary files are removed, the reports are either
/// the old ones (exit 130, 143 or 129) or the complete new ones (exit 0),
/// and the message says which. SIGPIPE is ignored, so a closed output pipe
/// ends nothing half-way.
public enum Interruption {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let queue = DispatchQueue(label: "widgetsim.interruption")

    /// Installs the handlers; call once, before any work.
    public static func install() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            // Delivered to one serial queue rather than a C handler, so the
            // clean-up may take locks and remove files.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                InterruptionGuard.shared.interrupted(by: number) { message in
                    ProgressLine.stopForInterruption()
                    StandardConsole().err(message)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Ends the process with `code`, never racing a handler.
    public static func exit(_ code: Int32) -> Never {
        InterruptionGuard.shared.exit(code)
    }
}
