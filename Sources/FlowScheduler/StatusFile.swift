import FlowLibrary
import FoundationEssentials

/// What the scheduler has armed, on disk (``FlowPaths/schedulerStatus``), for `flow schedule status` in
/// another process: written whole and renamed over the last, so a reader never meets half of one. A
/// status that cannot be written is not worth stopping for: the scheduler goes on, and `status` says it
/// has nothing to read. Nor worth an fsync at every firing: a crash loses a status the next start writes
/// again.
public struct StatusFile: StatusStore {
  public let file: URL

  public init(file: URL) {
    self.file = file
  }

  public func save(_ status: SchedulerStatus) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(status) else { return }
    try? PrivateFiles.write(data + Data("\n".utf8), to: file, durable: false)
  }

  public func load() -> SchedulerStatus? {
    guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try? decoder.decode(SchedulerStatus.self, from: data)
  }
}
