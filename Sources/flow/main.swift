import CLinux
import FlowCLI

FlowCommand.answerVersion(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
// One malloc arena for every thread. flow does its work on one thread at a time, but Swift's
// concurrency runs it on a worker thread, whose glibc arena grows a page per mprotect call: listing
// 100,000 files made 8,000 of them (a tenth of its CPU time). The main arena grows 128 KiB at a time.
mallopt(M_ARENA_MAX, 1)
FlowCommand.start(arguments: Array(CommandLine.arguments.dropFirst()), context: .live)
