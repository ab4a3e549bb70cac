import FlowIntents
import FlowSharing
import Testing

/// Answers to import questions become defaults by editing the text: comments and formatting stay.
struct ImportAnswersTests {
  static func apply(_ answers: [String: String], to text: String) throws -> String {
    String(decoding: try ImportAnswers.apply(answers, to: Array(text.utf8), path: "w.yml").get(), as: UTF8.self)
  }

  @Test func addsADefaultAfterTheInputsLastKey() throws {
    let text = """
      flow: 1
      input:
        # Where the bookmarks go.
        collection:
          type: text          # a collection's title
          ask-on-import: true
        limit: number
      steps:
        - show: ${input.collection}

      """
    let edited = try Self.apply(["collection": ImportAnswers.yaml(for: "Reading ${later}", type: .text)], to: text)
    #expect(
      edited == """
        flow: 1
        input:
          # Where the bookmarks go.
          collection:
            type: text          # a collection's title
            ask-on-import: true
            default: "Reading $${later}"
          limit: number
        steps:
          - show: ${input.collection}

        """)
  }

  @Test func replacesADefaultWhereItStands() throws {
    let text = """
      flow: 1
      input:
        tags:
          type: "[text]"
          default:       # what most people want
            - inbox
            - later
          ask-on-import: true
        size: {type: number, default: 10, ask-on-import: true}
        mood: {type: text, ask-on-import: true}
      steps: []

      """
    let edited = try Self.apply(
      [
        "tags": ImportAnswers.yaml(for: "swift, linux", type: .list(.text)),
        "size": ImportAnswers.yaml(for: "25", type: .number),
        "mood": ImportAnswers.yaml(for: "calm \"and\" quiet", type: .text),
      ], to: text)
    #expect(
      edited == """
        flow: 1
        input:
          tags:
            type: "[text]"
            default: ["swift", "linux"]
            ask-on-import: true
          size: {type: number, default: 25, ask-on-import: true}
          mood: {type: text, ask-on-import: true, default: "calm \\"and\\" quiet"}
        steps: []

        """)
  }

  @Test func answersAreWrittenAsTheirTypes() {
    #expect(ImportAnswers.yaml(for: "12", type: .number) == "12")
    #expect(ImportAnswers.yaml(for: "twelve", type: .number) == "\"twelve\"")
    #expect(ImportAnswers.yaml(for: "true", type: .boolean) == "true")
    #expect(ImportAnswers.yaml(for: "https://swift.org", type: .url) == "\"https://swift.org\"")
    #expect(ImportAnswers.yaml(for: "a\nb", type: .any) == "\"a\\nb\"")
    // A list's items as its element type: numbers plain, text quoted; a plain 'list' is a list too.
    #expect(ImportAnswers.yaml(for: "3, 4.5", type: .list(.number)) == "[3, 4.5]")
    #expect(ImportAnswers.yaml(for: "a, b", type: .list(.any)) == "[\"a\", \"b\"]")
  }
}
