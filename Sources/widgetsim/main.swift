import Foundation
import WidgetSimCLI

// The executable only hands its arguments to the front end and exits with
// the code it returns; everything else lives in the libraries.
let code = WidgetSimCommandLine.run(Array(CommandLine.arguments.dropFirst()), console: StandardConsole())
exit(code.rawValue)
