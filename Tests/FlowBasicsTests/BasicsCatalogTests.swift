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
        "ask", "calculate", "choose-from-list", "combine-text", "comment", "confirm", "count", "dictionary", "filter",
        "format-date", "get-item", "get-url", "get-value", "list", "match-text", "number", "open-url",
        "replace-text", "show", "sort", "split-text", "text", "wait",
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
