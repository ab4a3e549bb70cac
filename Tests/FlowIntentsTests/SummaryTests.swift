import FlowIntents
import Testing

struct SummaryTests {
  let summary = IntentDescriptor(SaveBookIntent.self).summary

  @Test func keyPathsBecomeParameterKeys() {
    #expect(summary.sentence == [.text("Save "), .parameter("url"), .text(" to the library")])
    #expect(summary.trailing == ["title", "add-tags", "max-results", "sort-by"])
  }

  @Test func rendersWithPlaceholders() {
    #expect(summary.render(values: [:]) == "Save <url> to the library")
    #expect(summary.renderPlaceholders() == "Save <url> to the library [title] [add-tags] [max-results] [sort-by]")
  }

  @Test func rendersWithValues() {
    let text = summary.render(values: ["url": "https://example.com", "title": "Example", "add-tags": "a, b"])
    #expect(text == "Save https://example.com to the library (title: Example, add-tags: a, b)")
  }

  @Test func anIntentWithoutASummaryShowsItsTitle() {
    let layout = IntentDescriptor(GetBooksIntent.self).summary
    #expect(layout.isUndeclared)
    #expect(layout.render(values: [:]) == "Get Books")
  }
}
