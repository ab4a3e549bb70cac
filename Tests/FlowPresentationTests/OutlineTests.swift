import FlowIntents
import FlowPresentation
import Testing

/// The outline's sentences: parameter summaries with their values, chips, coercions, blocks, annotations.
struct OutlineTests {
  @Test func summarySentenceReadsWithItsValues() throws {
    let outline = try outline(
      """
      flow: 1
      input:
        url: url
      steps:
        - save-bookmark:
            url: ${input.url}
            collection: Reading
            tags: [swift]
          as: saved
      """)
    let save = try step("1", of: outline)
    #expect(save.sentence.description == "Save ⟨input.url⟩ to Raindrop.io · collection Reading · tags swift")
    #expect(save.action == "raindrop.save-bookmark")
    #expect(save.annotations.map(\.text.description) == ["→ ⟨saved⟩ (Bookmark)"])
    #expect(save.mark?.text == "changes · api.raindrop.io")
    #expect(save.sentence.parts.contains(.init(.variable, "⟨input.url⟩")))
  }

  /// The checker's types show every conversion a value goes through on its way into a parameter.
  @Test func coercionsAreVisible() throws {
    let outline = try outline(
      """
      flow: 1
      steps:
        - save-bookmark: https://swift.org
          as: saved
        - get-url: ${saved}
        - list: [a, b]
          as: letters
        - text: ${letters}
        - text: "all: ${letters}, first: ${letters.first}, saved: ${saved}"
        - update-bookmark:
            bookmark: ${saved}
            add-tags: ${saved.title}
        - number: 3
          as: three
        - show: ${three}
      """)
    #expect(try step("2", of: outline).sentence.description == "Get contents of ⟨saved⟩ as URL")
    #expect(try step("4", of: outline).sentence.description == "Text ⟨letters⟩ as Text")
    // Inside text only what does not read as itself is marked: a list, an entity; not a piece of text.
    #expect(
      try step("5", of: outline).sentence.description
        == "Text “all: ⟨letters⟩ as Text, first: ⟨letters.first⟩, saved: ⟨saved⟩ as Text”")
    // A Bookmark where a Bookmark is wanted passes as it is; one text where a list is wanted is a list.
    #expect(
      try step("6", of: outline).sentence.description
        == "Update ⟨saved⟩ · add tags ⟨saved.title⟩ as List of Text")
    #expect(try step("8", of: outline).sentence.description == "Show ⟨three⟩")
    #expect(try step("2", of: outline).sentence.parts.last == .init(.coercion, " as URL"))
  }

  @Test func blocksNestWithTheirBranchesAndNumbers() throws {
    let outline = try outline(
      """
      flow: 1
      steps:
        - if: ${previous} is empty
          then:
            - text: none
          else:
            - repeat: 2
              do:
                - text: ${index}
        - menu: Next?
          options:
            Archive: [{text: archived}]
            Keep: []
          default: Keep
        - for-each: [a, b]
          as: letter
          do:
            - show: ${letter}
      """)
    let branch = try step("1", of: outline)
    #expect(branch.sentence.description == "If ⟨previous⟩ is empty")
    #expect(branch.branches.map { $0.label?.description } == [nil, "Otherwise"])
    #expect(branch.end == "End If")
    // The branches count on from each other: `else:` starts after `then:`'s one step, at 1.2.
    #expect(try step("1.1", of: outline).sentence.description == "Text “none”")
    #expect(try step("1.2", of: outline).sentence.description == "Repeat 2 times")
    #expect(try step("1.2.1", of: outline).sentence.description == "Text ⟨index⟩")
    let menu = try step("2", of: outline)
    #expect(menu.sentence.description == "Choose from menu “Next?” · default Keep")
    #expect(menu.branches.map { $0.label?.description } == ["Archive", "Keep"])
    #expect(menu.end == "End Menu")
    #expect(try step("3", of: outline).sentence.description == "Repeat with each ⟨letter⟩ in a, b")
    #expect(outline.summary.actionCount == 8)
  }

  @Test func stepKeysBecomeAnnotations() throws {
    let outline = try outline(
      """
      flow: 1
      steps:
        - text: hi
          as: greeting
          when: ${previous} is not empty
          confirm: Say ${previous}?
          retry: {attempts: 3, delay: 2s}
          timeout: 30s
          on-error: continue
        - delete-bookmark: 12
        - for-each: [1, 2]
          confirm: Delete both?
          do:
            - delete-bookmark: ${item}
      """)
    #expect(
      try step("1", of: outline).annotations.map(\.text.description) == [
        "→ ⟨greeting⟩ (Text)", "only if ⟨previous⟩ is not empty", "asks first: “Say ⟨previous⟩?”",
        "tries up to 3 times, 2s apart", "times out after 30s", "on error, goes on without its output",
      ])
    #expect(try step("2", of: outline).annotations.map(\.text.description) == ["always asks first"])
    // Inside a block that asked, an action that always asks is answered by the block's question, as a run does.
    #expect(
      try step("3.1", of: outline).annotations.map(\.text.description) == ["confirmed by the question of step 3"])
    #expect(try step("2", of: outline).mark?.text == "deletes · api.raindrop.io")
  }

  @Test func confirmationsAutoIsSaidAtTheStep() throws {
    let outline = try outline(
      """
      flow: 1
      confirmations: auto
      steps:
        - delete-bookmark: 12
      """)
    #expect(
      try step("1", of: outline).annotations.map(\.kind) == [.unattended])
  }

  @Test func conditionsReadAsWords() throws {
    let outline = try outline(
      """
      flow: 1
      steps:
        - text: x
          as: t
        - if: not ${t} contains "a" and (${t} == "b" or ${t.count} >= 2)
          then: []
        - if: not ${t} is empty
          then: []
      """)
    #expect(
      try step("2", of: outline).sentence.description
        == "If ⟨t⟩ does not contain “a” and (⟨t⟩ is “b” or ⟨t.count⟩ is at least 2)")
    #expect(try step("3", of: outline).sentence.description == "If ⟨t⟩ is not empty")
  }

  @Test func enumsShowTheirNamesAndDefaultsFillTheSentence() throws {
    let outline = try outline(
      """
      flow: 1
      steps:
        - list: [b, a]
        - sort:
            list: ${previous}
            order: descending
        - combine-text: ${previous}
        - get-url: ask
        - delete-bookmark
      """)
    #expect(
      try step("2", of: outline).sentence.description == "Sort ⟨previous⟩ by [By] Descending (Z to A, 9 to 1)")
    #expect(try step("3", of: outline).sentence.description == "Combine ⟨previous⟩ with Spaces")
    #expect(try step("3", of: outline).sentence.parts.last == .init(.placeholder, "Spaces"))
    #expect(try step("4", of: outline).sentence.description == "Get contents of Ask Each Time")
    #expect(try step("5", of: outline).sentence.description == "Delete [Bookmark]")
  }

  @Test func variablesStopAndNestedWorkflowsReadAsSentences() throws {
    let outline = try outline(
      """
      flow: 1
      steps:
        - set: total
          value: 0
        - append: seen
        - run-workflow: child.yml
          input: Ada
        - stop: ${total}
        - stop:
        - run-workflow: ${total}
      """, others: ["child.yml": "flow: 1\ninput:\n  who: text\nsteps:\n  - open-url: https://swift.org\n"])
    #expect(try step("1", of: outline).sentence.description == "Set variable total to 0")
    #expect(try step("2", of: outline).sentence.description == "Add ⟨previous⟩ to variable seen")
    let run = try step("3", of: outline)
    #expect(run.sentence.description == "Run workflow child.yml with input Ada")
    // What the nested workflow may do is marked at the step that runs it.
    #expect(run.mark?.text == "changes · swift.org")
    #expect(try step("4", of: outline).sentence.description == "Stop and output ⟨total⟩")
    #expect(try step("5", of: outline).sentence.description == "Stop")
    // A workflow chosen at run time could do anything, and the margin says so.
    #expect(try step("6", of: outline).mark?.text == "anything: chosen at run time")
    #expect(try step("6", of: outline).mark?.effect == "unknown")
  }

  @Test func inputsHaveTheirTypesPromptsAndDefaults() throws {
    let outline = try outline(
      """
      flow: 1
      input:
        tags:
          type: "[text]"
          default: [inbox, later]
          prompt: Which tags?
          ask-on-import: true
        anything:
      steps:
        - show: ${input.tags}
      """)
    let tags = try #require(outline.inputs.first)
    #expect(tags.type == "List of Text")
    #expect(tags.defaultValue?.description == "inbox, later")
    #expect(tags.prompt == "Which tags?")
    #expect(tags.askOnImport)
    #expect(outline.inputs.last?.type == nil)
  }
}
