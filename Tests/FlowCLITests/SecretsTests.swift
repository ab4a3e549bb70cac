import FlowIntents
import FlowTestSupport
import Foundation
import Testing

/// Secrets (Secrets.md) against GNOME Keyring on a private session bus: `flow secrets set/list/remove`,
/// `secret-tool` seeing flow's items, a run reading one, and the value found nowhere it must not be —
/// standard output and error, `--json`, run history, an export, an MCP tool's result. Then what happens
/// without a keyring: no bus, a bus without the service, a locked keyring, and the opt-in file store.
@Suite(.serialized)
struct SecretsTests {
  static let value = "s3cr3t-Value-7f2d9a"

  static let workflow = """
    flow: 1
    name: uses-secret
    secrets: [api-token]
    steps:
      - show: the token is ${secret.api-token}
      - combine-text: ["Bearer", "${secret.api-token}"]
      - show: ${previous}
      - change-case: ${secret.api-token}
        as: shouting
      - show: done
    """

  static func machine(_ keyring: PrivateKeyring?) throws -> Machine {
    try Machine { home in
      var environment = ["NO_COLOR": "1", "HOME": home.path, "XDG_RUNTIME_DIR": "/nonexistent-runtime"]
      if let keyring { environment["DBUS_SESSION_BUS_ADDRESS"] = keyring.busAddress }
      return environment
    }
  }

  /// Every file under `folder`, read as bytes: whether any holds `needle`.
  static func filesHolding(_ needle: String, under folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    var found: [String] = []
    while let url = enumerator?.nextObject() as? URL {
      guard let data = try? Data(contentsOf: url) else { continue }
      if data.range(of: Data(needle.utf8)) != nil { found.append(url.path) }
    }
    return found
  }

  @Test func setReadInARunSeenBySecretToolNeverShownAndRemoved() async throws {
    guard let keyring = try PrivateKeyring.start() else { return }
    defer { keyring.stop() }
    let machine = try Self.machine(keyring)
    let set = await machine.run(["secrets", "set", "api-token"], lines: [Self.value])
    #expect(set.status == 0, "\(set.error)")
    #expect(set.output == "Stored secret 'api-token' in the keyring.\n")
    // libsecret's own tool finds flow's item by the attributes Secrets.md gives.
    let lookup = try keyring.run("secret-tool", ["lookup", "service", "flow", "account", "api-token"])
    #expect(lookup.output == Self.value)
    let search = try keyring.run("secret-tool", ["search", "xdg:schema", "dev.flow.Secret"])
    #expect(search.output.contains("label = flow: api-token"), "\(search.output)")
    let list = await machine.run(["secrets", "list"])
    #expect(list.output == "api-token\n")

    try machine.write("uses-secret.yml", Self.workflow)
    let run = await machine.run(["run", "uses-secret.yml"], id: "secret-1")
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output == "the token is ••••\nBearer ••••\ndone\n", "\(run.output)")
    let json = await machine.run(["run", "uses-secret.yml", "--json"], id: "secret-2")
    #expect(json.status == 0, "\(json.error)")
    let shown = await machine.run(["runs", "show", "secret-1"])
    let shownJSON = await machine.run(["runs", "show", "secret-2", "--json"])
    let listed = await machine.run(["runs", "--json"])
    let export = await machine.run(["export", "uses-secret.yml", "-o", "shared.yml"])
    #expect(export.status == 0, "\(export.error)")
    for (place, text) in [
      ("set", set.output + set.error), ("run", run.output + run.error), ("--json", json.output + json.error),
      ("runs show", shown.output + shown.error), ("runs show --json", shownJSON.output),
      ("runs --json", listed.output), ("export", export.output + export.error),
    ] {
      #expect(!text.contains(Self.value), "\(place) shows the secret: \(text)")
    }
    // The history database, its pending file, traces and the exported file: no byte of the value.
    #expect(Self.filesHolding(Self.value, under: machine.home) == [])
    #expect(!shown.output.isEmpty)

    let remove = await machine.run(["secrets", "remove", "api-token"])
    #expect(remove.status == 0, "\(remove.error)")
    let gone = try keyring.run("secret-tool", ["lookup", "service", "flow", "account", "api-token"])
    #expect(gone.output == "")
    let again = await machine.run(["secrets", "remove", "api-token"])
    #expect(again.status == 2)
  }

  /// `flow mcp`, the real binary: a workflow that reads a secret, called as a tool; the result the client
  /// gets, and all the server writes, hold no byte of the value.
  @Test func anMCPToolResultNeverCarriesTheValue() throws {
    guard let keyring = try PrivateKeyring.start() else { return }
    defer { keyring.stop() }
    _ = try keyring.run(
      "secret-tool",
      [
        "store", "--label=flow: api-token", "xdg:schema", "dev.flow.Secret", "service", "flow",
        "account", "api-token",
      ], input: Self.value)
    let machine = try Self.machine(keyring)
    try FileManager.default.createDirectory(at: machine.library, withIntermediateDirectories: true)
    try Self.workflow.write(
      to: machine.library.appendingPathComponent("uses-secret.yml"), atomically: true, encoding: .utf8)
    let (input, output, errors) = (Pipe(), Pipe(), Pipe())
    let process = try machine.launch(["mcp"], input: input, output: output, error: errors)
    defer { if process.isRunning { process.terminate() } }
    for line in [
      MCPServerProcessTests.initialize, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
      #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"uses-secret","arguments":{}}}"#,
    ] {
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }
    // The answer to the call is read before hanging up: a client that hangs up cancels its calls.
    var answers = ""
    while !answers.contains(#""id":2"#) {
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      answers += String(decoding: chunk, as: UTF8.self)
    }
    try input.fileHandleForWriting.close()
    answers += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let logged = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(answers.contains("the token is ••••"), "\(answers) \(logged)")
    #expect(!answers.contains(Self.value))
    #expect(!logged.contains(Self.value))
    #expect(Self.filesHolding(Self.value, under: machine.home) == [])
  }

  @Test func aDeclaredSecretTheKeyringLacksStopsTheRunBeforeStepOne() async throws {
    guard let keyring = try PrivateKeyring.start() else { return }
    defer { keyring.stop() }
    let machine = try Self.machine(keyring)
    try machine.write("uses-secret.yml", Self.workflow)
    let result = await machine.run(["run", "uses-secret.yml"])
    #expect(result.status == 4)
    assertGolden(transcript(result), named: "secrets/missing.txt")
  }

  @Test func aLockedKeyringFailsAtOnceNamingTheFallback() async throws {
    guard let keyring = try PrivateKeyring.start() else { return }
    defer { keyring.stop() }
    let machine = try Self.machine(keyring)
    _ = await machine.run(["secrets", "set", "api-token"], lines: [Self.value])
    try keyring.lock()
    try machine.write("uses-secret.yml", Self.workflow)
    let start = ContinuousClock.now
    let result = await machine.run(["run", "uses-secret.yml"])
    #expect(ContinuousClock.now - start < .seconds(2))
    #expect(result.status == 5)
    assertGolden(transcript(result), named: "secrets/locked.txt")
  }

  /// A bus with nobody owning `org.freedesktop.secrets` (a session without a keyring).
  @Test func aBusWithoutASecretServiceFailsAtOnceNamingTheFallback() async throws {
    guard let keyring = try PrivateKeyring.start(withKeyring: false) else { return }
    defer { keyring.stop() }
    let machine = try Self.machine(keyring)
    try machine.write("uses-secret.yml", Self.workflow)
    let start = ContinuousClock.now
    let result = await machine.run(["run", "uses-secret.yml"])
    #expect(ContinuousClock.now - start < .seconds(2))
    #expect(result.status == 5)
    assertGolden(transcript(result), named: "secrets/no-service.txt")
  }

  /// The real binary, as cron starts it: no bus at all.
  @Test func noSessionBusFailsWithinTwoSecondsNamingTheFallback() throws {
    let machine = try Self.machine(nil)
    try machine.write("uses-secret.yml", Self.workflow)
    let (output, errors) = (Pipe(), Pipe())
    let start = ContinuousClock.now
    let process = try machine.launch(["run", "uses-secret.yml"], output: output, error: errors)
    let written = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(ContinuousClock.now - start < .seconds(2))
    #expect(process.terminationStatus == 5)
    #expect(output.fileHandleForReading.readDataToEndOfFile().isEmpty)
    assertGolden(written, named: "secrets/no-bus.txt")
  }

  @Test func theFileStoreIsOptInAndWarnsAtEachUse() async throws {
    let machine = try Self.machine(nil)
    let set = await machine.run(
      ["secrets", "set", "api-token"], environment: ["FLOW_SECRETS": "file"], lines: [Self.value])
    #expect(set.status == 0, "\(set.error)")
    let file = machine.home.appendingPathComponent(".config/flow/secrets/api-token")
    let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    try machine.write("uses-secret.yml", Self.workflow)
    let result = await machine.run(["run", "uses-secret.yml"], environment: ["FLOW_SECRETS": "file"])
    #expect(result.status == 0, "\(result.error)")
    #expect(!(result.output + result.error).contains(Self.value))
    assertGolden(
      transcript(result).replacingOccurrences(of: machine.home.path, with: "~"), named: "secrets/file-store.txt")
    // Without the opt-in, the file is not read.
    let keyringOnly = await machine.run(["run", "uses-secret.yml"])
    #expect(keyringOnly.status == 5)
  }

  @Test func anUndeclaredSecretIsAnErrorAtItsColumn() async throws {
    let machine = try Self.machine(nil)
    try machine.write(
      "undeclared.yml",
      """
      flow: 1
      name: undeclared
      secrets: [github-token, 'bad name']
      steps:
        - show: ${secret.github-tokne}
        - show: ${secret.other}
      """)
    let result = await machine.run(["validate", "undeclared.yml"])
    #expect(result.status == 2)
    assertGolden(transcript(result), named: "secrets/undeclared.txt")
  }

  @Test func exportRefusesAFileHoldingASecretsValue() async throws {
    guard let keyring = try PrivateKeyring.start() else { return }
    defer { keyring.stop() }
    let machine = try Self.machine(keyring)
    _ = await machine.run(["secrets", "set", "api-token"], lines: [Self.value])
    try machine.write(
      "pasted.yml",
      """
      flow: 1
      name: pasted
      steps:
        - show: "token: \(Self.value)"
      """)
    let result = await machine.run(["export", "pasted.yml", "-o", "out.yml"])
    #expect(result.status == 2)
    #expect(!(result.output + result.error).contains(Self.value))
    #expect(!FileManager.default.fileExists(atPath: machine.home.appendingPathComponent("out.yml").path))
    assertGolden(transcript(result), named: "secrets/export-refused.txt")
  }

  @Test func theCardSaysWhereEachSecretMayGo() async throws {
    let machine = try Self.machine(nil)
    try machine.write(
      "github.yml",
      """
      flow: 1
      name: github
      secrets: [github-token]
      steps:
        - get-url:
            url: https://api.github.com/user
            headers:
              Authorization: Bearer ${secret.github-token}
      """)
    try machine.write(
      "anywhere.yml",
      """
      flow: 1
      name: anywhere
      input:
        url: url
      secrets: [github-token]
      steps:
        - get-url:
            url: ${input.url}
            headers:
              Authorization: Bearer ${secret.github-token}
      """)
    let named = await machine.run(["show", "github.yml"])
    let computed = await machine.run(["show", "anywhere.yml"])
    assertGolden(transcript(named) + "\n" + transcript(computed), named: "secrets/card.txt")
  }

  /// The units `flow schedule install` writes say how a run's secrets reach it; the Kubernetes objects,
  /// which mount them from a Secret, still pass `kubernetes-validate`.
  @Test func installedUnitsSayHowTheSecretsReachTheRun() async throws {
    let machine = try Self.machine(nil)
    try machine.write(
      "nightly.yml",
      """
      flow: 1
      name: nightly
      schedule: "0 3 * * *"
      timezone: UTC
      secrets: [api-token, github-token]
      steps:
        - show: ${secret.api-token}
      """)
    var text = ""
    for engine in [
      ["systemd", "--print"], ["cron", "--print"], ["kubernetes", "--image", "registry.example/flow:1.0"],
    ] {
      let result = await machine.run(["schedule", "install"] + engine + ["nightly.yml"])
      #expect(result.status == 0, "\(engine): \(result.error)")
      text += "$ flow schedule install \(engine.joined(separator: " "))\n" + result.output + "\n"
      if engine[0] == "kubernetes" {
        let manifest = machine.home.appendingPathComponent("flow.yaml")
        try result.output.write(to: manifest, atomically: true, encoding: .utf8)
        let validate = ReferenceTool(
          "kubernetes-validate", install: "Scripts/setup.sh (pip install kubernetes-validate)")
        guard let checked = try validate.run(["--strict", "--quiet", manifest.path]) else { return }
        #expect(checked.status == 0, "\(checked.output)\(checked.error)")
      }
    }
    assertGolden(
      ScheduleCommandTests.portable(text.replacingOccurrences(of: machine.home.path, with: "~")),
      named: "secrets/units.txt")
  }

  /// `flow auth login` keeps the Raindrop token in the keyring, as the secret `raindrop-token`; a token
  /// saved in the file before moves there with `--move`; `flow auth logout` removes it.
  @Test func theRaindropTokenLivesInTheKeyring() async throws {
    guard let keyring = try PrivateKeyring.start() else { return }
    defer { keyring.stop() }
    let machine = try Self.machine(keyring)
    let token = "raindrop-token-3c9e41"
    let login = await machine.run(["auth", "login", "--no-check"], lines: [token])
    #expect(login.status == 0, "\(login.error)")
    #expect(login.output == "Saved the token in the keyring without checking it; 'flow auth status' checks it.\n")
    #expect(login.error == "")
    let lookup = try keyring.run("secret-tool", ["lookup", "service", "flow", "account", "raindrop-token"])
    #expect(lookup.output == token)
    let file = machine.home.appendingPathComponent(".config/flow/raindrop-token")
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(Self.filesHolding(token, under: machine.home) == [])

    let logout = await machine.run(["auth", "logout"])
    #expect(logout.output == "Logged out: removed the token from the keyring.\n", "\(logout.error)")
    let gone = try keyring.run("secret-tool", ["lookup", "service", "flow", "account", "raindrop-token"])
    #expect(gone.output == "")

    // A token in the file, as an earlier flow saved it, keeps being read, and moves on request.
    try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try (token + "\n").write(to: file, atomically: true, encoding: .utf8)
    let moved = await machine.run(["auth", "login", "--move"])
    #expect(moved.status == 0, "\(moved.error)")
    #expect(
      moved.output
        == "Moved the token from \(file.path) into the keyring (secret 'raindrop-token').\n")
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let again = try keyring.run("secret-tool", ["lookup", "service", "flow", "account", "raindrop-token"])
    #expect(again.output == token)
  }
}

/// Secrets in the contract a run is held to: a provenance record written before secrets existed reads as
/// reading none, and a workflow that now reads a secret its approved card did not list asks again.
struct SecretsContractTests {
  @Test func aRecordWithoutSecretsReadsAsNoneAndANewSecretIsMore() throws {
    var approved = CapabilitySet()
    approved.hosts = .only(["api.github.com"])
    let encoded = try JSONEncoder().encode(approved)
    #expect(!String(decoding: encoded, as: UTF8.self).contains("secrets"))
    let decoded = try JSONDecoder().decode(CapabilitySet.self, from: encoded)
    #expect(decoded == approved)
    var now = approved
    now.secrets = ["github-token"]
    #expect(!now.isSubset(of: approved))
    #expect(now.excess(over: approved) == ["reads your secret github-token"])
    let again = try JSONDecoder().decode(CapabilitySet.self, from: JSONEncoder().encode(now))
    #expect(again.secrets == ["github-token"])
    #expect(now.isSubset(of: again))
  }
}
