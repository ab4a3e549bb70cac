import FlowCLI

await FlowCommand.main()
