import FlowTestSupport
import Foundation
import Testing

@testable import FlowScheduler

/// The systemd user service Documentation/Scheduling.md tells people to install is one systemd accepts.
struct SchedulerServiceUnitTests {
  @Test func theDocumentedServiceUnitPassesSystemdAnalyzeVerify() throws {
    let docs = try String(
      contentsOf: DocumentationTests.root.appendingPathComponent("Documentation/Scheduling.md"), encoding: .utf8)
    let header = "# ~/.config/systemd/user/flow-schedule.service\n"
    let start = try #require(docs.range(of: header), "the unit is not in Scheduling.md")
    let end = try #require(docs.range(of: "```", range: start.upperBound..<docs.endIndex))
    let unit = String(docs[start.upperBound..<end.lowerBound])
    #expect(unit.contains("ExecStart=/usr/local/bin/flow schedule\n"))
    #expect(unit.contains("KillMode=mixed\n"))

    // verify checks that ExecStart's binary exists: this build's flow stands in for /usr/local/bin/flow.
    let folder = try temporaryDirectory()
    let file = folder.appendingPathComponent("flow-schedule.service")
    try unit.replacingOccurrences(of: "/usr/local/bin/flow", with: Machine.executable.path)
      .write(to: file, atomically: true, encoding: .utf8)
    let verify = ReferenceTool("systemd-analyze", install: "apt-get install systemd")
    guard let checked = try verify.run(["verify", file.path]) else { return }
    #expect(checked.status == 0, "\(checked.error)")
    #expect(checked.error == "", "\(checked.error)")
  }
}
