import FlowDiagnostics
import FlowIntents
import FlowRuntime
import FlowSession
import FlowSystem
import FoundationEssentials

/// Asks at a terminal (SPEC §5): value prompts titled with the parameter and asked again when the
/// answer does not fit, numbered choice lists, and `[y/N]` confirmations. Questions go to standard error,
/// so standard output stays the workflow's results.
struct TerminalPrompter: Prompter {
  let console: any Console

  func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    if let problem = request.problem { console.writeShown("  \(problem)\n", to: .error) }
    var question = request.dialog
    if let answer = request.defaultAnswer, !request.masked { question += " [\(answer.text)]" }
    if request.valueType != .text, request.valueType != .any { question += " (\(request.valueType.name))" }
    if request.multiline { return try multiline(question) }
    // A secret is typed without echo; the question is written as any other, through writeShown.
    let line = Interrupts.whileReadingInput {
      if request.masked { return console.readSecretLine(prompt: TerminalSafe.text(question) + ": ") }
      console.writeShown("\(question): ", to: .error)
      return console.readLine()
    }
    guard let line else { throw AppIntentError.userCancelled }
    return .text(line)
  }

  /// Several lines, ended by an empty one (or the end of input after at least one).
  private func multiline(_ question: String) throws -> FlowValue {
    var lines: [String] = []
    // Each line is read as a line is at any prompt, so that Ctrl-C while typing cancels.
    console.writeShown("\(question) (end with an empty line):\n", to: .error)
    while true {
      guard let line = Interrupts.whileReadingInput({ console.readLine() }) else {
        // The end of input ends the answer too, unless nothing was typed: that cancels, as at any prompt.
        if lines.isEmpty { throw AppIntentError.userCancelled }
        break
      }
      if line.isEmpty { break }
      lines.append(line)
    }
    return .text(lines.joined(separator: "\n"))
  }

  func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    console.writeShown("\(request.dialog)\n", to: .error)
    let width = String(request.options.count).count
    for (index, option) in request.options.enumerated() {
      let number = String(index + 1)
      console.writeShown("  \(String(repeating: " ", count: width - number.count))\(number)) \(option)\n", to: .error)
    }
    let range = request.options.count == 1 ? "1" : "1-\(request.options.count)"
    while true {
      let line = Interrupts.whileReadingInput {
        console.write(
          request.allowsMultiple ? "Choose \(range), separated by commas: " : "Choose \(range): ", to: .error)
        return console.readLine()
      }
      guard let line else { throw AppIntentError.userCancelled }
      if let chosen = Self.parse(line, options: request.options, multiple: request.allowsMultiple) { return chosen }
      console.write("  please answer with a number from \(range)\n", to: .error)
    }
  }

  func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    let line = Interrupts.whileReadingInput {
      console.writeShown("\(request.dialog) [y/N] ", to: .error)
      return console.readLine()
    }
    guard let line else { return false }
    return ["y", "yes"].contains(line.trimmingWhitespace().lowercased())
  }

  /// An answer by number, or by the option's exact text.
  static func parse(_ line: String, options: [String], multiple: Bool) -> [Int]? {
    let parts =
      multiple
      ? line.split(separator: ",").map { $0.trimmingWhitespace() }
      : [line.trimmingWhitespace()]
    var chosen: [Int] = []
    for part in parts {
      if let number = Int(part), (1...options.count).contains(number) {
        chosen.append(number - 1)
      } else if let index = options.firstIndex(where: { TextOrder.sameIgnoringCase($0, part) }) {
        chosen.append(index)
      } else {
        return nil
      }
    }
    return chosen.isEmpty ? nil : chosen
  }
}
