import FlowTestSupport
import Foundation
import Testing

/// Issue 30's "less to write": `where:`, date arithmetic, `make-table`, `match-text`'s named groups and
/// a list given as text, each checked before the run and run for real on real files.
struct LessToWriteTests {
  /// A machine with `steps` as `chore.yml`.
  static func machine(_ text: String) throws -> Machine {
    let machine = try Machine(in: temporaryDirectory())
    try machine.write("chore.yml", text)
    return machine
  }

  /// Every problem is found by `flow validate` at its column: an item property one letter off (with its
  /// did-you-mean), `where:` on an action whose output is no list or on a block, date arithmetic on a
  /// number, with an unknown unit, without one or out of range, a named group that the pattern does not
  /// have, and a list given to a text parameter (a warning; silent where lines are what is meant).
  @Test func problemsAreFoundBeforeTheRunAtTheirColumn() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - get-folder-contents: ~/Downloads
          where: kindd == file and modified < ${now - 7 days}
          as: files
        - calculate: 1 + 1
          where: size > 3
          as: n
        - if: ${n} > 1
          where: kind == file
          then:
            - show: ${now - 1 dayz}
        - show: ${n - 1 day}
        - show: ${now - 7}
        - show: ${now - 1000000 days}
        - match-text: {text: "2026-11", pattern: "(?<year>\\\\d{4})-(?<month>\\\\d\\\\d)"}
          as: match
        - show: ${match.yeer}
        - split-text: ${files}
        - append-to-file: {text: "${files}", path: ~/list.txt}
        - text: ${files}
        - show: ${files}
      """)
    let result = await machine.run(["validate", "chore.yml"])
    #expect(result.status == 2)
    assertGolden(machine.transcript(result), named: "validate/less-to-write-problems.txt")
  }

  /// `where:` keeps the Files whose own properties satisfy it, with `${now - 7 days}` counted from the
  /// run's clock: a folder and a new file are left out, an old file kept. Without a comparison of its
  /// own, `filter` passes every item to its `where:`.
  @Test func whereKeepsTheItemsThatHold() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - get-folder-contents: box
          where: kind == file and modified < ${now - 7 days}
          as: old
        - show: "old: ${old.count} ${old.first.name}"
        - list: [apple, banana, cherry]
        - filter: ${previous}
          where: ${item} contains "an" or ${index} == 3
        - show: ${previous}
      """)
    let box = machine.directory.appendingPathComponent("box")
    try FileManager.default.createDirectory(at: box.appendingPathComponent("folder"), withIntermediateDirectories: true)
    for name in ["old.tmp", "new.tmp"] { try machine.write("box/\(name)", name) }
    let month = Date().addingTimeInterval(-30 * 86_400)
    try FileManager.default.setAttributes(
      [.modificationDate: month], ofItemAtPath: box.appendingPathComponent("old.tmp").path)
    try FileManager.default.setAttributes(
      [.modificationDate: month], ofItemAtPath: box.appendingPathComponent("folder").path)
    let result = await machine.run(["run", "chore.yml"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "old: 1 old.tmp\nbanana\ncherry\n")
  }

  /// `where:` on an action whose output is known only at the run, and is not a list, fails the step there.
  @Test func whereOnWhatIsNoListFailsTheStep() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - get-value: {dictionary: {a: 5}, key: a}
          where: ${item} > 1
      """)
    let result = await machine.run(["run", "chore.yml"])
    #expect(result.status == 1)
    #expect(result.error.contains("'where' keeps items of a list, but 'get-value' gave 5"), "\(result.error)")
  }

  /// Date arithmetic in both directions and units, on a date a step made.
  @Test func dateArithmeticCountsOnTheCalendar() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - get-dates-from-input: "2026-01-31T10:00:00Z"
          as: dates
        - get-item: ${dates}
          as: day
        - show: "${day + 1 month} ${day - 2 hours} ${day + 90 minutes} ${day - 1 week} ${day + 1 year}"
      """)
    let result = await machine.run(["run", "chore.yml"], environment: ["TZ": "UTC"])
    #expect(result.status == 0, "\(result.error)")
    assertGolden(machine.transcript(result), named: "run/date-arithmetic.txt")
  }

  /// `make-table` lays Files and dictionaries out, as Markdown and as plain columns; numbers align right
  /// and a '|' stays in its cell.
  @Test func makeTableLaysOutFilesAndDictionaries() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - get-folder-contents: box
        - sort: {list: "${previous}", by: size, order: descending}
        - make-table: {list: "${previous}", columns: [name, size, kind]}
        - show: ${previous}
        - list:
            - {tool: grep, stars: 5, note: "a|b"}
            - {tool: awk, stars: 12}
          as: tools
        - make-table: {list: "${tools}", style: plain}
        - show: ${previous}
        - make-table: {list: "${tools}", limit: 1}
        - show: ${previous}
        - make-table: [not, a, dictionary]
          on-error: continue
      """)
    try FileManager.default.createDirectory(
      at: machine.directory.appendingPathComponent("box/folder"), withIntermediateDirectories: true)
    try machine.write("box/a.txt", "12345")
    try machine.write("box/b.txt", "1")
    let result = await machine.run(["run", "chore.yml"])
    #expect(result.status == 0, "\(result.error)")
    assertGolden(machine.transcript(result), named: "run/make-table.txt")
  }

  /// A pattern with named groups gives its first match with each group as a property; without a match,
  /// nothing. Without names, every match as a list, as before.
  @Test func matchTextGivesNamedGroups() async throws {
    let machine = try Self.machine(
      #"""
      flow: 1
      steps:
        - match-text: {text: "report 2026-11.pdf", pattern: "(?<year>\\d{4})-(?<month>\\d\\d)(?<day>-\\d\\d)?"}
          as: match
        - show: "${match.year}/${match.month} [${match.day}] from ${match}"
        - match-text: {text: "no date", pattern: "(?<year>\\d{4})"}
        - show: "none: ${previous} is empty"
          when: ${previous} is empty
        - match-text: {text: "a1 b2", pattern: "\\d"}
        - show: ${previous.count}
      """#)
    let result = await machine.run(["run", "chore.yml"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "2026/11 [] from 2026-11\nnone:  is empty\n2\n")
  }

  /// A whole list given as text is one item per line, as Shortcuts makes it; inside other text it is
  /// joined by ", ".
  @Test func aListBecomesTextOneItemPerLine() async throws {
    let machine = try Self.machine(
      """
      flow: 1
      steps:
        - list: [a, b, c]
          as: letters
        - text: ${letters}
        - show: "[${previous}]"
        - show: "[${letters}]"
        - append-to-file: {text: "${letters}", path: out.txt}
      """)
    let result = await machine.run(["run", "chore.yml"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "[a\nb\nc]\n[a, b, c]\n")
    let written = try String(contentsOf: machine.directory.appendingPathComponent("out.txt"), encoding: .utf8)
    #expect(written.hasPrefix("a\nb\nc"))
  }
}
