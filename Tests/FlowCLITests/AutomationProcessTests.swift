import FlowTestSupport
import Foundation
import Testing

/// `flow schedule` arming triggers as a real process, on real inotify: the gallery's `file-pdfs`
/// automation files a PDF saved into ~/Downloads, run history says which file started it, and an
/// imported automation waits for consent. Each step waits for a line the scheduler writes, never a timer.
@Suite(.serialized)
struct AutomationProcessTests {
  static let gallery = testDirectory().appendingPathComponent("../../workflows").standardizedFileURL

  @Test func aPDFSavedIntoDownloadsIsFiledByMonth() async throws {
    let machine = try SchedulerProcessTests.machine()
    let downloads = machine.home.appendingPathComponent("Downloads")
    try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
    let file = machine.library.appendingPathComponent("file-pdfs.yml")
    try FileManager.default.copyItem(at: Self.gallery.appendingPathComponent("file-pdfs.yml"), to: file)
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    try terminal.expect("armed 'File PDFs' (\(file.path)): starts when a PDF appears in ~/Downloads\n")
    // A download lands under a temporary name and is renamed when complete: one run, for the PDF.
    try Data("%PDF-1.4\n".utf8).write(to: downloads.appendingPathComponent(".report.pdf.part"))
    try FileManager.default.moveItem(
      at: downloads.appendingPathComponent(".report.pdf.part"), to: downloads.appendingPathComponent("report.pdf"))
    try terminal.expect("started 'File PDFs' run ")
    try terminal.expect("file created \(downloads.path)/report.pdf\n")
    try terminal.expect("ended 'File PDFs' run ")
    try terminal.expect(": succeeded")
    let status = await machine.run(["schedule", "status", "--json"])
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
    #expect(scheduler.terminationStatus == 0)

    let month = String(ISO8601DateFormatter().string(from: Date()).prefix(7))
    let filed = machine.home.appendingPathComponent("Documents/\(month)/report.pdf")
    #expect(FileManager.default.fileExists(atPath: filed.path))
    let runs = try await machine.runs()
    #expect(runs.count == 1)
    #expect(runs.first?["trigger"] as? String == "file")
    #expect(runs.first?["triggerDetail"] as? String == "created \(downloads.path)/report.pdf")
    #expect(status.output.contains("\"words\" : \"a PDF appears in ~/Downloads\""), "\(status.output)")
    #expect(status.output.contains("\"running\" : true"))
  }

  /// Imported, an automation is not armed until the person says so; `flow schedule arm` says so, and a
  /// running scheduler arms it at once.
  @Test func anImportedAutomationWaitsForConsent() async throws {
    let machine = try SchedulerProcessTests.machine()
    let imported = await machine.run(
      ["import", Self.gallery.appendingPathComponent("file-pdfs.yml").path, "--yes"], environment: ["COLUMNS": "200"])
    #expect(imported.status == 0, "\(imported.error)")
    #expect(imported.error.contains("starts by itself when a PDF appears in ~/Downloads, and then runs without asking"))
    #expect(
      imported.error.contains(
        "its triggers are not armed: it starts by itself only after 'flow schedule arm file-pdfs'"))
    let file = machine.library.appendingPathComponent("file-pdfs.yml")
    let terminal = try PseudoTerminal()
    let scheduler = try machine.spawn(["schedule"], at: terminal)
    try terminal.expect(
      "not armed 'File PDFs' (\(file.path)): it was imported, and its triggers start it only once you say so: flow schedule arm file-pdfs\n"
    )
    let armed = await machine.run(["schedule", "arm", "file-pdfs"])
    #expect(armed.status == 0)
    try terminal.expect("armed 'File PDFs' (\(file.path)): starts when a PDF appears in ~/Downloads\n")
    kill(scheduler.processIdentifier, SIGTERM)
    try terminal.expect("stopped\n")
    scheduler.waitUntilExit()
  }
}
