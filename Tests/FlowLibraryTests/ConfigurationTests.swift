import FlowDiagnostics
import FlowLibrary
import Foundation
import Testing

/// `config.yml`: the backend and the history settings, and a diagnostic at the place of each mistake.
struct ConfigurationTests {
  static func load(_ text: String?) throws(Diagnostic) -> Configuration {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).yml")
    if let text { try? text.write(to: url, atomically: true, encoding: .utf8) }
    return try Configuration.load(url)
  }

  @Test func defaultsWithoutAFile() throws {
    let configuration = try Self.load(nil)
    #expect(configuration.backend == nil)
    #expect(configuration.history == HistoryPolicy(enabled: true, keepRuns: 1000, keepDays: 90))
  }

  @Test func historyOffOnAndRetention() throws {
    #expect(try Self.load("history: off\n").history.enabled == false)
    #expect(try Self.load("history: false\n").history.enabled == false)
    #expect(try Self.load("history: on\n").history.enabled == true)
    let configured = try Self.load("backend: local\nhistory:\n  keep-runs: 50\n  keep-days: 7\nschedule-shell: x\n")
    #expect(configured.backend?.value == "local")
    #expect(configured.history == HistoryPolicy(enabled: true, keepRuns: 50, keepDays: 7))
  }

  @Test(arguments: [
    ("history: sometimes\n", "1:10", "unknown history setting 'sometimes'"),
    ("history:\n  keep-run: 5\n", "2:3", "unknown history setting 'keep-run'"),
    ("history:\n  keep-days: 0\n", "2:14", "'keep-days' must be a whole number of days, at least 1"),
    ("history:\n  keep-runs: lots\n", "2:14", "'keep-runs' must be a whole number of runs, at least 1"),
    ("history: [1]\n", "1:10", "expected 'off' or a mapping for 'history', found a sequence"),
    ("- backend\n", "1:1", "expected a mapping of settings, found a sequence"),
  ])
  func mistakesAreDiagnosedWhereTheyAre(text: String, place: String, message: String) throws {
    do {
      _ = try Self.load(text)
      Issue.record("no diagnostic for \(text)")
    } catch {
      #expect(error.span.map { "\($0.start)" } == place)
      #expect(error.message == message)
    }
  }

  @Test func aMisspelledKeyGetsASuggestion() {
    #expect(throws: Diagnostic.self) { try Self.load("history:\n  keep-run: 5\n") }
    do {
      _ = try Self.load("history:\n  keep-run: 5\n")
    } catch {
      #expect(error.helps == ["did you mean 'keep-runs'?"])
    }
  }
}
