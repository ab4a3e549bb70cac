import FlowIntents
import FlowTestSupport
import Foundation
import Testing

/// Other fields between its parameters, a declared key and a dependency: an intent whose parameters are
/// found at the offsets its type's layout records, on every run.
struct SpacedOutIntent: AppIntent {
  static let title: LocalizedStringResource = "Spaced Out"
  static let description = IntentDescription("Join two values.")

  let before = "not a parameter"
  @Parameter(title: "First", primary: true)
  var first: String
  var between: (Int, Bool) = (3, true)
  @Dependency var library: Library
  @Parameter(title: "Second", default: 2, key: "the-second")
  var second: Int

  func perform() async throws -> some ReturnsValue<String> {
    .result(value: "\(first) \(second) \(library.books.count) \(between.0)")
  }
}

/// An intent that is a class: its fields are not inline in the value, so `Mirror` finds its parameters.
final class ClassIntent: AppIntent, @unchecked Sendable {
  static let title: LocalizedStringResource = "Class"
  static let description = IntentDescription("Repeat a word.")

  @Parameter(title: "Word", primary: true)
  var word: String
  @Dependency var library: Library

  init() {}

  func perform() async throws -> some ReturnsValue<String> {
    .result(value: "\(word) \(word) \(library.books.count)")
  }
}

struct IntentLayoutTests {
  @Test func parametersAmongOtherFieldsAreFoundOnEveryRun() async throws {
    let spaced = IntentDescriptor(SpacedOutIntent.self, namespace: "test")
    #expect(spaced.parameters.map(\.key) == ["first", "the-second"])
    #expect(spaced.dependencies == ["Library"])
    let (context, _) = testContext()
    // Each run makes a fresh intent and reads its own parameters, not the first run's.
    #expect(try await spaced.run(values: ["first": "a", "the-second": 5], context: context).value == "a 5 3 3")
    #expect(try await spaced.run(values: ["first": "b"], context: context).value == "b 2 3 3")
    let error = await #expect(throws: AppIntentError.self) {
      try await spaced.run(values: ["first": "c", "second": 1], context: context)
    }
    #expect(error?.kind == .unknownParameter)
  }

  @Test func anIntentThatIsAClassIsFoundWithMirror() async throws {
    let word = IntentDescriptor(ClassIntent.self, namespace: "test")
    #expect(word.parameters.map(\.key) == ["word"])
    #expect(word.dependencies == ["Library"])
    let (context, _) = testContext()
    #expect(try await word.run(values: ["word": "hey"], context: context).value == "hey hey 3")
    let missing = await #expect(throws: AppIntentError.self) {
      try await word.run(values: ["word": "hey"], context: IntentContext(prompter: ScriptedPrompter()))
    }
    #expect(missing?.kind == .missingDependency)
  }
}
