import FlowIntents
import FlowMCP
import FlowTestSupport
import Synchronization
import Testing

/// A server's questions (issue 28): they name the server, are bounded, and a yes/no is the person's
/// alone — `confirmations: auto` and a block's `confirm:` never answer it.
struct ElicitationPromptTests {
  /// Records the confirmations asked and answers no.
  final class Recording: Prompter {
    let confirmations = Mutex<[ConfirmationRequest]>([])
    func requestValue(_ request: ValueRequest) async throws -> FlowValue { .text("Ada") }
    func requestChoice(_ request: ChoiceRequest) async throws -> [Int] { [0] }
    func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
      confirmations.withLock { $0.append(request) }
      return false
    }
  }

  static func schema(_ properties: FlowDictionary) -> FlowValue {
    ["type": "object", "properties": .dictionary(properties)]
  }

  @Test func aQuestionNamesItsServer() async throws {
    let prompter = ScriptedPrompter([.value("Ada")])
    let answer = try await ElicitationPrompts.answer(
      MCPClient.Elicitation(message: "What is your name?", requestedSchema: Self.schema(["name": ["type": "string"]])),
      server: "notes", prompter: prompter)
    #expect(answer == ["action": "accept", "content": ["name": "Ada"]])
    #expect(await prompter.asked == ["The MCP server 'notes' asks: What is your name?"])
  }

  @Test func aYesOrNoIsThePersonsAlone() async throws {
    let prompter = Recording()
    let answer = try await ElicitationPrompts.answer(
      MCPClient.Elicitation(
        message: "Delete every note?", requestedSchema: Self.schema(["sure": ["type": "boolean", "default": true]])),
      server: "notes", prompter: prompter)
    #expect(answer == ["action": "accept", "content": ["sure": false]])
    let asked = prompter.confirmations.withLock { $0 }
    #expect(asked.count == 1)
    #expect(asked.first?.needsExplicitYes == true)
  }

  @Test func aServerAsksBoundedQuestions() async throws {
    let long = String(repeating: "x", count: 10_000)
    let prompter = ScriptedPrompter([.value("Ada")])
    _ = try await ElicitationPrompts.answer(
      MCPClient.Elicitation(message: long, requestedSchema: Self.schema(["name": ["type": "string"]])),
      server: "notes", prompter: prompter)
    let dialog = try #require(await prompter.asked.first)
    #expect(dialog.count < 600)
    var many = FlowDictionary()
    for index in 0..<100 { many["q\(index)"] = ["type": "string"] }
    await #expect(throws: AppIntentError.self) {
      _ = try await ElicitationPrompts.answer(
        MCPClient.Elicitation(message: "?", requestedSchema: Self.schema(many)), server: "notes", prompter: prompter)
    }
  }
}
