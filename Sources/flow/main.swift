import FlowCLI

FlowCommand.start(arguments: Array(CommandLine.arguments.dropFirst()), context: .live)
