import FlowDiagnostics
import FlowIntents
import FlowYAML

/// Values written into YAML by flow: always in a form that reads back as exactly the value.
enum YAMLText {
  /// A double-quoted scalar: a JSON string is one (its escapes are YAML's), with `${` doubled so that
  /// the text stays text rather than becoming a reference.
  static func quoted(_ text: String) -> String {
    JSON.encode(.text(text.replacingEvery("${", with: "$${")))
  }

  /// A key as written: plain when it reads back as itself, quoted otherwise.
  static func key(_ text: String) -> String {
    let plain =
      !text.isEmpty && ScalarValue(plain: text) == .string(text)
      && text.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || "-_./".unicodeScalars
            .contains($0)
      } && !text.hasPrefix("-") && !text.hasPrefix(".")
    return plain ? text : quoted(text)
  }
}
