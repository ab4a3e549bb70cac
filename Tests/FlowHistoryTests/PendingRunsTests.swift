import FlowSQLite
import Foundation
import Testing

@testable import FlowHistory
@testable import FlowLibrary

/// The pending file's lines (PendingRuns.swift): every value comes back as it went in, and what cannot be
/// read (a line cut short, a newer flow's entry) is passed over without losing the rest.
struct PendingRunsTests {
  static func file() -> PendingRuns {
    PendingRuns(path: FileManager.default.temporaryDirectory.path + "/pending-\(UUID().uuidString)")
  }

  static let texts = [
    "", "plain", "tab\there", "line\nbreak", "cr\r", "back\\slash", "\\t literally", "é ü 🚀", "-", "i12",
  ]

  @Test func entriesComeBackAsTheyWentIn() throws {
    let pending = Self.file()
    defer { unlink(pending.path) }
    let entries: [PendingRuns.Entry] =
      Self.texts.map { text in
        .step(id: text, [.integer(-7), .text(text), .null, .integer(Int64.max), .real(1.5)])
      } + [
        .began(Array(repeating: .text("x\ty"), count: RunHistory.insertColumns)),
        .ended(
          id: "run", Array(repeating: .null, count: RunHistory.updateColumns), workflowKey: "/w/a\tb.yml",
          policy: HistoryPolicy(keepRuns: 3, keepDays: 4)),
      ]
    for entry in entries where entry.isStep {
      #expect(PendingRuns.entry(String(PendingRuns.line(entry).dropLast())) == nil, "steps carry 10 values")
    }
    let valid: [PendingRuns.Entry] =
      Self.texts.map { text in
        .step(id: text, (0..<RunHistory.stepColumns).map { $0 % 2 == 0 ? .text(text + "\($0)") : .integer(Int64($0)) })
      } + entries.filter { !$0.isStep }
    try pending.append(valid)
    var taken: [PendingRuns.Entry] = []
    try pending.take { taken = $0 }
    #expect(taken == valid)
    try pending.take { #expect($0.isEmpty) }
  }

  @Test func unreadableLinesArePassedOver() throws {
    let pending = Self.file()
    defer { unlink(pending.path) }
    let good = PendingRuns.Entry.began(Array(repeating: .integer(1), count: RunHistory.insertColumns))
    let lines = [
      PendingRuns.line(good), "B\ti1\n", "Z\ti1\n", "B\tq1\n", "S\tt\\x\n", "\n",
      String(PendingRuns.line(good).dropLast(3)),
    ]
    FileManager.default.createFile(atPath: pending.path, contents: Data(lines.joined().utf8))
    try pending.append([good])
    var taken: [PendingRuns.Entry] = []
    try pending.take { taken = $0 }
    // The line cut short runs into the next entry, and both are lost: one write per entry list keeps that
    // to a process killed in the middle of its write.
    #expect(taken == [good])
  }

  /// A reader that fails leaves the entries for the next.
  @Test func aFailedReadKeepsTheEntries() throws {
    let pending = Self.file()
    defer { unlink(pending.path) }
    let good = PendingRuns.Entry.began(Array(repeating: .integer(1), count: RunHistory.insertColumns))
    try pending.append([good, good])
    #expect(throws: HistoryError.self) {
      try pending.take { _ throws(HistoryError) in throw HistoryError(description: "busy") }
    }
    var taken: [PendingRuns.Entry] = []
    try pending.take { taken = $0 }
    #expect(taken == [good, good])
  }
}

extension PendingRuns.Entry {
  var isStep: Bool { if case .step = self { true } else { false } }
}

extension PendingRuns {
  /// One entry's line as text, as ``PendingRuns/append(_:)`` writes it.
  static func line(_ entry: Entry) -> String {
    var line: [UInt8] = []
    encode(entry, to: &line)
    return String(decoding: line, as: UTF8.self)
  }
}
