import FlowCLI
import FlowTestSupport
import Foundation
import Testing

@testable import FlowScheduler

/// `flow schedule install systemd|cron|kubernetes`: units checked by the engines' own tools where they
/// run here (`systemd-analyze verify`, `kubernetes-validate`), crontab merging on a crontab of its own.
struct ScheduleInstallTests {
  static let schedules = ScheduleCommandTests.schedules

  func run(_ arguments: [String], in directory: URL = schedules, home: URL, extra: [String: String] = [:]) async
    -> (status: Int32, output: String, error: String)
  {
    await Machine.run(
      arguments, in: directory,
      environment: ScheduleCommandTests.environment(home).merging(extra) { $1 })
  }

  // MARK: - systemd

  @Test func systemdUnitsSayTheScheduleExactly() async throws {
    let home = try temporaryDirectory()
    let result = await run(["schedule", "install", "systemd", "two-zones.yml", "--print"], home: home)
    #expect(result.status == 0, "\(result.error)")
    assertGolden(ScheduleCommandTests.portable(result.output), named: "schedule/install-systemd.txt")
  }

  /// Units written for a file whose path has a space and a '%' pass `systemd-analyze verify`; the same
  /// unit running a binary that is not there does not, so the check is real.
  @Test func systemdAnalyzeVerifyAcceptsTheUnits() async throws {
    let home = try temporaryDirectory()
    let folder = home.appendingPathComponent("My Flows 100%")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.schedules.appendingPathComponent("two-zones.yml"), to: folder.appendingPathComponent("two zones.yml"))
    let result = await run(["schedule", "install", "systemd", "My Flows 100%/two zones.yml"], in: home, home: home)
    #expect(result.status == 0, "\(result.error)")
    let units = home.appendingPathComponent("config/systemd/user")
    let service = units.appendingPathComponent("flow-two-zones.service")
    let timer = units.appendingPathComponent("flow-two-zones.timer")
    #expect(result.output.contains("wrote \(service.path)\nwrote \(timer.path)\n"))
    #expect(
      result.output.hasSuffix(
        "systemctl --user daemon-reload && systemctl --user enable --now flow-two-zones.timer\n"))
    let text = try String(contentsOf: service, encoding: .utf8)
    #expect(text.contains("\"\(folder.path.replacingOccurrences(of: "%", with: "%%"))/two zones.yml\""))

    let verify = ReferenceTool("systemd-analyze", install: "apt-get install systemd")
    guard let checked = try verify.run(["verify", service.path, timer.path]) else { return }
    #expect(checked.status == 0, "\(checked.error)")
    #expect(checked.error == "", "\(checked.error)")

    let broken = home.appendingPathComponent("flow-broken.service")
    try text.replacingOccurrences(of: ScheduleCommandTests.executable, with: "/nonexistent/flow")
      .write(to: broken, atomically: true, encoding: .utf8)
    let refused = try verify.run(["verify", broken.path])
    #expect(refused?.status != 0)
  }

  // MARK: - cron

  @Test func crontabLinesCarryTheirZones() async throws {
    let home = try temporaryDirectory()
    let result = await run(["schedule", "install", "cron", "two-zones.yml", "stepped-days.yml"], home: home)
    #expect(result.status == 0, "\(result.error)")
    assertGolden(ScheduleCommandTests.portable(result.output), named: "schedule/install-cron.txt")
  }

  /// `--apply` keeps every line outside its block, replaces its block in place, and restores the zone
  /// of the lines after it.
  @Test func applyMergesIntoTheCrontab() async throws {
    let home = try temporaryDirectory()
    let bin = home.appendingPathComponent("bin")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    let crontab = home.appendingPathComponent("crontab.txt")
    let script = bin.appendingPathComponent("crontab")
    try """
    #!/bin/sh
    # A stand-in for crontab(1) that keeps the table in $CRONTAB_FILE.
    case "$1" in
      -l) [ -f "$CRONTAB_FILE" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }; cat "$CRONTAB_FILE" ;;
      -) cat > "$CRONTAB_FILE" ;;
      *) echo "usage: crontab -l | crontab -" >&2; exit 2 ;;
    esac

    """.write(to: script, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
    let environment = ["PATH": "\(bin.path):/usr/bin:/bin", "CRONTAB_FILE": crontab.path]

    let first = await run(
      ["schedule", "install", "cron", "--apply", "stepped-days.yml"], home: home, extra: environment)
    #expect(first.status == 0, "\(first.error)")
    #expect(first.output == "installed 1 workflow into your crontab ('crontab -l' shows it)\n")
    let fresh = try String(contentsOf: crontab, encoding: .utf8)
    #expect(fresh.hasPrefix("# BEGIN flow schedule"))
    #expect(fresh.hasSuffix("# END flow schedule\n"))

    let mine = "MAILTO=me@example.com\nCRON_TZ=Asia/Tokyo\n0 1 * * * /usr/local/bin/backup\n"
    try (mine + fresh + "30 2 * * * /usr/local/bin/after\n").write(to: crontab, atomically: true, encoding: .utf8)
    let second = await run(["schedule", "install", "cron", "--apply", "two-zones.yml"], home: home, extra: environment)
    #expect(second.status == 0, "\(second.error)")
    let merged = try String(contentsOf: crontab, encoding: .utf8)
    #expect(merged.hasPrefix(mine))
    #expect(merged.hasSuffix("# END flow schedule\n30 2 * * * /usr/local/bin/after\n"))
    #expect(merged.components(separatedBy: "# BEGIN flow schedule").count == 2)
    #expect(!merged.contains("stepped-days"))
    assertGolden(ScheduleCommandTests.portable(merged), named: "schedule/install-cron-applied.txt")
  }

  @Test func applyWithoutACrontabCommandSaysSo() async throws {
    let home = try temporaryDirectory()
    let result = await run(
      ["schedule", "install", "cron", "--apply", "two-zones.yml"], home: home, extra: ["PATH": home.path])
    #expect(result.status == 2)
    #expect(result.error.contains("error: there is no 'crontab' command on the PATH"))
  }

  // MARK: - Kubernetes

  @Test func kubernetesObjectsValidate() async throws {
    let home = try temporaryDirectory()
    let result = await run(
      [
        "schedule", "install", "kubernetes", "two-zones.yml", "--image", "registry.example/flow:1.0", "--namespace",
        "automation",
      ],
      home: home)
    #expect(result.status == 0, "\(result.error)")
    assertGolden(ScheduleCommandTests.portable(result.output), named: "schedule/install-kubernetes.txt")
    let manifest = home.appendingPathComponent("flow.yaml")
    try result.output.write(to: manifest, atomically: true, encoding: .utf8)
    let validate = ReferenceTool("kubernetes-validate", install: "Scripts/setup.sh (pip install kubernetes-validate)")
    guard let checked = try validate.run(["--strict", "--quiet", manifest.path]) else { return }
    #expect(checked.status == 0, "\(checked.output)\(checked.error)")
    // A misspelt field fails (--strict refuses fields the schema lacks), so the check is real.
    let wrong = home.appendingPathComponent("wrong.yaml")
    try result.output.replacingOccurrences(of: "secretKeyRef:", with: "secretRef:")
      .write(to: wrong, atomically: true, encoding: .utf8)
    #expect(try validate.run(["--strict", "--quiet", wrong.path])?.status != 0)
  }

  @Test func kubernetesRefusesWhatItWouldReadDifferently() async throws {
    let home = try temporaryDirectory()
    let noImage = await run(["schedule", "install", "kubernetes", "two-zones.yml"], home: home)
    #expect(noImage.status == 2)
    #expect(noImage.error.contains("kubernetes needs --image"))
    let stepped = await run(
      ["schedule", "install", "kubernetes", "stepped-days.yml", "--image", "flow:1"], home: home)
    #expect(stepped.status == 2)
    assertGolden(transcript(stepped), named: "schedule/install-kubernetes-refused.txt")
  }

  /// The usage line offers `--print` for every engine: each takes it, and cron and kubernetes print
  /// what they print without it.
  @Test func everyEngineTakesPrint() async throws {
    let home = try temporaryDirectory()
    for engine in [["systemd"], ["cron"], ["kubernetes", "--image", "flow:1"]] {
      let printed = await run(["schedule", "install"] + engine + ["two-zones.yml", "--print"], home: home)
      #expect(printed.status == 0, "\(engine): \(printed.error)")
      #expect(printed.error == "", "\(engine)")
      #expect(!printed.output.isEmpty, "\(engine)")
      guard engine[0] != "systemd" else { continue }
      let plain = await run(["schedule", "install"] + engine + ["two-zones.yml"], home: home)
      #expect(printed.output == plain.output, "\(engine)")
    }
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("config/systemd").path))
  }

  /// An option of another engine is refused with a message about the engine given, never ignored.
  @Test func optionsOfAnotherEngineAreRefused() async throws {
    let home = try temporaryDirectory()
    let cases: [([String], String)] = [
      (["systemd", "--print", "--apply"], "error: --print and --apply ask for opposite things: choose one"),
      (
        ["kubernetes", "--apply", "--image", "flow:1"],
        "error: --apply is for cron; kubernetes objects are printed for 'kubectl apply -f -'"
      ),
      (["cron", "--print", "--apply"], "error: --print and --apply ask for opposite things: choose one"),
      (["cron", "--secret", "mine"], "error: --secret is for kubernetes"),
      (["systemd", "--image", "flow:1", "--namespace", "ns"], "error: --image and --namespace are for kubernetes"),
    ]
    for (arguments, message) in cases {
      let result = await run(["schedule", "install"] + arguments + ["two-zones.yml"], home: home)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.error.hasPrefix(message + "\n"), "\(arguments): \(result.error)")
    }
  }

  /// `--apply` with systemd writes the units, as systemd's install does anyway (issue 30).
  @Test func systemdTakesApplyAsWritingTheUnits() async throws {
    let home = try temporaryDirectory()
    let result = await run(["schedule", "install", "systemd", "two-zones.yml", "--apply"], home: home)
    #expect(result.status == 0, "\(result.error)")
    let units = home.appendingPathComponent("config/systemd/user")
    #expect(try FileManager.default.contentsOfDirectory(atPath: units.path).contains { $0.hasSuffix(".timer") })
  }

  // MARK: - Which workflows

  @Test func invalidWorkflowsStopTheInstallBeforeAnythingIsWritten() async throws {
    let home = try temporaryDirectory()
    let result = await run(["schedule", "install", "systemd", "two-zones.yml", "zones.yml"], home: home)
    #expect(result.status == 2)
    #expect(result.error.contains("zones.yml:3:11: error: unknown time zone 'Mars/Olympus'"))
    #expect(result.error.hasSuffix("nothing was installed\n"))
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("config/systemd").path))
    let unscheduled = await run(["schedule", "install", "cron", "unscheduled.yml"], home: home)
    #expect(unscheduled.status == 2)
    #expect(unscheduled.error.contains("unscheduled.yml: error: 'Unscheduled' has no schedule"))
  }

  /// Without names: every scheduled workflow of the library, skipping unscheduled ones.
  @Test func withoutNamesTheLibraryIsInstalled() async throws {
    let home = try temporaryDirectory()
    let library = home.appendingPathComponent("data/flow/workflows")
    try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    for name in ["stepped-days.yml", "unscheduled.yml"] {
      try FileManager.default.copyItem(
        at: Self.schedules.appendingPathComponent(name), to: library.appendingPathComponent(name))
    }
    let result = await run(["schedule", "install", "cron"], in: home, home: home)
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.contains("stepped-days.yml"))
    #expect(!result.output.contains("unscheduled"))
    let empty = try temporaryDirectory()
    let nothing = await run(["schedule", "install", "cron"], in: empty, home: empty)
    #expect(nothing.status == 2)
    #expect(nothing.error.contains("error: no workflow in \(empty.path)/data/flow/workflows has a schedule"))
  }
}
