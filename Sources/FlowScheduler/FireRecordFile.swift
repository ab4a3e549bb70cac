import FlowCron
import FlowHistory
import FlowLibrary
import FoundationEssentials

/// The scheduler's fire record on disk (``FlowPaths/schedulerRecord``): when `flow schedule` last
/// handled each workflow's fire, so that a fire missed while it was not running is caught up once when
/// it starts again.
///
/// ```json
/// {
///   "version": 1,
///   "workflows": {
///     "/home/ada/.local/share/flow/workflows/favourites-digest.yml": {"lastFire": "2026-11-30T08:00:00.002Z"}
///   }
/// }
/// ```
///
/// Written whole to a temporary file beside it and renamed over it, so that a scheduler killed while
/// writing leaves the old record or the new one, never half of one. A record that cannot be read is an
/// empty one: no catch-up, which is what a first start does too.
public struct FireRecordFile: FireRecordStore {
  public let file: URL

  public init(file: URL) {
    self.file = file
  }

  private struct Contents: Codable {
    var version = 1
    var workflows: [String: Workflow]

    struct Workflow: Codable {
      var lastFire: String
    }
  }

  public func load() -> [String: Date] {
    guard let data = FileManager.default.contents(atPath: file.path),
      let contents = try? JSONDecoder().decode(Contents.self, from: data)
    else { return [:] }
    // Times without fractions read too: the file is meant to be read, and may be written, by people.
    let (fractional, whole) = (Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle())
    return contents.workflows.compactMapValues {
      (try? fractional.parse($0.lastFire)) ?? (try? whole.parse($0.lastFire))
    }
  }

  public func save(_ record: [String: Date]) throws(RecordFailure) {
    let contents = Contents(workflows: record.mapValues { .init(lastFire: HistoryText.timestamp($0)) })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let data: Data
    do {
      data = try encoder.encode(contents)
    } catch {
      throw RecordFailure("cannot write \(file.path): \(error.reason)")
    }
    do {
      try PrivateFiles.write(data, to: file)
    } catch {
      throw RecordFailure(error.description)
    }
  }
}
