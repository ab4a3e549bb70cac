import FlowIntents
import FlowPresentation
import Foundation
import Testing

/// The card over-approximates (issue 28): over every path a run can take it says at least what happens,
/// and what it cannot know it calls "any". Each case is one the last audit walked past.
struct SoundCardTests {
  func capabilities(_ yaml: String) throws -> Capabilities {
    let (workflow, loader) = try checked(yaml)
    return CapabilityAnalysis(registry: registry, loader: loader).analyze(workflow)
  }

  /// The files a kind may act on, as the run's contract holds them.
  func scope(_ kind: MachineAccess.Kind, _ yaml: String) throws -> CapabilitySet.Scope<String>? {
    try capabilities(yaml).contract.files[kind]
  }

  /// A step a condition skips leaves `${previous}` as it was: both files are on the card.
  @Test func aSkippedStepLeavesEitherOutput() throws {
    let found = try scope(
      .deletesFiles,
      """
      flow: 1
      steps:
        - get-file: ~/Documents/*.docx
        - get-file: ~/tmp/*.tmp
          when: false
        - delete-files:
            files: ${previous}
            permanently: true
      """)
    #expect(found == .only(["~/Documents/*.docx", "~/tmp/*.tmp"]))
  }

  /// So does a step that may fail and go on.
  @Test func aStepThatMayFailLeavesEitherOutput() throws {
    let found = try scope(
      .trashesFiles,
      """
      flow: 1
      steps:
        - get-file: ~/a.txt
        - get-file: ~/b.txt
          on-error: continue
        - delete-files: ${previous}
      """)
    #expect(found == .only(["~/a.txt", "~/b.txt"]))
  }

  /// One branch of an `if` never sees another's outputs: `${previous}` in `else:` is what came before
  /// the block, which here is not a file the card knows, so any file.
  @Test func branchesStartFromWhatCameBefore() throws {
    let found = try scope(
      .trashesFiles,
      """
      flow: 1
      steps:
        - text: ~/precious.txt
        - if: ${previous} == x
          then:
            - get-file: ~/tmp/a.tmp
          else:
            - delete-files: ${previous}
      """)
    #expect(found == .any)
  }

  /// The second time round a loop starts with what the first left: any file, not the one before it.
  @Test func aLoopStartsWithWhatItsLastTimeLeft() throws {
    let found = try scope(
      .trashesFiles,
      """
      flow: 1
      steps:
        - get-file: ~/tmp/a.tmp
        - repeat: 2
          do:
            - delete-files: ${previous}
            - get-file: ~/Documents/thesis.docx
      """)
    #expect(found == .any)
  }

  /// `on-failure:` runs after whichever step failed.
  @Test func onFailureMayActOnAnyOutput() throws {
    let found = try scope(
      .trashesFiles,
      """
      flow: 1
      steps:
        - get-file: ~/tmp/a.tmp
        - get-file: ~/Documents/thesis.docx
      on-failure:
        - delete-files: ${previous}
      """)
    #expect(found == .any)
  }

  /// Replacing a file's contents is destructive and in red, and so is an `if-exists` the run computes.
  @Test func replacingAFileIsRed() throws {
    let found = try capabilities(
      """
      flow: 1
      input:
        how: text
      steps:
        - save-file:
            content: x
            path: ~/report.md
            if-exists: replace
        - copy-file:
            file: ~/a.txt
            to: ~/b.txt
            if-exists: ${input.how}
      """)
    #expect(found.contract.files[.replacesFiles] == .only(["~/report.md", "~/b.txt"]))
    let line = try #require(CapabilityLines.lines(found).first { $0.text.description.hasPrefix("replaces files") })
    #expect(line.tone == .alarm)
    #expect(line.text.description == "replaces files, losing what they held: ~/report.md (step 1), ~/b.txt (step 2)")
  }

  /// A shell step shows everything that decides what runs: its interpreter, arguments, standard input,
  /// environment and working directory.
  @Test func aShellStepShowsWhatDecidesWhatRuns() throws {
    let found = try capabilities(
      """
      flow: 1
      steps:
        - run-shell:
            script: echo "$1" "$GREETING"
            shell: bash
            arguments: ["${previous}"]
            input: ${previous}
            environment: {GREETING: hi}
            working-directory: ~/src
      """)
    let line = try #require(CapabilityLines.lines(found).first { $0.text.description.hasPrefix("runs") })
    #expect(
      line.text.description
        == "runs this script with bash in run-shell (step 1), arguments ${previous}, input ${previous}, "
        + "environment GREETING=hi, working directory ~/src:")
    #expect(line.verbatim == [#"echo "$1" "$GREETING""#])
    #expect(
      found.contract.commands == .only([CapabilitySet.Command(program: "bash", script: #"echo "$1" "$GREETING""#)]))
  }

  /// A computed interpreter runs whatever it names: any command.
  @Test func aComputedInterpreterIsAnyCommand() throws {
    let found = try capabilities(
      """
      flow: 1
      steps:
        - run-shell:
            script: echo hi
            shell: ${previous}
      """)
    #expect(found.contract.commands == .any)
  }

  /// Data in a body or headers is "sends", in red, like data in a URL; a request with only a URL written
  /// out sends nothing computed.
  @Test func aBodyOrHeaderSends() throws {
    let found = try capabilities(
      """
      flow: 1
      steps:
        - get-clipboard
        - get-url:
            url: https://paste.example/new
            method: POST
            json: {text: "${previous}"}
        - get-url:
            url: https://api.example/v1
            headers: {Authorization: "Bearer ${previous}"}
        - get-url: https://swift.org/
      """)
    #expect(found.requestData.map(\.host) == ["paste.example", "api.example"])
    let texts = CapabilityLines.lines(found).filter { $0.tone == .alarm }.map(\.text.description)
    #expect(texts.contains("sends data to paste.example, in the body or headers of get-url (step 2)"))
    let contract = found.contract
    #expect(contract.allows(url: URL(string: "https://swift.org/")!, carriesData: false))
    #expect(!contract.allows(url: URL(string: "https://swift.org/?q=secret")!, carriesData: false))
    #expect(contract.allows(url: URL(string: "https://paste.example/new")!, carriesData: true))
    #expect(!contract.allows(url: URL(string: "https://swift.org/")!, carriesData: true))
  }

  /// A workflow chosen at run time could be any: the run is held to nothing narrower, as the card says.
  @Test func aWorkflowChosenAtRunTimeIsAnything() throws {
    let found = try capabilities(
      """
      flow: 1
      steps:
        - text: other.yml
        - run-workflow: ${previous}
      """)
    #expect(found.contract.everything)
  }
}

/// A script on the card is cut where it is too long for the line after a space, never inside a word,
/// and the piece that continues it says so.
struct ScriptLineTests {
  @Test func aLongScriptLineIsCutBetweenWords() throws {
    let card = PermissionCard(width: 44, colors: false).render(
      try outline(
        """
        flow: 1
        steps:
          - run-shell: tar czf ~/backups/notes.tgz ~/notes && rm -rf ~/notes/tmp
        """), source: "test.yml")
    let lines = card.split(separator: "\n").map(String.init)
    let start = try #require(lines.firstIndex { $0.contains("tar czf") })
    #expect(lines[start].hasSuffix("tar czf ~/backups/notes.tgz ~/notes"), "\(card)")
    #expect(lines[start + 1].hasSuffix("↪ && rm -rf ~/notes/tmp"), "\(card)")
  }
}

extension SoundCardTests {
  /// A copy passes on the file it made, which `keep-both` numbers (`b 3.txt`): not the file it read, and
  /// no path the step writes. What acts on it may act on any file (found by the card fuzz target).
  @Test func aCopysOutputIsNotTheFileItRead() throws {
    let found = try capabilities(
      """
      flow: 1
      steps:
        - copy-file:
            file: ~/keep/x.txt
            to: ~/b.txt
            if-exists: keep-both
        - move-file:
            file: ${previous}
            to: ~/new.txt
      """)
    #expect(found.contract.files[.writesFiles] == .any)
  }
}
