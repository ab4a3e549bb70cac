import FlowIntents
import FlowTestSupport
import Foundation
import Testing

struct IntentRunTests {
  let save = IntentDescriptor(SaveBookIntent.self, namespace: "test")

  @Test func describesParametersFromTheDeclaration() {
    #expect(save.id == "test.save-book")
    #expect(save.shortID == "save-book")
    #expect(save.parameters.map(\.key) == ["url", "title", "add-tags", "max-results", "sort-by"])
    let url = save.parameter("url")
    #expect(url?.isRequired == true)
    #expect(url?.isPrimary == true)
    #expect(url?.type == .url)
    #expect(save.parameter("title")?.isRequired == false)
    #expect(save.parameter("add-tags")?.type == .list(.text))
    #expect(save.parameter("max-results")?.defaultValue == .number(25))
    #expect(save.parameter("max-results")?.range == 1...50)
    #expect(save.parameter("sort-by")?.choices?.map(\.id) == ["newest-first", "oldest-first", "title-a-z"])
    #expect(save.outputType?.name == "Book")
    #expect(save.sideEffect == .changes)
  }

  @Test func runsWithValuesCoercedToTheParameterTypes() async throws {
    let (context, _) = testContext()
    let output = try await save.run(
      values: [
        "url": "example.com/x", "title": 42, "add-tags": "later", "max-results": "10", "sort-by": "Title (A to Z)",
      ],
      context: context)
    #expect(output.dialog == "Saved 42 (10, title-a-z)")
    guard case .entity(let book) = output.value else {
      Issue.record("expected an entity, got \(output.value)")
      return
    }
    #expect(book.typeName == "Book")
    #expect(book.title == "42")
    #expect(book.properties["link"]?.text == "https://example.com/x")
    #expect(book.properties["tags"] == ["later"])
  }

  @Test func refusesAValueOutsideTheRange() async throws {
    let (context, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) {
      try await save.run(values: ["url": "https://a.example", "max-results": 80], context: context)
    }
    #expect(error?.kind == .outOfRange)
    #expect(error?.message == "'max-results' must be between 1 and 50, got 80")
  }

  @Test func refusesAValueOfTheWrongType() async throws {
    let (context, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) {
      try await save.run(values: ["url": "https://a.example", "max-results": "lots"], context: context)
    }
    #expect(error?.message == "expected a whole number for 'max-results', got 'lots'")
  }

  @Test func refusesAnUnknownParameterWithASuggestion() async throws {
    let (context, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) {
      try await save.run(values: ["url": "https://a.example", "titel": "x"], context: context)
    }
    #expect(error?.kind == .unknownParameter)
    #expect(error?.message == "'test.save-book' has no parameter 'titel'")
    #expect(error?.help == "did you mean 'title'?")
  }

  @Test func asksForAMissingRequiredValueAndReasksOnAnInvalidAnswer() async throws {
    let (context, prompter) = testContext([.value("not a url"), .value("https://b.example/page")])
    let output = try await save.run(values: [:], context: context)
    guard case .entity(let book) = output.value else {
      Issue.record("expected an entity")
      return
    }
    #expect(book.properties["link"]?.text == "https://b.example/page")
    let requests = await prompter.valueRequests
    #expect(requests.map(\.dialog) == ["URL", "URL"])
    #expect(requests.map(\.origin.parameterKey) == ["url", "url"])
    #expect(requests.last?.problem == "expected a URL for 'url', got 'not a url'")
  }

  @Test func failsWhenNobodyAnswersForAMissingValue() async throws {
    let (context, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) { try await save.run(values: [:], context: context) }
    #expect(error?.kind == .needsValue)
    #expect(error?.origin?.parameterKey == "url")
  }

  @Test func disambiguationSaysWhichParameterItIsFor() async throws {
    let (context, prompter) = testContext([.choice(0), .confirmation(true)])
    _ = try await IntentDescriptor(DeleteBookIntent.self).run(values: ["book": "sol"], context: context)
    #expect(await prompter.asked == ["Which Book did you mean by 'sol'?", "Delete 'Solaris'?"])
    let (unattended, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) {
      try await IntentDescriptor(DeleteBookIntent.self).run(values: ["book": "sol"], context: unattended)
    }
    #expect(error?.kind == .needsChoice)
    #expect(error?.origin?.parameterKey == "book")
    #expect(error?.candidates == ["Solaris (example.org)", "Solaris Notes (example.org)"])
  }

  @Test func asksForParametersMarkedAsk() async throws {
    let (context, prompter) = testContext([.value("Asked")])
    let output = try await save.run(values: ["url": "https://a.example"], asking: ["title"], context: context)
    #expect(output.dialog == "Saved Asked (25, newest-first)")
    #expect(await prompter.asked == ["Title"])
  }

  @Test func confirmsAnIntentThatRequiresItWithItsSummary() async throws {
    let delete = IntentDescriptor(DeleteBookIntent.self)
    let (context, prompter) = testContext([.confirmation(true)])
    let output = try await delete.run(values: ["book": 2], context: context)
    #expect(output.value == .nothing)
    #expect(await prompter.asked == ["Delete 'Solaris'?"])

    let (declining, _) = testContext([.confirmation(false)])
    let error = await #expect(throws: AppIntentError.self) {
      try await delete.run(values: ["book": 2], context: declining)
    }
    #expect(error?.kind == .userCancelled)
  }

  @Test func injectsDependenciesFromTheContext() async throws {
    let get = IntentDescriptor(GetBooksIntent.self)
    #expect(get.dependencies == ["Library"])
    let (context, _) = testContext()
    let output = try await get.run(values: [:], context: context)
    guard case .list(let books) = output.value else {
      Issue.record("expected a list")
      return
    }
    #expect(books.map(\.text) == ["The Dispossessed", "Solaris", "Solaris Notes"])
    #expect(output.value.typeName == "List of Book")
  }

  @Test func failsReadablyWhenADependencyIsMissing() async throws {
    let get = IntentDescriptor(GetBooksIntent.self)
    let error = await #expect(throws: AppIntentError.self) {
      try await get.run(values: [:], context: IntentContext(prompter: ScriptedPrompter()))
    }
    #expect(error?.kind == .missingDependency)
    #expect(error?.message == "'get-books' needs a service this run does not provide: Library")
  }

  @Test func requestFamilyGoesThroughThePrompter() async throws {
    let pick = IntentDescriptor(PickAuthorIntent.self)
    let (context, prompter) = testContext([.choice(1), .confirmation(true)])
    let output = try await pick.run(values: [:], context: context)
    #expect(output.value == "Lem")
    #expect(await prompter.asked == ["Which author?", "Use Lem?"])

    let (declining, _) = testContext([.choice(0), .confirmation(false)])
    #expect(try await pick.run(values: [:], context: declining).value == "nobody")
  }
}

struct RequestFamilyTests {
  let order = IntentDescriptor(OrderBookIntent.self)

  @Test func intentConfirmsItsResultAndDecliningCancels() async throws {
    let (context, prompter) = testContext([.confirmation(true)])
    #expect(try await order.run(values: ["count": 2], context: context).dialog == "Ordered 2 copies")
    #expect(await prompter.asked == ["Order 2 copies?"])

    let (declining, _) = testContext([.confirmation(false)])
    let error = await #expect(throws: AppIntentError.self) {
      try await order.run(values: ["count": 2], context: declining)
    }
    #expect(error?.kind == .userCancelled)
  }

  @Test func needsValueErrorUsesTheRequestDialog() async throws {
    let (context, _) = testContext()
    let error = await #expect(throws: AppIntentError.self) { try await order.run(values: [:], context: context) }
    #expect(error?.kind == .needsValue)
    #expect(error?.message == "'count' needs a value: How many copies?")
  }

  @Test func requestsOutsideARunFailReadably() async throws {
    let error = await #expect(throws: AppIntentError.self) { try await OrderBookIntent().$count.requestValue() }
    #expect(error?.message == "cannot ask the person outside a run")
  }
}
