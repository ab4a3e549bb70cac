import FlowBasics
import FlowIntents
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowTestSupport
import Foundation
import Testing

/// The card names the files a step acts on when they come from an earlier step that got them by a path
/// or glob it writes out: "moves files to the Trash: ~/Downloads/*.tmp", not "any file" (issue 14).
struct FileCapabilityTests {
  let registry = IntentRegistry(catalogs: [BasicsCatalog.self])

  func machine(_ yaml: String) throws -> [String] {
    let check = WorkflowCheck(registry: registry, files: MemoryFiles(files: ["test.yml": yaml]))
    let (workflow, diagnostics) = check.check(path: "test.yml")
    #expect(!diagnostics.hasErrors)
    let outline = OutlineBuilder(registry: registry, loader: check)
      .outline(of: try #require(workflow), provenance: Provenance(), now: Date(timeIntervalSince1970: 1_795_000_000))
    return outline.capabilities.machine.map { "\($0.kind) \($0.subject ?? "any") \($0.steps.map(\.position))" }
  }

  @Test func aGlobFromGetFileNamesWhatDeleteFilesTrashes() throws {
    let lines = try machine(
      """
      flow: 1
      name: Clean
      steps:
        - get-file: ~/Downloads/*.tmp
          as: old
        - count: ${old}
        - delete-files: ${old}
        - get-folder-contents: ~/cache
        - delete-files: ${previous}
        - read-file: ~/list.txt
        - delete-files: ${previous}
      """)
    #expect(
      lines == [
        #"reads-files ~/Downloads/*.tmp ["1"]"#,
        #"trashes-files ~/Downloads/*.tmp ["3"]"#,
        #"reads-files ~/cache ["4"]"#,
        #"trashes-files ~/cache ["5"]"#,
        #"reads-files ~/list.txt ["6"]"#,
        // read-file's output is the file's text, which could name any file.
        #"trashes-files any ["7"]"#,
      ])
  }

  @Test func aVariableSetInBetweenIsAnyFile() throws {
    let lines = try machine(
      """
      flow: 1
      name: Clean
      steps:
        - get-file: ~/Downloads/*.tmp
        - set: old
          value: ${previous}
        - delete-files: ${previous}
      """)
    #expect(lines == [#"reads-files ~/Downloads/*.tmp ["1"]"#, #"trashes-files any ["3"]"#])
  }

  /// Filtering or sorting files keeps them the files the glob named: the clean-downloads gallery workflow.
  @Test func filteredFilesAreStillTheGlobsFiles() throws {
    let lines = try machine(
      """
      flow: 1
      name: Clean
      steps:
        - get-file: ~/Downloads/*.tmp
        - filter:
            list: ${previous}
            property: size
            comparison: greater-than
            value: 0
          as: old
        - delete-files: ${old}
      """)
    #expect(lines == [#"reads-files ~/Downloads/*.tmp ["1"]"#, #"trashes-files ~/Downloads/*.tmp ["3"]"#])
  }
}
