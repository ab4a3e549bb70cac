import Foundation
import Testing

/// Compares `actual` with the golden file `Goldens/<name>` beside the calling test file.
///
/// `name` is a path relative to `Goldens/`, with a folder per feature (`"validate/empty.txt"`); recording
/// makes the folders it needs.
///
/// When the golden is missing, or `RECORD_GOLDENS=1` is set, it writes the file and fails with "recorded
/// new golden", so that a fresh recording never passes silently; run the test again to check it.
public func assertGolden(
  _ actual: String,
  named name: String,
  filePath: String = #filePath,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
  let url = directory.appendingPathComponent(name)
  let record = ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1"
  guard !record, let expected = try? String(contentsOf: url, encoding: .utf8) else {
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try actual.write(to: url, atomically: true, encoding: .utf8)
      Issue.record("recorded new golden \(name); run the test again", sourceLocation: sourceLocation)
    } catch {
      Issue.record("cannot write golden \(url.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  if actual != expected {
    Issue.record(
      """
      output differs from golden \(name) (RECORD_GOLDENS=1 re-records it)
      --- expected
      \(expected)
      --- actual
      \(actual)
      """,
      sourceLocation: sourceLocation
    )
  }
}

/// The folder of the calling test file, for fixtures kept beside the tests.
public func testDirectory(filePath: String = #filePath) -> URL {
  URL(fileURLWithPath: filePath).deletingLastPathComponent()
}
