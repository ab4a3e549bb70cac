// swift-tools-version:6.0
//
// flow: Apple Shortcuts for Linux. The engine lives in library targets; `flow` is a thin executable.
// Documentation/Architecture.md draws the module graph and its rules; Documentation/Performance.md has the
// measurements behind the dependencies and settings below.

import PackageDescription

/// Every Swift target: existentials kept explicit; a generic type's metadata through its accessor, not a mangled
/// name the runtime decodes by scanning conformances; one section per function, for the start-up layout.
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .unsafeFlags([
    "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-Xfrontend", "-function-sections",
  ]),
]

let package = Package(
  name: "flow",
  // Linux only: Architecture.md says what macOS would need.
  products: [
    .executable(name: "flow", targets: ["flow"])
  ],
  dependencies: [
    // The command line: the house style for Swift CLIs, links only FoundationEssentials, ~11 s to build.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // Tests only: a real loopback HTTP server, with no transitive dependencies (Hummingbird brings SwiftNIO).
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
  ],
  targets: [
    // MARK: - Engine

    /// The system libyaml (Debian's libyaml-dev), found through pkg-config. Seen only by FlowYAML.
    .systemLibrary(
      name: "CLibYAML",
      providers: [.apt(["libyaml-dev"])]
    ),
    // ICU (the toolchain's `_FoundationICU`, which Foundation itself is built on) for regular expressions,
    // dates, case folding and collation, called directly so that flow links no swift-corelibs-foundation.
    .target(
      name: "FlowDiagnostics", swiftSettings: swiftSettings, linkerSettings: [.linkedLibrary("_FoundationICU")]),
    .target(name: "FlowYAML", dependencies: ["CLibYAML", "FlowDiagnostics"], swiftSettings: swiftSettings),
    .target(name: "FlowModel", dependencies: ["FlowYAML", "FlowDiagnostics"], swiftSettings: swiftSettings),
    .target(
      name: "FlowIntents", dependencies: ["CSodium", "FlowDiagnostics", "FlowModel"], swiftSettings: swiftSettings),
    /// JSON-RPC 2.0 for MCP, client and server: not the MCP Swift SDK, which links libcurl into every run.
    .target(
      name: "FlowMCP", dependencies: ["FlowDiagnostics", "FlowIntents", "FlowHTTP", "FlowSystem"],
      swiftSettings: swiftSettings),
    /// The command line handed to the static Swift runtime from glibc, not read from /proc/self/maps (`flow` only).
    .target(name: "CFlowStart"),
    /// The Swift runtime's concurrency hooks, through which FlowSystem's MainThreadExecutor runs every job.
    .systemLibrary(name: "CSwiftConcurrency"),
    /// libcurl, loaded with dlopen on the first request (not linked: see CurlTransport).
    .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "FlowHTTP", dependencies: ["CCurlShim", "FlowDiagnostics"], swiftSettings: swiftSettings),
    .target(
      name: "FlowBasics", dependencies: ["FlowDiagnostics", "FlowHTTP", "FlowIntents", "FlowModel"],
      swiftSettings: swiftSettings),
    /// Every Linux adapter, so that effects enter in one module: the one `Subprocess`, files, D-Bus, the threads.
    .target(
      name: "FlowSystem",
      dependencies: ["CLinux", "CSwiftConcurrency", "FlowBasics", "FlowDiagnostics", "FlowIntents"],
      swiftSettings: swiftSettings),
    /// The Linux calls Swift's Glibc module leaves out (timerfd, eventfd, signalfd, statx, pidfd, pipe2, ...).
    .systemLibrary(name: "CLinux"),
    /// Cron, next fires, their words and units, pure (Foundation's TimeZone only), so the checker needs no effects.
    .target(name: "FlowCron", dependencies: ["FlowDiagnostics", "FlowModel"], swiftSettings: swiftSettings),
    .target(
      name: "FlowScheduler",
      dependencies: [
        "CLinux", "FlowCron", "FlowDiagnostics", "FlowHistory", "FlowIntents", "FlowLibrary", "FlowModel",
        "FlowPresentation", "FlowRuntime", "FlowSession", "FlowSharing", "FlowSystem",
      ],
      swiftSettings: swiftSettings),
    .target(
      name: "FlowRuntime",
      dependencies: ["FlowModel", "FlowIntents", "FlowCron", "FlowYAML", "FlowDiagnostics"],
      swiftSettings: swiftSettings),
    /// What `show`, `list`, `schema` and the import card present, as values and strings: it never prints.
    .target(
      name: "FlowPresentation",
      dependencies: ["FlowDiagnostics", "FlowModel", "FlowIntents", "FlowRuntime", "FlowCron"],
      swiftSettings: swiftSettings),

    /// The system SQLite (Debian's libsqlite3-dev), found through pkg-config. Seen only by FlowSQLite.
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    /// The one SQLite wrapper: the local store and run history share its WAL and busy handling.
    .target(name: "FlowSQLite", dependencies: ["CSQLite"], swiftSettings: swiftSettings),
    /// The files flow keeps besides the store and history: XDG paths, config.yml, the one file reader, locks.
    .target(
      name: "FlowLibrary",
      dependencies: [
        "CLinux", "FlowDiagnostics", "FlowIntents", "FlowModel", "FlowRuntime", "FlowSQLite", "FlowYAML",
      ],
      swiftSettings: swiftSettings),
    /// Run history: what each run did, step by step, in SQLite (History.md).
    .target(
      name: "FlowHistory",
      dependencies: ["FlowDiagnostics", "FlowIntents", "FlowLibrary", "FlowRuntime", "FlowSQLite"],
      swiftSettings: swiftSettings),

    /// The system's libsodium for signatures: it replaced swift-crypto, whose BoringSSL was most of a clean build.
    .systemLibrary(
      name: "CSodium",
      providers: [.apt(["libsodium-dev"])]
    ),
    /// Sharing workflows (issue 9): export, the secrets check, signatures, keys, import questions, provenance.
    .target(
      name: "FlowSharing",
      dependencies: [
        "CSodium", "FlowDiagnostics", "FlowIntents", "FlowLibrary", "FlowModel", "FlowPresentation", "FlowRuntime",
        "FlowYAML",
      ],
      swiftSettings: swiftSettings),

    /// How a run happens on this machine, apart from the terminal: context, catalogues, backends, history, locks.
    .target(
      name: "FlowSession",
      dependencies: [
        "FlowCron",
        "FlowBasics", "FlowDiagnostics", "FlowHTTP", "FlowHistory", "FlowIntents", "FlowLibrary", "FlowMCP",
        "FlowModel", "FlowPresentation", "FlowRuntime", "FlowSharing", "FlowSystem", "FlowYAML", "RaindropIntents",
        "RaindropLocal", "RaindropModel", "RaindropREST",
      ],
      swiftSettings: swiftSettings),

    /// `flow mcp`: workflows and actions as an MCP server's tools, over stdio or Streamable HTTP on loopback.
    .target(
      name: "FlowMCPServer",
      dependencies: [
        "CLinux", "FlowDiagnostics", "FlowIntents", "FlowLibrary", "FlowMCP", "FlowModel", "FlowPresentation",
        "FlowRuntime",
        "FlowSession", "FlowSystem",
      ],
      swiftSettings: swiftSettings),

    // MARK: - Command line

    .target(
      name: "FlowCLI",
      dependencies: [
        "FlowHTTP",
        "FlowBasics", "FlowDiagnostics", "FlowIntents", "FlowLibrary", "FlowMCP", "FlowModel", "FlowPresentation",
        "FlowCron", "FlowHistory", "FlowMCPServer", "FlowRuntime", "FlowScheduler", "FlowSession", "FlowSharing",
        "FlowSystem",
        "FlowYAML",
        "RaindropIntents", "RaindropLocal", "RaindropModel", "RaindropREST",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    // `-Xlinker -no-pie` goes on the command line with --static-swift-stdlib (README): the shared runtime warns.
    // Linking/ comes first on the library path: its scripts link SQLite, libsodium, libyaml, libstdc++ from archives.
    // `-static-libgcc`: the unwinder linked in, one shared library fewer; libm stays shared (libm.a needs libc.a).
    // exports.map: no exported symbols, which the crash reporter's dladdr would walk at every start.
    // lld, for --symbol-ordering-file: order.txt lays out together the code and data a start touches.
    .executableTarget(
      name: "flow", dependencies: ["CFlowStart", "CLinux", "FlowCLI"], exclude: ["Linking"],
      swiftSettings: swiftSettings,
      linkerSettings: [
        .unsafeFlags(
          [
            "-L\(Context.packageDirectory)/Sources/flow/Linking", "-Xclang-linker", "-static-libgcc",
            "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/flow/Linking/exports.map",
            "-use-ld=lld", "-Xlinker",
            "--symbol-ordering-file=\(Context.packageDirectory)/Sources/flow/Linking/order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
          ], .when(platforms: [.linux]))
      ]),

    // MARK: - Benchmarks (run on demand: Scripts/bench-yaml.sh)

    .executableTarget(
      name: "flow-bench",
      dependencies: ["FlowDiagnostics", "CLibYAML", "FlowYAML"],
      path: "Sources/FlowBenchmarks",
      swiftSettings: swiftSettings
    ),

    /// Next-fire computations per second against a minute-by-minute search (Scripts/bench-cron.sh).
    .executableTarget(
      name: "cron-bench",
      dependencies: ["FlowCron"],
      path: "Benchmarks/cron-bench",
      swiftSettings: swiftSettings
    ),

    // MARK: - Fuzzing (run on demand: Scripts/fuzz.sh, CONTRIBUTING.md)

    /// The fuzz targets, a library so that FlowFuzzingTests replays the regressions through the same functions.
    .target(
      name: "FlowFuzzing",
      dependencies: [
        "FlowBasics", "FlowCron", "FlowDiagnostics", "FlowIntents", "FlowMCP", "FlowMCPServer", "FlowModel",
        "FlowPresentation", "FlowRuntime", "FlowSession", "FlowSharing", "FlowSystem", "FlowYAML",
      ], swiftSettings: swiftSettings),
    /// LLVMFuzzerRunDriver as a weak symbol, so the normal build links without libFuzzer and only replays.
    .target(name: "CFuzzDriver"),
    .executableTarget(
      name: "flow-fuzz", dependencies: ["CFuzzDriver", "FlowFuzzing"], swiftSettings: swiftSettings),

    // MARK: - Tests

    /// posix_openpt and friends, which Swift cannot import from Glibc, for the pseudo-terminal tests.
    .target(name: "CPseudoTerminal"),
    .target(
      name: "FlowTestSupport",
      dependencies: [
        "CPseudoTerminal", "FlowDiagnostics", "FlowIntents", "FlowModel",
        .product(name: "FlyingFox", package: "FlyingFox"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowDiagnosticsTests",
      dependencies: ["FlowDiagnostics", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowYAMLTests",
      dependencies: ["FlowDiagnostics", "FlowYAML", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowModelTests",
      dependencies: ["FlowYAML", "FlowDiagnostics", "FlowModel", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowSchedulerTests",
      dependencies: [
        "FlowLibrary", "FlowDiagnostics", "FlowScheduler", "FlowCron", "FlowModel", "FlowSystem", "FlowYAML",
        "FlowSession",
        "FlowTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowHTTPTests",
      dependencies: ["FlowHTTP", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowIntentsTests",
      dependencies: ["FlowDiagnostics", "FlowModel", "FlowIntents", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowMCPTests",
      dependencies: ["FlowMCP", "FlowIntents", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowMCPServerTests",
      dependencies: ["FlowMCPServer", "FlowMCP", "FlowIntents", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowBasicsTests",
      dependencies: ["FlowBasics", "FlowIntents", "FlowHTTP", "FlowSystem", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    /// The Linux adapters against real parts: processes, trash-cli, dunst on a private bus, xclip under Xvfb.
    .testTarget(
      name: "FlowSystemTests",
      dependencies: ["FlowSystem", "FlowBasics", "FlowIntents", "FlowTestSupport"],
      exclude: ["Goldens"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowRuntimeTests",
      dependencies: [
        "FlowIntents", "FlowDiagnostics", "FlowRuntime", "FlowBasics", "FlowModel", "FlowYAML", "FlowTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowLibraryTests",
      dependencies: [
        "FlowLibrary", "FlowDiagnostics", "FlowIntents", "FlowRuntime", "FlowTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowHistoryTests",
      dependencies: [
        "FlowHistory", "FlowLibrary", "FlowDiagnostics", "FlowIntents", "FlowRuntime", "FlowSQLite", "FlowTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowPresentationTests",
      dependencies: [
        "FlowDiagnostics",
        "FlowPresentation", "FlowBasics", "FlowCron", "FlowIntents", "FlowModel", "FlowRuntime", "FlowYAML",
        "FlowTestSupport",
        "RaindropIntents",
      ],
      exclude: ["Goldens"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowSharingTests",
      dependencies: [
        "FlowSharing", "FlowBasics", "FlowDiagnostics", "FlowIntents", "FlowModel", "FlowPresentation", "FlowRuntime",
        "FlowYAML", "FlowTestSupport", "RaindropIntents",
      ],
      exclude: ["Goldens", "Secrets"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowCLITests",
      dependencies: [
        "CLinux", "FlowRuntime", "FlowMCP", "FlowBasics", "FlowHTTP", "FlowModel", "FlowYAML",
        "FlowCLI", "FlowCron", "FlowDiagnostics", "FlowHistory", "FlowMCPServer", "FlowSession", "FlowSystem",
        "FlowIntents",
        "FlowLibrary", "FlowPresentation",
        "FlowScheduler",
        "FlowTestSupport", "RaindropLocal", "RaindropModel", "RaindropStubServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: [
        "Corpus", "Goldens", "Hardening", "Hostile", "MCPServer", "Schedules", "SchemaCorpus", "SharePage", "Sharing",
      ],
      swiftSettings: swiftSettings
    ),

    /// Package.swift against the code's imports and Architecture.md's map.
    .testTarget(name: "PackageTests", swiftSettings: swiftSettings),

    .testTarget(
      name: "FlowFuzzingTests",
      dependencies: ["FlowSharing", "FlowFuzzing", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),

    // MARK: - Raindrop

    .target(name: "RaindropModel", dependencies: ["FlowDiagnostics"], swiftSettings: swiftSettings),
    .target(
      name: "RaindropIntents", dependencies: ["FlowDiagnostics", "FlowIntents", "RaindropModel"],
      swiftSettings: swiftSettings),
    .target(
      name: "RaindropLocal", dependencies: ["FlowDiagnostics", "FlowSQLite", "RaindropModel"],
      swiftSettings: swiftSettings),
    .target(
      name: "RaindropREST", dependencies: ["FlowDiagnostics", "FlowHTTP", "RaindropModel"], swiftSettings: swiftSettings
    ),
    .target(
      name: "RaindropStubServer",
      dependencies: ["RaindropLocal", "RaindropModel", .product(name: "FlyingFox", package: "FlyingFox")],
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "raindrop-bench",
      dependencies: ["FlowHTTP", "RaindropLocal", "RaindropModel", "RaindropREST", "RaindropStubServer"],
      path: "Benchmarks/raindrop-bench",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "RaindropIntentsTests",
      dependencies: [
        "FlowHTTP", "FlowIntents", "RaindropIntents", "RaindropLocal", "RaindropModel", "RaindropREST",
        "RaindropStubServer", "FlowTestSupport",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "RaindropLocalTests",
      dependencies: ["FlowSQLite", "RaindropLocal", "RaindropModel"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "RaindropRESTTests",
      dependencies: ["FlowHTTP", "RaindropModel", "RaindropREST", "RaindropStubServer"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BackendContractTests",
      dependencies: ["FlowHTTP", "RaindropLocal", "RaindropModel", "RaindropREST", "RaindropStubServer"],
      swiftSettings: swiftSettings
    ),
  ]
)
