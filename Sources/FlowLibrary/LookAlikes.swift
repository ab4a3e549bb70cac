import FlowDiagnostics
import FoundationEssentials
import _FoundationICU

/// Names that could pass for other names (Unicode TS #39): a library workflow `bulk-tаg` with a Cyrillic
/// `а` that runs instead of `bulk-tag`, a trusted key `аda` that reads as `ada` on every card. A new
/// workflow or key name is refused when it mixes scripts, uses compatibility forms (full-width `ｂulk`), or
/// has the same skeleton as a name already there.
///
/// The checks are ICU's spoof checker (`uspoof`) with the TS #39 data of the ICU flow links, opened on
/// first use: nothing to keep up to date in this repository. Should ICU fail to open it, names must be
/// ASCII, which needs no table to tell apart.
public enum LookAlikes {
  /// What a name names, for the message.
  public enum Kind {
    case workflow, key

    var noun: String { self == .workflow ? "workflow" : "key" }
  }

  /// Why `name` (made of valid characters: ``Library/isValidName(_:)``) could be taken for another name, as
  /// a diagnostic; nil when it cannot. `existing` are the names it must not look like.
  public static func problem(_ name: String, _ kind: Kind, among existing: [String]) -> Diagnostic? {
    let plain = UnicodeFolding.compatibilityComposed(name)
    if plain != name {
      return Diagnostic(
        .error, .confusableName, "'\(name)' is written with full-width or other compatibility characters",
        at: nil
      ).help("write it '\(plain)'")
    }
    guard let checker = SpoofChecker.shared else {
      guard name.unicodeScalars.allSatisfy(\.isASCII) else {
        return Diagnostic(
          .error, .confusableName, "'\(visible(name))' cannot be checked for look-alikes here: this flow has no ICU",
          at: nil
        ).help("use letters a–z, digits, '-' and '_'")
      }
      return existing.first { $0 != name && $0.lowercased() == name.lowercased() }.map {
        resembles(name, $0, kind)
      }
    }
    let skeleton = checker.skeleton(name)
    if checker.mixesScripts(name) {
      var diagnostic = Diagnostic(
        .error, .confusableName, "'\(name)' mixes letters of different scripts (\(visible(name)))", at: nil)
      if skeleton != name, WorkflowName.isValidName(skeleton) {
        diagnostic = diagnostic.help("did you mean '\(skeleton)'?")
      }
      return diagnostic.help("write a name in one script, so that it cannot pass for another")
    }
    return existing.first { $0 != name && checker.skeleton($0) == skeleton }.map { resembles(name, $0, kind) }
  }

  private static func resembles(_ name: String, _ other: String, _ kind: Kind) -> Diagnostic {
    let shown = name == visible(name) ? "'\(name)'" : "'\(name)' (\(visible(name)))"
    let otherShown = other == visible(other) ? "'\(other)'" : "'\(other)' (\(visible(other)))"
    return Diagnostic(
      .error, .confusableName, "\(shown) looks like the \(kind.noun) \(otherShown) you already have", at: nil
    ).help("choose a name that reads differently")
  }

  /// The name with every character outside ASCII shown by its code point: `bulk-t<U+0430>g`.
  public static func visible(_ name: String) -> String {
    name.unicodeScalars.map { $0.isASCII ? String($0) : TerminalSafe.codePoint($0) }.joined()
  }
}

/// ICU's spoof checker (`uspoof`), with the TS #39 data of the ICU flow links. A checker that is not
/// changed after it is opened may be used from any thread (ICU's `uspoof.h`).
private final class SpoofChecker: @unchecked Sendable {
  /// `USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS`: the checks of one string.
  /// The default restriction level is TS #39's "highly restrictive": one script, or Latin with Han and
  /// Japanese or Korean.
  private static let singleStringChecks = Int32(
    USPOOF_RESTRICTION_LEVEL.rawValue | USPOOF_INVISIBLE.rawValue | USPOOF_MIXED_NUMBERS.rawValue)

  private let checker: OpaquePointer

  public static let shared: SpoofChecker? = SpoofChecker()

  private init?() {
    var status = U_ZERO_ERROR
    guard let checker = swift_uspoof_open(&status), status.rawValue <= 0 else { return nil }
    self.checker = checker
  }

  public func mixesScripts(_ text: String) -> Bool {
    var status = U_ZERO_ERROR
    let result = swift_uspoof_check2UTF8(checker, text, -1, nil, &status)
    return status.rawValue <= 0 && result & Self.singleStringChecks != 0
  }

  /// The TS #39 skeleton: two names with the same one look alike.
  public func skeleton(_ text: String) -> String {
    var capacity: Int32 = 256
    while true {
      var buffer = [CChar](repeating: 0, count: Int(capacity) + 1)
      var status = U_ZERO_ERROR
      let length = swift_uspoof_getSkeletonUTF8(checker, 0, text, -1, &buffer, capacity, &status)
      if status == U_BUFFER_OVERFLOW_ERROR, length > capacity {
        capacity = length
        continue
      }
      guard status.rawValue <= 0 else { return text }
      return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }
}

extension DiagnosticCode {
  /// A new workflow or key name mixes scripts, uses compatibility forms, or looks like a name already there.
  public static let confusableName: Self = "confusable-name"
}
