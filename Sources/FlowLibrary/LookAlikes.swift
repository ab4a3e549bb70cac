import FlowDiagnostics
import FoundationEssentials
import Glibc

/// Names that could pass for other names (Unicode TS #39): a library workflow `bulk-tаg` with a Cyrillic
/// `а` that runs instead of `bulk-tag`, a trusted key `аda` that reads as `ada` on every card. A new
/// workflow or key name is refused when it mixes scripts, uses compatibility forms (full-width `ｂulk`), or
/// has the same skeleton as a name already there.
///
/// The checks are ICU's spoof checker (`uspoof`) from the ICU that Foundation bundles, with its TS #39
/// data, loaded on first use: nothing to keep up to date in this repository. Where it cannot be loaded,
/// names must be ASCII, which needs no table to tell apart.
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

/// ICU's spoof checker, through the C functions of the ICU Foundation bundles (`swift_uspoof_…`), found
/// with `dlsym`: Swift cannot import that ICU's headers, and the functions are there in every Foundation.
/// A checker that is not changed after it is opened may be used from any thread (ICU's `uspoof.h`).
private final class SpoofChecker: @unchecked Sendable {
  private typealias Open = @convention(c) (UnsafeMutablePointer<Int32>?) -> OpaquePointer?
  private typealias Check2 =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, Int32, OpaquePointer?, UnsafeMutablePointer<Int32>?
    ) -> Int32
  private typealias Skeleton =
    @convention(c) (
      OpaquePointer?, UInt32, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32,
      UnsafeMutablePointer<Int32>?
    ) -> Int32

  /// `USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS`: the checks of one string.
  /// The default restriction level is TS #39's "highly restrictive": one script, or Latin with Han and
  /// Japanese or Korean.
  private static let singleStringChecks: Int32 = 16 | 32 | 128

  private let checker: OpaquePointer
  private let check2: Check2
  private let skeletonUTF8: Skeleton

  public static let shared: SpoofChecker? = SpoofChecker()

  private init?() {
    func symbol(_ name: String) -> UnsafeMutableRawPointer? {
      if let found = dlsym(dlopen(nil, RTLD_NOW), name) { return found }
      return dlopen("lib_FoundationICU.so", RTLD_NOW | RTLD_LOCAL).flatMap { dlsym($0, name) }
    }
    guard let open = symbol("swift_uspoof_open"), let check = symbol("swift_uspoof_check2UTF8"),
      let skeleton = symbol("swift_uspoof_getSkeletonUTF8")
    else { return nil }
    var status: Int32 = 0
    guard let checker = unsafeBitCast(open, to: Open.self)(&status), status <= 0 else { return nil }
    self.checker = checker
    check2 = unsafeBitCast(check, to: Check2.self)
    skeletonUTF8 = unsafeBitCast(skeleton, to: Skeleton.self)
  }

  public func mixesScripts(_ text: String) -> Bool {
    var status: Int32 = 0
    let result = check2(checker, text, -1, nil, &status)
    return status <= 0 && result & Self.singleStringChecks != 0
  }

  /// The TS #39 skeleton: two names with the same one look alike.
  public func skeleton(_ text: String) -> String {
    var capacity: Int32 = 256
    while true {
      var buffer = [CChar](repeating: 0, count: Int(capacity) + 1)
      var status: Int32 = 0
      let length = skeletonUTF8(checker, 0, text, -1, &buffer, capacity, &status)
      // U_BUFFER_OVERFLOW_ERROR: try again with the length it needs.
      if status == 15, length > capacity {
        capacity = length
        continue
      }
      guard status <= 0 else { return text }
      return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }
}

extension DiagnosticCode {
  /// A new workflow or key name mixes scripts, uses compatibility forms, or looks like a name already there.
  public static let confusableName: Self = "confusable-name"
}
