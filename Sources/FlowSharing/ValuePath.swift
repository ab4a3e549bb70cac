/// Where a value sits in a workflow file, written as `--allow-secret` takes it: keys joined by `.`,
/// list items as `[N]` counted from 1 as `flow run` counts steps, keys that hold other characters quoted:
/// `steps[2].get-url.headers.Authorization`, `workflows["greet.yml"].input.key.default`. A comment is
/// `comment:LINE`, its line in its own file: `workflows["greet.yml"].comment:3` in a workflow it runs.
public struct ValuePath: Sendable, Hashable, CustomStringConvertible {
  enum Segment: Sendable, Hashable {
    case key(String)
    case index(Int)
  }

  var segments: [Segment] = []
  /// The line of a comment, for a finding in a comment.
  var commentLine: Int?

  init(segments: [Segment] = [], commentLine: Int? = nil) {
    self.segments = segments
    self.commentLine = commentLine
  }

  func appending(_ segment: Segment) -> ValuePath {
    ValuePath(segments: segments + [segment])
  }

  public var description: String {
    var text = ""
    for segment in segments {
      switch segment {
      case .index(let index): text += "[\(index)]"
      case .key(let key):
        if Self.isPlain(key) {
          text += text.isEmpty ? key : ".\(key)"
        } else {
          text +=
            "[\"\(key.replacingEvery("\\", with: "\\\\").replacingEvery("\"", with: "\\\""))\"]"
        }
      }
    }
    if let commentLine { text += (text.isEmpty ? "" : ".") + "comment:\(commentLine)" }
    return text
  }

  private static func isPlain(_ key: String) -> Bool {
    !key.isEmpty
      && key.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
      }
  }
}
