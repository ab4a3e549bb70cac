import FlowBasics
import FlowIntents
import FlowTestSupport
import Foundation
import Testing

struct BasicsCatalogTests {
  @Test func everyDeclarationPassesTheValidator() {
    let problems = CatalogValidator.validate([BasicsCatalog.self])
    #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
  }

  @Test func hasEveryBasicActionOfTheSpec() {
    let ids = BasicsCatalog.descriptors.map(\.id)
    #expect(
      ids == [
        "adjust-date", "append-to-file", "ask", "base64", "calculate", "change-case", "choose-from-list",
        "combine-text",
        "comment", "confirm", "copy-file", "copy-to-clipboard", "count", "create-folder", "current-date",
        "delete-files", "device-details", "dictionary", "filter", "format-date", "format-json", "format-number",
        "get-clipboard", "get-dates-from-input", "get-env", "get-file", "get-folder-contents", "get-item", "get-url",
        "get-url-component", "get-value", "hash", "list", "make-csv", "make-table", "match-text", "move-file", "notify",
        "number",
        "open-url", "parse-csv", "parse-json", "random-item", "random-number", "read-file", "replace-text",
        "round-number", "run-shell", "save-file", "set-value", "show", "sort", "split-text", "text", "time-between",
        "trim-text",
        "unique",
        "url", "url-decode", "url-encode", "wait",
      ])
  }

  @Test func everyIntentFileIsRegistered() throws {
    let folder = testDirectory().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/FlowBasics/Intents")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("Intent.swift") }
    let registered = BasicsCatalog.descriptors.map { "\($0.typeName).swift" }
    #expect(files.sorted() == registered.sorted())
  }

  @Test func everyIntentHasOnePrimaryParameterOrNone() {
    for descriptor in BasicsCatalog.descriptors where !descriptor.parameters.isEmpty {
      #expect(descriptor.primaryParameter != nil, "\(descriptor.id) has no primary parameter")
    }
  }
}
