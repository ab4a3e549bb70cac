import FlowLibrary
import Testing

/// The Desktop Entry Specification's escaping, which the launcher's entries and the scheduler's app id
/// are written with (`desktop-file-validate` reads them in FlowCLITests' LauncherCommandTests).
struct DesktopEntryFileTests {
  @Test func stringsEscapeWhatTheSpecificationSays() {
    #expect(DesktopEntryFile.string(" a\\b\nc\td\re") == #"\sa\\b\nc\td\re"#)
    #expect(DesktopEntryFile.string("bell\u{07}") == "bell ")
    #expect(DesktopEntryFile.list(["a;b", "c"]) == #"a\;b;c;"#)
  }

  @Test func execQuotesReservedCharactersAndDoublesPercent() {
    #expect(DesktopEntryFile.exec(["/usr/bin/flow", "run", "tidy"]) == "/usr/bin/flow run tidy")
    #expect(DesktopEntryFile.exec(["/a b/flow", "50%"]) == #""/a b/flow" 50%%"#)
    // `$` inside quotes is `\$`, whose backslash the string's escaping doubles.
    #expect(DesktopEntryFile.exec(["a$b"]) == #""a\\$b""#)
    #expect(DesktopEntryFile.exec([""]) == #""""#)
  }

  @Test func readsBackWhatItWrites() {
    let entry = DesktopEntryFile([("Name", DesktopEntryFile.string(" Tidy\n\\ up")), ("Type", "Application")])
    let read = DesktopEntryFile.parse("# a comment\n" + entry.text + "\n[Desktop Action x]\nName=other\n")
    #expect(read == entry)
    #expect(read?["Name"] == " Tidy\n\\ up")
    #expect(read?["Exec"] == nil)
    #expect(DesktopEntryFile.parse("no group here") == nil)
  }
}
