import FlowCLI
import FlowIntents
import FlowSession
import Testing

/// Every shipped action's side effect, for the strongest values its parameters can take (issue 16): the
/// card, the unattended check and the run all read these declarations, so a declaration worded weaker
/// than what the action can do lets a shared file walk past them. An action without an entry here
/// fails the test: adding one means saying what it can do at its worst.
struct EffectDeclarationTests {
  /// One step's values and what it must be taken to do. `unknown` names parameters computed at run time.
  struct Case: Sendable, CustomStringConvertible {
    var values: [String: FlowValue] = [:]
    var unknown: Set<String> = []
    var effect: SideEffect
    /// Whether the step asks the person before it runs.
    var asks = false

    var description: String { "\(values) unknown \(unknown.sorted())" }
  }

  /// Trash as a run resolves it: a collection entity.
  static let trashEntity = FlowValue.entity(
    EntityValue(typeName: "Collection", id: .number(-99), title: "Trash", properties: [:]))
  static let readingEntity = FlowValue.entity(
    EntityValue(typeName: "Collection", id: .number(12), title: "Reading", properties: [:]))

  /// The strongest case comes first in each list; the others pin what the values decide.
  static let table: [String: [Case]] = [
    "ask": [Case(effect: .readOnly)],
    "calculate": [Case(effect: .readOnly)],
    "choose-from-list": [Case(effect: .readOnly)],
    "combine-text": [Case(effect: .readOnly)],
    "comment": [Case(effect: .readOnly)],
    "confirm": [Case(effect: .readOnly)],
    "count": [Case(effect: .readOnly)],
    "dictionary": [Case(effect: .readOnly)],
    "filter": [Case(effect: .readOnly)],
    "format-date": [Case(effect: .readOnly)],
    "get-item": [Case(effect: .readOnly)],
    "get-url": [
      Case(values: ["method": .text("delete")], effect: .destructive, asks: true),
      // A method computed at run time could be DELETE.
      Case(unknown: ["method", "url"], effect: .destructive, asks: true),
      Case(values: ["method": .text("post")], effect: .changes),
      Case(values: ["method": .text("put")], effect: .changes),
      Case(values: ["method": .text("patch")], effect: .changes),
      Case(values: ["method": .text("get")], unknown: ["url"], effect: .readOnly),
      Case(effect: .readOnly),
    ],
    "get-value": [Case(effect: .readOnly)],
    "list": [Case(effect: .readOnly)],
    "match-text": [Case(effect: .readOnly)],
    "number": [Case(effect: .readOnly)],
    // Opens a window and contacts the link's host; stores nothing.
    "open-url": [Case(unknown: ["url"], effect: .changes)],
    "replace-text": [Case(effect: .readOnly)],
    // Unfenced on request (or by a fence computed at run time) it may do anything: it asks (issue 28).
    "run-shell": [
      Case(unknown: ["script", "fence"], effect: .destructive, asks: true),
      Case(values: ["fence": .text("none")], unknown: ["script"], effect: .destructive, asks: true),
      Case(unknown: ["script"], effect: .changes),
    ],
    "show": [Case(effect: .readOnly)],
    "sort": [Case(effect: .readOnly)],
    "split-text": [Case(effect: .readOnly)],
    "text": [Case(effect: .readOnly)],
    "wait": [Case(effect: .readOnly)],
    "base64": [Case(effect: .readOnly)],
    "change-case": [Case(effect: .readOnly)],
    "format-json": [Case(effect: .readOnly)],
    "format-number": [Case(effect: .readOnly)],
    "hash": [Case(effect: .readOnly)],
    "make-csv": [Case(effect: .readOnly)],
    "make-table": [Case(effect: .readOnly)],
    "parse-csv": [Case(effect: .readOnly)],
    "parse-json": [Case(effect: .readOnly)],
    "random-number": [Case(effect: .readOnly)],
    // The desktop (Documentation/Desktop.md): a notification and a copy change what the person sees or
    // had copied, so a dry run skips them; reading the clipboard, the environment or the machine does not.
    "notify": [Case(effect: .changes)],
    "copy-to-clipboard": [Case(effect: .changes)],
    "get-clipboard": [Case(effect: .readOnly)],
    "get-env": [Case(effect: .readOnly)],
    "device-details": [Case(effect: .readOnly)],
    "random-item": [Case(effect: .readOnly)],
    "round-number": [Case(effect: .readOnly)],
    "set-value": [Case(effect: .readOnly)],
    "trim-text": [Case(effect: .readOnly)],
    "unique": [Case(effect: .readOnly)],
    "get-dates-from-input": [Case(effect: .readOnly)],
    "adjust-date": [Case(effect: .readOnly)],
    "current-date": [Case(effect: .readOnly)],
    "time-between": [Case(effect: .readOnly)],
    "get-url-component": [Case(effect: .readOnly)],
    "url": [Case(effect: .readOnly)],
    "url-decode": [Case(effect: .readOnly)],
    "url-encode": [Case(effect: .readOnly)],
    // The file actions (Files.md): reads are read-only (a dry run performs them); writes change, even
    // when they replace a file, as saving a document does; delete-files always asks.
    "get-file": [Case(unknown: ["path"], effect: .readOnly)],
    "get-folder-contents": [Case(values: ["recursive": .boolean(true)], unknown: ["folder"], effect: .readOnly)],
    "read-file": [Case(unknown: ["file"], effect: .readOnly)],
    // Writing over a file that is there loses what it held (issue 28): destructive, and it asks.
    "save-file": [
      Case(unknown: ["if-exists"], effect: .destructive, asks: true),
      Case(values: ["if-exists": .text("replace")], unknown: ["path"], effect: .destructive, asks: true),
      Case(values: ["if-exists": .text("keep-both")], effect: .changes),
    ],
    "append-to-file": [Case(unknown: ["path"], effect: .changes)],
    "copy-file": [
      Case(unknown: ["if-exists"], effect: .destructive, asks: true),
      Case(values: ["if-exists": .text("replace")], unknown: ["to"], effect: .destructive, asks: true),
      Case(values: ["if-exists": .text("fail")], effect: .changes),
    ],
    "move-file": [
      Case(unknown: ["if-exists"], effect: .destructive, asks: true),
      Case(values: ["if-exists": .text("replace")], unknown: ["file", "to"], effect: .destructive, asks: true),
      Case(values: ["if-exists": .text("keep-both")], effect: .changes),
    ],
    "create-folder": [Case(unknown: ["path"], effect: .changes)],
    "delete-files": [
      Case(values: ["permanently": .boolean(true)], effect: .destructive, asks: true),
      Case(unknown: ["files", "permanently"], effect: .destructive, asks: true),
      Case(values: ["permanently": .boolean(false)], effect: .destructive, asks: true),
    ],
    "raindrop.create-collection": [Case(effect: .changes)],
    "raindrop.delete-bookmark": [Case(unknown: ["bookmark"], effect: .destructive, asks: true)],
    "raindrop.get-bookmarks": [Case(values: ["max-results": .text("all")], effect: .readOnly)],
    "raindrop.get-collections": [Case(effect: .readOnly)],
    // Saving into Trash makes a bookmark there; it removes none.
    "raindrop.save-bookmark": [Case(values: ["collection": .text("Trash")], effect: .changes)],
    // Tags, favourites, title and note: a change, however many tags go; moving to Trash is deleting.
    "raindrop.update-bookmark": [
      Case(values: ["move-to": .text("Trash")], effect: .destructive, asks: true),
      Case(values: ["remove-tags": .list([.text("a")])], effect: .changes),
      Case(values: ["title": .text("Trash"), "note": .text("Trash")], effect: .changes),
      Case(values: ["move-to": .number(-99)], effect: .destructive, asks: true),
      Case(values: ["move-to": trashEntity], effect: .destructive, asks: true),
      Case(unknown: ["move-to"], effect: .destructive, asks: true),
      Case(values: ["move-to": .text("Reading")], effect: .changes),
      Case(values: ["move-to": readingEntity], effect: .changes),
    ],
    // Moving to Trash is deleting, in every form a step can name Trash in.
    "raindrop.update-bookmarks": [
      Case(values: ["move-to": .text("Trash")], effect: .destructive, asks: true),
      Case(values: ["move-to": .text("trash")], effect: .destructive, asks: true),
      Case(values: ["move-to": .text("tras")], effect: .destructive, asks: true),
      Case(values: ["move-to": .number(-99)], effect: .destructive, asks: true),
      Case(values: ["move-to": .text("-99")], effect: .destructive, asks: true),
      Case(values: ["move-to": trashEntity], effect: .destructive, asks: true),
      Case(unknown: ["move-to"], effect: .destructive, asks: true),
      Case(values: ["move-to": .text("Reading")], effect: .changes),
      Case(values: ["move-to": readingEntity], effect: .changes),
      Case(values: ["move-to": .number(-1)], effect: .changes),
      Case(values: ["add-tags": .list([.text("old")])], unknown: ["bookmarks"], effect: .changes),
    ],
  ]

  @Test func everyShippedActionHasAnEntry() {
    let ids = Catalogs.registry.descriptors.map(\.id)
    #expect(ids.filter { Self.table[$0] == nil } == [], "actions without an effect entry")
    #expect(Self.table.keys.filter { !ids.contains($0) }.sorted() == [], "entries for actions that do not exist")
  }

  @Test(arguments: Catalogs.registry.descriptors.map(\.id))
  func effectForTheStrongestValues(id: String) throws {
    let descriptor = try Catalogs.registry.descriptor(for: id)
    let cases = try #require(Self.table[id])
    for check in cases {
      #expect(
        descriptor.sideEffect(for: check.values, unknown: check.unknown) == check.effect, "\(id) with \(check)")
      #expect(
        descriptor.asksConfirmation(for: check.values, unknown: check.unknown) == check.asks, "\(id) with \(check)")
    }
    // The declared effect is the strongest: the first case reaches it, and none goes past it.
    #expect(cases.first?.effect == descriptor.sideEffect, "\(id) declares \(descriptor.sideEffect)")
  }

  /// An action whose effect does not declare what decides it must not change with any value: probed with
  /// every enum case, both Booleans, and the values that name Trash or a DELETE.
  @Test(arguments: Catalogs.registry.descriptors.filter(\.sideEffectParameters.isEmpty).map(\.id))
  func undeclaredValuesDoNotMoveTheEffect(id: String) throws {
    let descriptor = try Catalogs.registry.descriptor(for: id)
    let probes: [FlowValue] = [
      .boolean(true), .boolean(false), .text("Trash"), .number(-99), .text("delete"), Self.trashEntity,
    ]
    for parameter in descriptor.parameters {
      for probe in probes + (parameter.choices ?? []).map({ .text($0.id) }) {
        #expect(
          descriptor.sideEffect(for: [parameter.key: probe]) == descriptor.sideEffect,
          "\(id) \(parameter.key): \(probe)")
      }
    }
  }
}
