import FlowBasics
import FlowIntents
import FlowTestSupport
import Foundation
import Testing

@testable import FlowSystem

/// Which dialog tool a desktop gets, what each is told for every kind of question, and the words a
/// person reads in them; the dialogs themselves are answered under Xvfb in `DesktopDialogTests`.
struct DesktopDialogsTests {
  @Test(arguments: [
    ("GNOME", ["yad", "zenity", "kdialog"]), ("ubuntu:GNOME", ["yad", "zenity", "kdialog"]),
    ("KDE", ["kdialog", "yad", "zenity"]), ("LXQt", ["kdialog", "yad", "zenity"]),
    ("XFCE", ["yad", "zenity", "kdialog"]), ("", ["yad", "zenity", "kdialog"]),
  ])
  func theDesktopsOwnToolComesFirst(desktop: String, order: [String]) {
    #expect(DesktopDialogs.order(desktop: desktop).map(\.rawValue) == order)
  }

  @Test func aSessionNeedsADisplayAndABus() {
    let bus = "unix:path=/nonexistent/bus"
    #expect(
      DesktopDialogs.missingSession(environment: ["DISPLAY": ":9", "DBUS_SESSION_BUS_ADDRESS": bus], uid: 0) == nil)
    #expect(
      DesktopDialogs.missingSession(
        environment: ["WAYLAND_DISPLAY": "wayland-0", "DBUS_SESSION_BUS_ADDRESS": bus], uid: 0)
        == nil)
    #expect(
      DesktopDialogs.missingSession(environment: ["DBUS_SESSION_BUS_ADDRESS": bus], uid: 0)
        == "neither WAYLAND_DISPLAY nor DISPLAY is set")
    #expect(
      DesktopDialogs.missingSession(environment: ["DISPLAY": ":9", "XDG_RUNTIME_DIR": "/nonexistent"], uid: 0)?
        .hasPrefix("no D-Bus session bus: ") == true)
  }

  @Test func noToolOnThePathIsNone() {
    #expect(DesktopDialogs.find(environment: ["PATH": "/nonexistent"], title: "x") == nil)
  }

  /// Every question, as each tool is told it and as the person reads it.
  @Test func everyQuestionForEveryTool() async throws {
    var questions: [(String, DesktopDialogs.Dialog)] = []
    func value(_ label: String, _ request: ValueRequest) {
      let text = DesktopPrompter.problemLine(request.problem) + request.dialog + DesktopPrompter.hint(for: request)
      questions.append(
        (label, .entry(text: text, initial: request.masked ? nil : request.defaultAnswer?.text, hidden: request.masked))
      )
    }
    let origin = PromptOrigin(intentID: "ask")
    value(
      "text with a default",
      ValueRequest(kind: .question, origin: origin, dialog: "Your name?", valueType: .text, defaultAnswer: "Ada"))
    value("number", ValueRequest(kind: .question, origin: origin, dialog: "How many cups?", valueType: .number))
    var ranged = ValueRequest(kind: .missingParameter, origin: origin, dialog: "Maximum Results", valueType: .integer)
    ranged.range = 1...50
    ranged.problem = "'limit' must be between 1 and 50, got 80"
    value("whole number in a range, asked again", ranged)
    value("date", ValueRequest(kind: .question, origin: origin, dialog: "When?", valueType: .date))
    value("URL", ValueRequest(kind: .question, origin: origin, dialog: "Which page?", valueType: .url))
    var secret = ValueRequest(
      kind: .missingParameter, origin: origin, dialog: "Your PIN?", valueType: .text, defaultAnswer: "1234")
    secret.masked = true
    value("masked secret (its default never shown)", secret)
    value(
      "markup and control characters stay text",
      ValueRequest(kind: .question, origin: origin, dialog: "<b>bold</b> & \u{1B}[31mred", valueType: .text))
    questions.append(("several lines, with a default", .text(text: "Notes?", initial: "first\nsecond")))
    questions.append(("choice", .list(text: "Which drink?", options: ["tea", "--coffee"], multiple: false)))
    questions.append(("several", .list(text: "Which fruit?", options: ["apple", "banana"], multiple: true)))
    questions.append(("confirmation", .question(text: "Use “tea” for Drink?", warning: false)))
    var delete = ConfirmationRequest(
      kind: .intent, origin: PromptOrigin(intentID: "delete-files"), dialog: "Delete 2 files?", isDestructive: true)
    delete.access = [.readsFiles, .deletesFiles]
    questions.append(
      ("destructive", .question(text: delete.dialog + DesktopPrompter.consequences(of: delete), warning: true)))
    var bookmark = ConfirmationRequest(
      kind: .intent, origin: PromptOrigin(intentID: "raindrop.delete-bookmark"), dialog: "Delete the bookmark?",
      isDestructive: true)
    bookmark.access = []
    questions.append(
      (
        "destructive, nothing on the machine",
        .question(text: bookmark.dialog + DesktopPrompter.consequences(of: bookmark), warning: true)
      ))

    var transcript = ""
    for tool in DesktopDialogs.Tool.allCases {
      let dialogs = DesktopDialogs(tool: tool, executable: "/usr/bin/\(tool.rawValue)", environment: [:], title: "Cups")
      for (label, dialog) in questions {
        let (arguments, input) = dialogs.invocation(dialog)
        transcript += "\(tool.rawValue), \(label):\n"
        for argument in arguments { transcript += "  " + argument.replacingOccurrences(of: "\n", with: "⏎") + "\n" }
        if let input {
          transcript +=
            "  stdin: " + String(decoding: input, as: UTF8.self).replacingOccurrences(of: "\n", with: "⏎") + "\n"
        }
      }
    }
    assertGolden(transcript, named: "desktop-dialogs.txt")
  }

  /// Without a dialog tool, what cannot be answered with a notification's buttons names the package.
  @Test func withoutAToolValuesNameThePackage() async throws {
    let prompter = DesktopPrompter(
      dialogs: nil, notifications: nil, installHelp: DesktopDialogs.installHelp(desktop: "KDE"))
    var lines: [String] = []
    do {
      _ = try await prompter.requestValue(
        ValueRequest(
          kind: .question, origin: PromptOrigin(intentID: "ask"), dialog: "How many cups?", valueType: .number))
    } catch let error as AppIntentError {
      lines += [error.message, "help: " + (error.help ?? "")]
    }
    do {
      _ = try await prompter.requestChoice(
        ChoiceRequest(
          kind: .choice, origin: PromptOrigin(intentID: "choose-from-list"), dialog: "Which?",
          options: ["a", "b", "c", "d"]))
    } catch let error as AppIntentError {
      lines += [error.message, "help: " + (error.help ?? "")]
    }
    assertGolden(lines.joined(separator: "\n") + "\n", named: "desktop-without-a-tool.txt")
  }
}
