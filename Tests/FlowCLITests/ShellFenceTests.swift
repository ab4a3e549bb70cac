import FlowTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// run-shell's `fence:` with real processes under the real kernel's Landlock: what a step may write and
/// whether it may connect, the read-only default of a shared file, `fence: none`, and a kernel without
/// Landlock (stood in for by `FLOW_LANDLOCK_ABI=0`, LandlockFence).
struct ShellFenceTests {
  /// A machine whose home holds `inside/` and `outside/`, and whose working folder holds `text` as
  /// `fence.yml`.
  static func machine(_ text: String) throws -> Machine {
    let machine = try RunShellTests.shell(text)
    for folder in ["inside", "outside"] {
      try FileManager.default.createDirectory(
        at: machine.home.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try machine.write("fence.yml", text)
    return machine
  }

  static func exists(_ path: String, in machine: Machine) -> Bool {
    FileManager.default.fileExists(atPath: machine.home.appendingPathComponent(path).path)
  }

  static let shared = """

    shared:
      created: 2026-11-18T11:06:40Z
    """

  @Test func aFencedStepWritesBeneathItsWritePaths() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - run-shell:
            script: echo kept > ~/inside/kept.txt
            fence:
              write: [~/inside]
      """)
    let result = await machine.run(["run", "fence.yml"])
    #expect(result.status == 0, "\(result.error)")
    #expect(Self.exists("inside/kept.txt", in: machine))
  }

  @Test func aFencedStepThatWritesElsewhereFailsAndWritesNothing() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - run-shell:
            script: echo lost > ~/outside/lost.txt
            fence:
              read: [~/outside]
              write: [~/inside]
      """)
    let result = await machine.run(["run", "fence.yml"])
    #expect(result.status == 1)
    #expect(!Self.exists("outside/lost.txt", in: machine))
    assertGolden(machine.transcript(result), named: "run-shell/fence-write-outside.txt")
  }

  /// A listener on the loopback interface, and its port; nothing accepts, the backlog completes the
  /// connection.
  static func listener() throws -> (socket: Int32, port: Int) {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(listener >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
          && getsockname(listener, pointer, &length) == 0
      }
    }
    try #require(bound)
    return (listener, Int(UInt16(bigEndian: address.sin_port)))
  }

  static func connecting(port: Int, network: Bool?) -> String {
    """
    flow: 1
    steps:
      - run-shell:
          shell: bash
          script: exec 3<>"/dev/tcp/127.0.0.1/$1"
          arguments: ["\(port)"]
          fence:
            read: [~/inside]\(network.map { "\n        network: \($0)" } ?? "")
    """
  }

  @Test(arguments: [nil, false, true])
  func aFencedStepConnectsOnlyWithNetworkTrue(network: Bool?) async throws {
    let (listener, port) = try Self.listener()
    defer { close(listener) }
    let machine = try Self.machine(Self.connecting(port: port, network: network))
    let result = await machine.run(["run", "fence.yml"])
    if network == true {
      #expect(result.status == 0, "\(result.error)")
    } else {
      #expect(result.status == 1)
      #expect(result.error.contains("Permission denied"), "\(result.error)")
    }
  }

  static let writesOutside = """
    flow: 1
    steps:
      - run-shell:
          script: echo written > ~/outside/written.txt
    """

  @Test func aSharedFilesStepWithNoFenceCannotWrite() async throws {
    let machine = try Self.machine(Self.writesOutside + Self.shared)
    let result = await machine.run(["run", "fence.yml"])
    #expect(result.status == 1)
    #expect(!Self.exists("outside/written.txt", in: machine))
    assertGolden(machine.transcript(result), named: "run-shell/fence-shared-default.txt")
  }

  /// Unfenced on request, a shared file's step may do anything: only the person running it may allow
  /// that (issue 28's one confirmation policy), here with `--yes`.
  @Test func aSharedFilesStepWithFenceNoneCanWrite() async throws {
    let machine = try Self.machine(Self.writesOutside + "\n      fence: none" + Self.shared)
    let unattended = await machine.run(["run", "fence.yml"])
    #expect(unattended.status == 4, "\(unattended.error)")
    #expect(!Self.exists("outside/written.txt", in: machine))
    let result = await machine.run(["run", "fence.yml", "--yes"])
    #expect(result.status == 0, "\(result.error)")
    #expect(Self.exists("outside/written.txt", in: machine))
  }

  @Test func yourOwnFilesStepWithNoFenceRunsUnfenced() async throws {
    let machine = try Self.machine(Self.writesOutside)
    let result = await machine.run(["run", "fence.yml"])
    #expect(result.status == 0, "\(result.error)")
    #expect(Self.exists("outside/written.txt", in: machine))
  }

  /// Embedded workflows of a shared file are the shared file's too.
  @Test func aWorkflowEmbeddedInASharedFileIsFencedToo() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - run-workflow: child.yml
      workflows:
        child.yml:
          flow: 1
          name: Child
          steps:
            - run-shell:
                script: echo written > ~/outside/written.txt
      """ + Self.shared)
    let result = await machine.run(["run", "fence.yml"])
    #expect(result.status == 1)
    #expect(!Self.exists("outside/written.txt", in: machine))
  }

  @Test func withoutLandlockAFencedStepRunsUnfencedAndSaysSo() async throws {
    let machine = try Self.machine(Self.writesOutside + Self.shared)
    let result = await machine.run(["run", "fence.yml"], environment: ["FLOW_LANDLOCK_ABI": "0"])
    #expect(result.status == 0)
    #expect(Self.exists("outside/written.txt", in: machine))
    assertGolden(machine.transcript(result), named: "run-shell/fence-landlock-missing.txt")
  }

  @Test func aFenceNamingAPathThatIsNotThereFailsTheStep() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - run-shell:
            script: "true"
            fence:
              write: [~/not-there]
      """)
    let result = await machine.run(["run", "fence.yml"])
    #expect(result.status == 1)
    assertGolden(machine.transcript(result), named: "run-shell/fence-missing-path.txt")
  }

  @Test func badFencesAreFoundAtValidateAtTheirPlace() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - run-shell:
            script: "true"
            fence:
              write: [backup]
        - run-shell:
            script: "true"
            fence:
              network: yes please
        - run-shell:
            script: "true"
            fence:
              exec: [/usr/bin]
        - run-shell:
            script: "true"
            fence: all
        - run-shell:
            script: "true"
            fence: {read: [~]}
      """)
    let result = await machine.run(["validate", "fence.yml"])
    #expect(result.status == 2)
    assertGolden(machine.transcript(result), named: "run-shell/fence-invalid.txt")
    // Its author meant the home folder, which is written so.
    let home = try Self.machine("flow: 1\nsteps:\n  - run-shell: {script: \"true\", fence: {read: [~/, \"~\"]}}\n")
    #expect(await home.run(["validate", "fence.yml"]).status == 0)
  }

  // MARK: - The card

  /// Every form of fence, in your own file: limits, network, `none`, none declared, computed.
  static let everyForm = """
    flow: 1
    name: Fences
    steps:
      - run-shell:
          script: tar czf "$1" ~/notes
          arguments: [~/backup/notes.tgz]
          fence:
            read: [~/notes]
            write: [~/backup]
      - run-shell:
          script: curl -s https://example.com
          fence: {network: true}
      - run-shell:
          script: rm -rf ~/tmp
          fence: none
      - run-shell:
          script: "true"
      - ask: Which fence?
      - run-shell:
          script: "true"
          fence: ${previous}
    """

  @Test func showSaysEachStepsFence() async throws {
    let machine = try Self.machine(Self.everyForm)
    let result = await machine.run(["show", "fence.yml"])
    #expect(result.status == 0)
    assertGolden(machine.transcript(result), named: "run-shell/fence-show.txt")
  }

  @Test func showSaysASharedFilesStepsAreReadOnlyByDefault() async throws {
    let machine = try Self.machine(Self.writesOutside + Self.shared)
    let result = await machine.run(["show", "fence.yml"])
    assertGolden(machine.transcript(result), named: "run-shell/fence-show-shared.txt")
  }

  @Test func showSaysAFenceCannotHoldWithoutLandlock() async throws {
    let machine = try Self.machine(Self.everyForm)
    let result = await machine.run(["show", "fence.yml"], environment: ["FLOW_LANDLOCK_ABI": "0"])
    assertGolden(machine.transcript(result), named: "run-shell/fence-show-landlock-missing.txt")
  }

  @Test func showJSONCarriesEachStepsFence() async throws {
    let machine = try Self.machine(Self.everyForm)
    let result = await machine.run(["show", "fence.yml", "--json"], environment: ["FLOW_LANDLOCK_ABI": "0"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    let capabilities = try #require(json["capabilities"] as? [String: Any])
    #expect(capabilities["landlock"] as? Bool == false)
    let fences = try #require(capabilities["fences"])
    let text = String(
      decoding: try JSONSerialization.data(withJSONObject: fences, options: [.prettyPrinted, .sortedKeys]),
      as: UTF8.self)
    assertGolden(text + "\n", named: "run-shell/fence-show.json")
  }
}
