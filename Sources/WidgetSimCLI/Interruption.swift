import Dispatch
import Foundation
import WidgetSim

/// SIGINT and SIGTERM end the run cleanly: temporary files are removed, the
/// previous reports stay exactly as they were, and the exit code is 130 or 143.
public enum Interruption {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// Installs the handlers; call once, before any work.
    public static func install() {
        for (number, code) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
            // Delivered to a dispatch queue rather than a C handler, so the
            // clean-up may take locks and remove files.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileHandle.standardError.write(Data("widgetsim: interrupted; earlier reports are unchanged\n".utf8))
                ScratchRegistry.shared.removeAllAndExit(code)
            }
            source.resume()
            sources.append(source)
        }
    }
}
