import Foundation
import WidgetSimCLI

// The executable only installs the interruption handlers, hands its
// arguments to the front end and exits with the code it returns.
Interruption.install()
let code = WidgetSimCommandLine.run(Array(CommandLine.arguments.dropFirst()), console: StandardConsole())
Interruption.exit(code.rawValue)
