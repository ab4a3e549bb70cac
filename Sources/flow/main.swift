import CLinux
import FlowCLI

FlowCommand.answerVersion(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
// One malloc arena for every thread. flow does its work on one thread at a time, but Swift's
// concurrency runs it on a worker thread, whose glibc arena grows a page per mprotect call: listing
// 100,000 files made 8,000 of them (a tenth of its CPU time). The main arena grows 128 KiB at a time.
mallopt(M_ARENA_MAX, 1)
// Every command (`--version` has been answered) writes to 140 of the 250 pages of zero-initialised
// data; mapped in one call they cost a one-step run 0.6 ms less than 140 page faults did. `--version`
// touches 30 of them and would pay for the rest.
clinux_populate_bss()
FlowCommand.start(arguments: Array(CommandLine.arguments.dropFirst()), context: .live)
