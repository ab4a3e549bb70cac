import FlowBasics
import FlowIntents
import FlowSystem
import FlowTestSupport
import Foundation
import Testing

/// Opens nothing; remembers what it was asked to open.
final class RecordingLauncher: URLLauncher, @unchecked Sendable {
  private let lock = NSLock()
  private var urls: [URL] = []
  var opened: [URL] { lock.withLock { urls } }
  func open(_ url: URL) async throws { lock.withLock { urls.append(url) } }
}

struct BasicsIntentTests {
  static let registry = IntentRegistry(catalogs: [BasicsCatalog.self])
  /// The actions that take `any Files`: FlowSystemTests runs them over the real file system.
  static let fileActions: Set<String> = [
    "get-file", "get-folder-contents", "read-file", "save-file", "append-to-file", "copy-file", "move-file",
    "create-folder", "delete-files",
  ]

  static func context(_ answers: [ScriptedPrompter.Answer] = [], launcher: any URLLauncher = RecordingLauncher())
    -> (IntentContext, ManualClock)
  {
    let clock = ManualClock()
    let context = IntentContext(prompter: ScriptedPrompter(answers), clock: clock, random: SeededRandomSource(seed: 7))
      .with(launcher, as: (any URLLauncher).self)
      .withDesktopStandIns()
      .with(
        SpawnCommandRunner(environment: ["PATH": "/usr/bin:/bin"]) as any CommandRunner, as: (any CommandRunner).self)
    return (context, clock)
  }

  @Test(arguments: basicsExamples + desktopExamples)
  func example(_ example: BasicsExample) async throws {
    let descriptor = try Self.registry.descriptor(for: example.id)
    let (context, _) = Self.context(example.answers)
    switch example.outcome {
    case .value(let expected):
      let output = try await descriptor.run(values: example.values, context: context)
      #expect(output.value == expected)
    case .dialog(let expected):
      let output = try await descriptor.run(values: example.values, context: context)
      #expect(output.dialog == expected)
    case .satisfies(let predicate):
      let output = try await descriptor.run(values: example.values, context: context)
      #expect(predicate(output.value), "unexpected \(output.value)")
    case .error(let message, let help):
      do {
        let output = try await descriptor.run(values: example.values, context: context)
        Issue.record("expected an error, got \(output.value)")
      } catch {
        let described = AppIntentError.describe(error)
        #expect(described.message == message)
        if let help { #expect(described.help == help) }
      }
    }
  }

  @Test func everyActionHasAValidAndAnInvalidExample() {
    // get-url has its own suite against a loopback server, the file actions theirs in a temporary home
    // (FlowSystemTests: FileIntentTests, which checks it covers each of them, and TrashTests).
    for descriptor in BasicsCatalog.descriptors
    where descriptor.id != "get-url" && !Self.fileActions.contains(descriptor.id) {
      let examples = (basicsExamples + desktopExamples).filter { $0.id == descriptor.id }
      #expect(examples.contains { $0.isValid }, "\(descriptor.id) has no valid example")
      #expect(examples.contains { !$0.isValid }, "\(descriptor.id) has no invalid example")
    }
  }

  @Test func waitSleepsOnTheInjectedClock() async throws {
    let (context, clock) = Self.context()
    _ = try await Self.registry.descriptor(for: "wait").run(values: ["duration": "1h30m"], context: context)
    _ = try await Self.registry.descriptor(for: "wait").run(values: ["duration": 0.25], context: context)
    #expect(clock.sleeps == [.seconds(5400), .milliseconds(250)])
  }

  @Test func openURLUsesTheInjectedLauncher() async throws {
    let launcher = RecordingLauncher()
    let (context, _) = Self.context(launcher: launcher)
    _ = try await Self.registry.descriptor(for: "open-url").run(values: ["url": "example.com/a"], context: context)
    #expect(launcher.opened.map(\.absoluteString) == ["https://example.com/a"])
  }

  @Test func openURLExplainsWhenThereIsNoLauncher() async throws {
    let (context, _) = Self.context(launcher: XDGOpenLauncher(environment: ["PATH": "/nonexistent"]))
    let error = await #expect(throws: AppIntentError.self) {
      try await Self.registry.descriptor(for: "open-url").run(values: ["url": "https://example.com"], context: context)
    }
    #expect(error?.message == "cannot open https://example.com: 'xdg-open' is not installed")
    #expect(error?.help == "install it with 'apt-get install xdg-utils', or use 'show' to print the URL")
  }

  @Test func getItemRandomIsDeterministicWithASeed() async throws {
    var picks: [FlowValue] = []
    for _ in 0..<3 {
      let (context, _) = Self.context()
      picks.append(
        try await Self.registry.descriptor(for: "get-item").run(
          values: ["list": [1, 2, 3, 4, 5], "item": "random"], context: context
        ).value)
    }
    #expect(Set(picks).count == 1)
  }

  @Test func showsAListOneItemPerLine() async throws {
    let (context, _) = Self.context()
    let output = try await Self.registry.descriptor(for: "show").run(
      values: ["content": [1, 2.5, true]], context: context)
    #expect(output.dialog == "1\n2.5\ntrue")
    #expect(output.value == [1, 2.5, true])
  }

  @Test func askReasksWithTheReasonTheAnswerDidNotFit() async throws {
    let prompter = ScriptedPrompter([.value("lots"), .value("42")])
    let context = IntentContext(prompter: prompter)
    _ = try await Self.registry.descriptor(for: "ask").run(
      values: ["prompt": "Age?", "type": "integer"], context: context)
    let requests = await prompter.valueRequests
    #expect(requests.map(\.kind) == [.question, .question])
    #expect(requests.last?.problem == "expected a whole number, got 'lots'")
  }

  /// `ask` with `type: date` reads what get-dates-from-input reads, in the system's zone, and re-asks
  /// with the words it takes.
  @Test func askForADateTakesWords() async throws {
    let prompter = ScriptedPrompter([.value("someday"), .value("tomorrow"), .value("2026-12-01 09:00")])
    let clock = ManualClock()
    let context = IntentContext(prompter: prompter, clock: clock)
    let ask = try Self.registry.descriptor(for: "ask")
    let tomorrow = try await ask.run(values: ["prompt": "When?", "type": "date"], context: context)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let expected = try #require(calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: clock.now)))
    #expect(tomorrow.value == .date(expected))
    #expect(await prompter.valueRequests.first.map { _ in true } == true)
    #expect(await prompter.valueRequests.last?.problem == "'someday' is not a date")
    let written = try await ask.run(values: ["prompt": "When?", "type": "date"], context: context)
    let nine = try #require(calendar.date(from: DateComponents(year: 2026, month: 12, day: 1, hour: 9)))
    #expect(written.value == .date(nine))
  }

  /// A date parameter given `ask` (Ask Each Time) reads what the person types as `ask` does.
  @Test func askedDateParameterTakesWords() async throws {
    let prompter = ScriptedPrompter([.value("someday"), .value("next monday")])
    let clock = ManualClock()
    let context = IntentContext(prompter: prompter, clock: clock)
    let adjusted = try await Self.registry.descriptor(for: "adjust-date").run(
      values: ["amount": .number(0)], asking: ["date"], context: context)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    let today = calendar.startOfDay(for: clock.now)
    let offset = (2 - calendar.component(.weekday, from: today) + 7) % 7
    let monday = try #require(calendar.date(byAdding: .day, value: offset == 0 ? 7 : offset, to: today))
    #expect(adjusted.value == .date(monday))
    #expect(await prompter.valueRequests.last?.problem == "'someday' is not a date")
  }

  @Test func getURLIsReadOnlyOnlyForGET() throws {
    let getURL = try Self.registry.descriptor(for: "get-url")
    #expect(getURL.sideEffect(for: ["url": "https://a.example"]) == .readOnly)
    #expect(getURL.sideEffect(for: ["url": "https://a.example", "method": "post"]) == .changes)
    #expect(getURL.hosts(for: ["url": "https://api.example.com/x"]) == ["api.example.com"])
  }
}
