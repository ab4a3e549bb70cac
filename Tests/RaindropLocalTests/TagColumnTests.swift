import Foundation
import Testing

@testable import RaindropLocal

/// The tags column is JSON, written and read by hand for speed: it must say what JSONEncoder and
/// JSONDecoder would, for any tag.
@Suite("Tags column")
struct TagColumnTests {
  static let tagLists: [[String]] = [
    [], ["swift"], ["a", "b", "c"], ["Café", "école", "東京"], ["with \"quotes\"", "back\\slash", "a,b", "[x]"],
    ["line\nbreak", "tab\t", "\u{1}", "\u{1F}"], ["", "empty before"], ["emoji 👩‍👩‍👧", "/slash/"],
  ]

  @Test("written tags read back, and read as JSONDecoder reads them", arguments: tagLists)
  func roundTrip(tags: [String]) throws {
    let text = TagColumn.encode(tags)
    #expect(TagColumn.decode(text) == tags)
    #expect(try JSONDecoder().decode([String].self, from: Data(text.utf8)) == tags)
  }

  @Test("what JSONEncoder wrote (an older flow) reads the same", arguments: tagLists)
  func readsJSONEncoder(tags: [String]) throws {
    let text = try #require(String(data: try JSONEncoder().encode(tags), encoding: .utf8))
    #expect(TagColumn.decode(text) == tags)
  }

  @Test("damaged text reads as no tags, never a crash")
  func damaged() {
    for text in ["", "[", "[\"a\"", "[\"a\",]", "[\"a\" ,\"b\"]", "{}", "[1]", "[\"a\"]x", "null"] {
      #expect(TagColumn.decode(text) == (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? [])
    }
    #expect(TagColumn.decode(nil) == [])
  }
}
