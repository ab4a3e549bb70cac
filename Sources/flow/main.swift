import FlowCLI
import Foundation

exit(await FlowCommand.main(arguments: Array(CommandLine.arguments.dropFirst()), context: .live))
