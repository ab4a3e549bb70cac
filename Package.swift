// swift-tools-version:6.0
//
// flow: Apple Shortcuts for Linux. The engine lives in library targets; `flow` is a thin executable.
// Import direction (arrows read "imports"), kept acyclic and easy to see:
//
//   flow → FlowCLI → everything below + ArgumentParser ; flow → CLinux (mallopt: one malloc arena),
//     CFlowStart (the command line, handed to the static Swift runtime)
//   FlowRuntime → FlowIntents, FlowScheduler (catalogues are injected, never imported)
//   FlowScheduler → FlowModel, CLinux (cron grammar, next fires, words, unit emitters; the scheduler)
//   FlowPresentation → FlowRuntime, FlowScheduler, FlowIntents, FlowModel (pure: values and strings, never prints)
//   FlowBasics → FlowIntents, FlowHTTP, CLinux (statx for the file actions; pidfd, subreaper: run-shell) ; RaindropIntents → FlowIntents, RaindropModel
//   FlowMCP → FlowIntents, FlowHTTP (JSON-RPC for MCP, both directions; Streamable HTTP through FlowHTTP)
//   FlowIntents → FlowModel → FlowYAML → FlowDiagnostics ; FlowYAML → CLibYAML (the system libyaml)
//   FlowLibrary → CLinux (fstatfs), FlowRuntime, FlowScheduler, FlowSQLite, FlowYAML ; FlowSQLite → CSQLite (the system SQLite)
//   FlowSharing → FlowPresentation, FlowRuntime, FlowModel, CSodium (export, secrets, signatures, keys)
//   RaindropLocal → RaindropModel, FlowSQLite ; RaindropREST → RaindropModel, FlowHTTP
//   flow-fuzz → FlowFuzzing, CFuzzDriver ; FlowFuzzing → FlowCLI (the fuzzing harness, CONTRIBUTING.md)
//
// A module boundary goes where a dependency or an effect enters: libyaml (FlowYAML), SQLite
// (FlowSQLite), HTTP (FlowHTTP), the files flow keeps (FlowLibrary), the terminal and the process
// environment (FlowCLI).
// Dependencies, and why: swift-argument-parser for the command line (11 s to build, no Foundation);
// FlyingFox for loopback servers in tests (14 s, against 75 s for Hummingbird and SwiftNIO);
// the system's libsodium for Ed25519 signatures of shared workflows (see CSodium below for why).
// D-Bus (`notify`) is flow's own client of the wire protocol (FlowBasics/Support/DBus*.swift, 850 lines):
// the one call needs EXTERNAL auth, Hello, AddMatch, Notify and two signals. Measured against the
// alternatives: linking sd-bus (libsystemd, 9 libraries) or libdbus (10) would cost every run their
// loading, and dlopen on first use costs 0.7-0.9 ms (libsystemd.so.0) or 1.0-1.2 ms (libdbus-1.so.3)
// per notifying run plus a C shim of function pointers like CCurlShim; our own code costs a run without
// notify nothing (no library, nothing loaded) and one with it no loading at all, builds with no -dev
// package, and is tested against dbus-daemon and dunst (DesktopServiceTests).

import PackageDescription

/// Settings every Swift target shares: Swift 6 language mode comes from the tools version; these add the
/// upcoming features that keep existentials explicit, and two code-generation flags for start-up
/// (Architecture.md, start-up):
/// - `-disable-concrete-type-metadata-mangled-name-accessors`: a concrete generic type's metadata is
///   reached through its accessor, given the conformances the compiler knows, rather than by a mangled
///   name the runtime decodes, looking each conformance up (the first lookup of each type and protocol
///   scans all 7,000 conformance records): 0.9 M instructions of every run, nothing per step;
/// - `-function-sections`: one section per function, so that `flow` can be linked with the code a start
///   runs laid out together (`Sources/flow/Linking/order.txt`).
let swiftSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .unsafeFlags([
    "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-Xfrontend", "-function-sections",
  ]),
]

/// pkg-config, for the system libraries, only where they live off the compiler's own paths (Homebrew's):
/// on Linux its `-L/usr/lib/x86_64-linux-gnu` would come before `flow`'s Linking folder, and
/// `flow` would load the shared libraries instead of linking in their archives (see `flow` below).
func pkgConfig(_ name: String) -> String? {
  #if os(Linux)
    nil
  #else
    name
  #endif
}

let package = Package(
  name: "flow",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "flow", targets: ["flow"])
  ],
  dependencies: [
    // The command line: the house style for Swift CLIs, links only FoundationEssentials, ~11 s to build.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // Tests only: a real loopback HTTP server (get-url, and later the Raindrop stand-in). No transitive
    // dependencies and a 14 s build, against 75 s for Hummingbird, which would bring SwiftNIO along.
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
  ],
  targets: [
    // MARK: - Engine

    /// The system libyaml (Debian's libyaml-dev), found through pkg-config. Seen only by FlowYAML.
    .systemLibrary(
      name: "CLibYAML",
      pkgConfig: pkgConfig("yaml-0.1"),
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "FlowDiagnostics", swiftSettings: swiftSettings),
    .target(name: "FlowYAML", dependencies: ["CLibYAML", "FlowDiagnostics"], swiftSettings: swiftSettings),
    .target(name: "FlowModel", dependencies: ["FlowYAML", "FlowDiagnostics"], swiftSettings: swiftSettings),
    .target(
      name: "FlowIntents", dependencies: ["CSodium", "FlowDiagnostics", "FlowModel"], swiftSettings: swiftSettings),
    /// JSON-RPC 2.0 for the Model Context Protocol (issue 15): messages over flow's own JSON (key order and
    /// booleans kept), newline framing, and a connection over two file descriptors read on a thread of its
    /// own; the client that runs servers' tools as actions and the server `flow mcp` share it. Not
    /// modelcontextprotocol/swift-sdk: on Linux its HTTP and OAuth files import FoundationNetworking, which
    /// links libcurl and its libraries into every run (a hello world that uses its Client started in 14 ms
    /// against 7 ms, 2.1x; Documentation/MCP.md), and its package graph brings swift-nio, swift-log,
    /// swift-system and swift-docc-plugin, where this layer is ~500 lines over what flow already has.
    .target(name: "FlowMCP", dependencies: ["FlowIntents", "FlowHTTP", "FlowSystem"], swiftSettings: swiftSettings),
    /// How the static Swift runtime finds the command line: from glibc, instead of /proc/self/maps
    /// (ArgumentVector.c). Linked by the `flow` executable only.
    .target(name: "CFlowStart"),
    /// The Swift runtime's concurrency hooks, through which `flow` runs its jobs on the main thread
    /// (FlowCLI.MainThreadExecutor). Declarations only: the runtime defines them.
    .systemLibrary(name: "CSwiftConcurrency"),
    /// libcurl, loaded with dlopen on the first request (not linked: see CurlTransport).
    .target(name: "CCurlShim", linkerSettings: [.linkedLibrary("dl")]),
    .target(name: "FlowHTTP", dependencies: ["CCurlShim"], swiftSettings: swiftSettings),
    .target(
      name: "FlowBasics", dependencies: ["FlowDiagnostics", "FlowIntents", "FlowHTTP"], swiftSettings: swiftSettings),
    /// Every Linux adapter: the one `Subprocess`, files and the Trash, D-Bus, the clipboard, xdg-open, the
    /// main-thread executor and the service thread.
    .target(
      name: "FlowSystem", dependencies: ["CLinux", "CSwiftConcurrency", "FlowBasics", "FlowIntents"],
      swiftSettings: swiftSettings),
    /// timerfd and eventfd, which Swift's Glibc module leaves out: the scheduler's one timer and its doorbell.
    .systemLibrary(name: "CLinux"),
    /// Cron expressions, next fire times with cronie's daylight-saving rules, their words, and the units
    /// for systemd, cron and Kubernetes (pure: Foundation's TimeZone is their only outside knowledge);
    /// and the scheduler `flow schedule` runs, over small protocols with Linux implementations.
    .target(name: "FlowCron", dependencies: ["FlowDiagnostics", "FlowModel"], swiftSettings: swiftSettings),
    .target(
      name: "FlowScheduler",
      dependencies: ["CLinux", "FlowCron", "FlowDiagnostics", "FlowLibrary", "FlowModel", "FlowSystem"],
      swiftSettings: swiftSettings),
    .target(
      name: "FlowRuntime",
      dependencies: ["FlowModel", "FlowIntents", "FlowCron", "FlowYAML", "FlowDiagnostics"],
      swiftSettings: swiftSettings),
    /// What `flow show`, `flow list`, `flow schema` and the import card present: the outline of a
    /// workflow, what it may do, their terminal rendering, and the editor schema. Builds strings only.
    .target(
      name: "FlowPresentation",
      dependencies: ["FlowDiagnostics", "FlowModel", "FlowIntents", "FlowRuntime", "FlowCron"],
      swiftSettings: swiftSettings),

    /// The system SQLite (Debian's libsqlite3-dev), found through pkg-config. Seen only by FlowSQLite.
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: pkgConfig("sqlite3"),
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    /// The one SQLite wrapper: the local store and run history share its WAL and busy handling.
    .target(name: "FlowSQLite", dependencies: ["CSQLite"], swiftSettings: swiftSettings),
    /// The files flow keeps besides the local store: XDG paths, config.yml, run history, workflow locks.
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

    /// Ed25519 and SHA-256 for signing shared workflows (issue 9), from the system's libsodium
    /// (Debian's libsodium-dev), found through pkg-config: the standard C library for exactly this.
    /// It replaced swift-crypto (issue 17), whose BoringSSL was 375 of the 444 steps of a clean release
    /// build. Measured on the same tree before and after, each from nothing with -j 1 (CPU time, user +
    /// sys, on a 2-core machine shared with other builds, which inflates wall time far more than CPU):
    /// `swift build -c release` 687 s -> 404 s of CPU (-41%; 444 -> 68 steps); `swift build --build-tests`
    /// 545 s -> 331 s (-39%); the release binary 34.3 -> 21.6 MB with 2,002 -> 1,596 conformance records
    /// for the runtime to scan; `flow --version` 17.5 -> 16.7 ms of CPU. libsodium is one package on
    /// every distribution, like libyaml and SQLite (Scripts/setup.sh installs it). Ed25519 is
    /// deterministic, so keys and signatures are byte for byte the same (SignatureTests).
    .systemLibrary(
      name: "CSodium",
      pkgConfig: pkgConfig("libsodium"),
      providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]
    ),
    /// Sharing workflows (issue 9): export with embedded workflows, the secrets check, Ed25519 signatures,
    /// keys, the import questions and provenance. Files only in the key store and provenance records.
    .target(
      name: "FlowSharing",
      dependencies: [
        "CSodium", "FlowDiagnostics", "FlowIntents", "FlowLibrary", "FlowModel", "FlowPresentation", "FlowRuntime",
        "FlowYAML",
      ],
      swiftSettings: swiftSettings),

    // MARK: - Command line

    .target(
      name: "FlowCLI",
      dependencies: [
        "FlowBasics", "FlowDiagnostics", "FlowIntents", "FlowLibrary", "FlowMCP", "FlowModel", "FlowPresentation",
        "FlowCron", "FlowHistory", "FlowRuntime", "FlowScheduler", "FlowSharing", "FlowSystem",
        "FlowYAML",
        "RaindropIntents", "RaindropLocal", "RaindropModel", "RaindropREST",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swiftSettings
    ),
    // Installed as a fixed-address executable (`-Xlinker -no-pie`, README): that flag is given on the
    // command line with `--static-swift-stdlib`, never here, because against the toolchain's shared Swift
    // runtime a fixed-address `flow` makes the dynamic linker warn about every key path into it.
    // On Linux `flow` links in the system's static archives of SQLite, libsodium and libyaml, and of the
    // C++ runtime that the static Swift runtime needs: loading them as shared libraries made the dynamic
    // linker bind 1,900 symbols before main (SQLite's 1,610 among them, bound at once), 2.0 M
    // instructions of a start. Linking holds a one-line linker script for each (`libsqlite3.so` says
    // `INPUT(libsqlite3.a)`), first on flow's library path (the test bundle links the shared ones), and
    // exports.map, which keeps flow's own symbols out of its dynamic symbol table (why: in the file).
    // `flow` is linked by lld, which ships with the toolchain, for `--symbol-ordering-file`: order.txt
    // lists the functions a start runs and the data it touches (`Scripts/order-symbols.sh` writes it
    // with callgrind and lackey), and lld lays the sections holding them out together, data included,
    // which gold's `--section-ordering-file` could not (a Swift object's .bss, .data and metadata are one
    // section each, named alike in every object). A one-step run went from 399 page faults to 272 and
    // from 1.05x `just` to 0.95x (300 interleaved rounds; gold with the functions ordered gave 1.05x, lld
    // with them alone 1.02x). A symbol the list lacks is laid out as before, so a stale list costs speed,
    // never correctness. `-static-libgcc` links the unwinder
    // (libgcc_eh.a) rather than loading libgcc_s.so: one shared library fewer to find, map and relocate,
    // and one fewer for every lazily bound call to search, was 0.15 ms of `flow --version` and 0.14 ms of
    // a one-step run (interleaved). libm stays shared: glibc's libm.a needs libc.a's private symbols.
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
      dependencies: ["CLibYAML", "FlowYAML"],
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

    /// What each fuzz target feeds its input to, through the command line's own entry points; a library so
    /// that FlowFuzzingTests replays the regressions through the same functions.
    .target(name: "FlowFuzzing", dependencies: ["FlowCLI"], swiftSettings: swiftSettings),
    /// LLVMFuzzerRunDriver as a weak symbol: present when Scripts/fuzz.sh links with -sanitize=fuzzer,
    /// null in the normal build, where flow-fuzz only replays the inputs it is given.
    .target(name: "CFuzzDriver"),
    .executableTarget(
      name: "flow-fuzz", dependencies: ["CFuzzDriver", "FlowFuzzing"], swiftSettings: swiftSettings),

    // MARK: - Tests

    /// posix_openpt and friends, which Swift cannot import from Glibc, for the pseudo-terminal tests.
    .target(name: "CPseudoTerminal"),
    .target(
      name: "FlowTestSupport",
      dependencies: ["CPseudoTerminal", "FlowDiagnostics", .product(name: "FlyingFox", package: "FlyingFox")],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowDiagnosticsTests",
      dependencies: ["FlowDiagnostics", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowYAMLTests",
      dependencies: ["FlowYAML", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowModelTests",
      dependencies: ["FlowModel", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowSchedulerTests",
      dependencies: ["FlowScheduler", "FlowCron", "FlowModel", "FlowSystem", "FlowYAML", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowHTTPTests",
      dependencies: ["FlowHTTP", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowIntentsTests",
      dependencies: ["FlowIntents", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowMCPTests",
      dependencies: ["FlowMCP", "FlowIntents", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowBasicsTests",
      dependencies: ["FlowBasics", "FlowIntents", "FlowHTTP", "FlowSystem", "FlowTestSupport"],
      swiftSettings: swiftSettings
    ),
    /// The Linux adapters against real parts: processes, the Trash and trash-cli, dunst on a private D-Bus
    /// session bus, xclip under Xvfb.
    .testTarget(
      name: "FlowSystemTests",
      dependencies: ["FlowSystem", "FlowBasics", "FlowIntents", "FlowTestSupport"],
      exclude: ["Goldens"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FlowRuntimeTests",
      dependencies: ["FlowRuntime", "FlowBasics", "FlowModel", "FlowYAML", "FlowTestSupport"],
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
        "FlowCLI", "FlowCron", "FlowDiagnostics", "FlowHistory", "FlowIntents", "FlowLibrary", "FlowPresentation",
        "FlowScheduler",
        "FlowTestSupport", "RaindropLocal", "RaindropModel", "RaindropStubServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: [
        "Corpus", "Goldens", "Hardening", "Hostile", "MCPServer", "Schedules", "SchemaCorpus", "SharePage", "Sharing",
      ],
      swiftSettings: swiftSettings
    ),

    .testTarget(
      name: "FlowFuzzingTests",
      dependencies: ["FlowFuzzing"],
      swiftSettings: swiftSettings
    ),

    // MARK: - Raindrop
    //
    //   RaindropLocal → RaindropModel, FlowSQLite ; RaindropREST → RaindropModel, FlowHTTP
    //   RaindropStubServer → RaindropLocal, FlyingFox (tests and the benchmark only)

    .target(name: "RaindropModel", swiftSettings: swiftSettings),
    .target(
      name: "RaindropIntents", dependencies: ["FlowDiagnostics", "FlowIntents", "RaindropModel"],
      swiftSettings: swiftSettings),
    .target(name: "RaindropLocal", dependencies: ["FlowSQLite", "RaindropModel"], swiftSettings: swiftSettings),
    .target(name: "RaindropREST", dependencies: ["FlowHTTP", "RaindropModel"], swiftSettings: swiftSettings),
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
        "RaindropStubServer",
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "RaindropLocalTests",
      dependencies: ["RaindropLocal", "RaindropModel"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "RaindropRESTTests",
      dependencies: ["FlowHTTP", "RaindropModel", "RaindropREST"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BackendContractTests",
      dependencies: ["FlowHTTP", "RaindropLocal", "RaindropModel", "RaindropREST", "RaindropStubServer"],
      swiftSettings: swiftSettings
    ),
  ]
)
