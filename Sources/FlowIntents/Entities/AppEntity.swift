@_spi(Reflection) import Swift

/// A thing intents act on and return — a bookmark, a collection — as App Intents declares one.
///
/// ```swift
/// struct BookmarkEntity: AppEntity {
///   static let typeDisplayRepresentation: TypeDisplayRepresentation = "Bookmark"
///   static let defaultQuery = BookmarkQuery()
///   var id: Int
///   @Property(title: "Title") var title: String
///   @Property(title: "URL") var link: URL
///   var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(title)") }
/// }
/// ```
///
/// Its `@Property`s are what `${saved.title}` reaches; their keys are the kebab-case of the property
/// names (`collectionId` → `collection-id`). Where a URL is wanted the entity gives its first URL
/// property, where text is wanted its display title (SPEC §3).
public protocol AppEntity: IntentValueConvertible, Identifiable where ID: IntentValueConvertible & Hashable {
  associatedtype DefaultQuery: EntityQuery where DefaultQuery.Entity == Self

  static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
  var displayRepresentation: DisplayRepresentation { get }
  /// How the runtime finds entities of this type by id or by text.
  static var defaultQuery: DefaultQuery { get }

  /// The properties every value of this type has; by default its `@Property`s (see the extension). An
  /// entity whose properties are computed when read (a File's size and dates) lists them itself.
  static var propertySchema: [PropertySchema] { get }
  /// The property values by key, in declaration order; by default its `@Property`s'.
  var propertyValues: FlowDictionary { get }
  /// One property's value, without reading the others; nil when it has none by that key.
  func propertyValue(forKey key: String) -> FlowValue?
  /// The property titles by key, in declaration order.
  var propertyTitles: [(key: String, title: String)] { get }
}

extension AppEntity {
  /// Inside an entity, `@Property(title:)` declares a property.
  public typealias Property<Value: IntentValueConvertible> = EntityProperty<Value>

  public static var valueType: ValueType { .entity(entityType) }

  /// The entity type with its property list, for the checker.
  public static var entityType: EntityType {
    EntityType(name: typeDisplayRepresentation.name) { propertySchema }
  }

  /// The properties every value of this type has, found from the type alone (no instance needed):
  /// `id`, `title` unless declared, then each `@Property` in declaration order.
  ///
  /// Titles are not stored in the type, only in values, so the schema derives them from the key.
  public static var propertySchema: [PropertySchema] {
    var schema: [PropertySchema] = []
    _ = _forEachField(of: Self.self, options: _EachFieldOptions()) { name, _, type, _ in
      let label = String(cString: name)
      if let propertyType = type as? any AnyEntityPropertyType.Type {
        let key = Naming.kebabCase(label)
        schema.append(PropertySchema(key: key, title: Naming.title(fromKey: key), type: propertyType.valueType))
      }
      return true
    }
    if !schema.contains(where: { $0.key == "title" }) {
      schema.insert(PropertySchema(key: "title", title: "Title", type: .text), at: 0)
    }
    if !schema.contains(where: { $0.key == "id" }) {
      schema.insert(PropertySchema(key: "id", title: "ID", type: ID.valueType), at: 0)
    }
    return schema
  }

  /// The `@Property` values of this entity, by key, in declaration order: read at the offsets the type's
  /// ``EntityLayout`` found once, without reflecting on each value.
  public var propertyValues: FlowDictionary {
    guard let fields = EntityLayout.of(Self.self).fields else {
      return FlowDictionary(uniqueKeys: reflectedProperties().map { ($0.key, $0.property.flowValue) })
    }
    return withUnsafeBytes(of: self) { value in
      guard let start = value.baseAddress else { return FlowDictionary() }
      return FlowDictionary(uniqueKeys: fields.map { ($0.key, $0.type.flowValue(at: start + $0.offset)) })
    }
  }

  /// One `@Property` value, read at its offset.
  public func propertyValue(forKey key: String) -> FlowValue? {
    guard let fields = EntityLayout.of(Self.self).fields else { return propertyValues[key] }
    guard let field = fields.first(where: { $0.key == key }) else { return nil }
    return withUnsafeBytes(of: self) { value in
      value.baseAddress.map { field.type.flowValue(at: $0 + field.offset) }
    }
  }

  /// The `@Property` titles of this entity, by key.
  public var propertyTitles: [(key: String, title: String)] {
    guard let fields = EntityLayout.of(Self.self).fields else {
      return reflectedProperties().map { ($0.key, $0.property.title) }
    }
    return withUnsafeBytes(of: self) { value in
      guard let start = value.baseAddress else { return [] }
      return fields.map { ($0.key, $0.type.title(at: start + $0.offset)) }
    }
  }

  /// The properties through `Mirror`: for an entity that is a class, whose fields are not in the value.
  private func reflectedProperties() -> [(key: String, property: any AnyEntityProperty)] {
    Mirror(reflecting: self).children.compactMap { child in
      guard let label = child.label, let property = child.value as? any AnyEntityProperty else { return nil }
      return (Naming.kebabCase(label), property)
    }
  }

  public var flowValue: FlowValue {
    // The id, title and properties are read from the instance when a step asks for them, not here.
    .entity(EntityValue(typeName: Self.typeDisplayRepresentation.name, instance: self))
  }

  /// The id as a value, for an `EntityValue` that holds the entity as `any AppEntity`.
  public var idValue: FlowValue { id.flowValue }

  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .entity(let entity) = flowValue, let instance = entity.instance as? Self else {
      throw .expected(Self.valueType, got: flowValue)
    }
    self = instance
  }

  /// An entity, an id, or text (SPEC §3): an entity passes as it is; an id is looked up with
  /// `entities(for:)`; text goes to the string query, where one match is used, several ask the person
  /// to choose, and none is an error naming the closest titles.
  public static func resolve(_ value: FlowValue, in context: IntentContext) async throws -> Self {
    let name = typeDisplayRepresentation.name
    switch value {
    case .entity(let entity):
      if let instance = entity.instance as? Self { return instance }
      guard entity.typeName == name else { throw CoercionError.expected(valueType, got: value) }
      return try await lookUp(id: entity.id, text: entity.title)
    case .number, .text:
      return try await lookUp(id: value, text: value.text)
    case .list(let items):
      throw CoercionError.listWhereOneExpected(count: items.count, expected: valueType)
    default:
      throw CoercionError.expected(valueType, got: value)
    }
  }

  private static func lookUp(id: FlowValue, text: String) async throws -> Self {
    let query = defaultQuery
    if let identifier = try? ID(flowValue: id), let found = try await query.entities(for: [identifier]).first {
      return found
    }
    guard let stringQuery = query as? any EntityStringQuery else {
      throw AppIntentError.entityNotFound(typeDisplayRepresentation.name, matching: text)
    }
    let matches = try await matching(stringQuery, text)
    if matches.count == 1 { return matches[0] }
    let exact = matches.filter { $0.displayRepresentation.title.lowercased() == text.lowercased() }
    if exact.count == 1 { return exact[0] }
    if matches.isEmpty {
      let suggestions = (try? await query.suggestedEntities()) ?? []
      throw AppIntentError.entityNotFound(
        typeDisplayRepresentation.name, matching: text, among: suggestions.map(\.displayRepresentation.title))
    }
    guard let context = IntentContext.current else {
      throw AppIntentError.entityNotFound(typeDisplayRepresentation.name, matching: text)
    }
    let options = matches.map { Prompting.optionText(for: $0.flowValue) }
    let chosen = try await context.prompter.requestChoice(
      ChoiceRequest(
        kind: .disambiguation, origin: PromptOrigin.current ?? PromptOrigin(),
        dialog: "Which \(typeDisplayRepresentation.name) did you mean by '\(text)'?", options: options))
    guard let index = chosen.first, matches.indices.contains(index) else { throw AppIntentError.userCancelled }
    return matches[index]
  }

  private static func matching(_ query: some EntityStringQuery, _ text: String) async throws -> [Self] {
    try await query.entities(matching: text).compactMap { $0 as? Self }
  }
}

/// A property of an entity, `@Property(title:)` inside an ``AppEntity``.
@propertyWrapper
public struct EntityProperty<Value: IntentValueConvertible>: Sendable, AnyEntityProperty, AnyEntityPropertyType {
  public let title: String
  private var storage: Value?

  public init(title: LocalizedStringResource) {
    self.title = title.key
  }

  public init(wrappedValue: Value, title: LocalizedStringResource) {
    self.title = title.key
    self.storage = wrappedValue
  }

  /// Reading a property that was never set is a broken invariant of the entity's initialiser.
  public var wrappedValue: Value {
    get {
      if let storage { return storage }
      if let none = Value.noValue { return none }
      preconditionFailure("entity property '\(title)' was read before it was set")
    }
    set { storage = newValue }
  }

  public var projectedValue: EntityProperty<Value> { self }

  public var flowValue: FlowValue { storage?.flowValue ?? .nothing }
  public static var valueType: ValueType { Value.valueType }

  public static func flowValue(at field: UnsafeRawPointer) -> FlowValue {
    field.assumingMemoryBound(to: Self.self).pointee.flowValue
  }

  public static func title(at field: UnsafeRawPointer) -> String {
    field.assumingMemoryBound(to: Self.self).pointee.title
  }
}

/// An entity property's title and value, without its Swift type.
public protocol AnyEntityProperty: Sendable {
  var title: String { get }
  var flowValue: FlowValue { get }
}

/// An entity property's type, without an instance.
public protocol AnyEntityPropertyType {
  static var valueType: ValueType { get }
  /// The value of the property stored at `field` (inside an entity value, at its ``EntityLayout`` offset).
  static func flowValue(at field: UnsafeRawPointer) -> FlowValue
  /// The title of the property stored at `field`.
  static func title(at field: UnsafeRawPointer) -> String
}

/// Finds entities by id, and suggests some (App Intents' `EntityQuery`).
public protocol EntityQuery: Sendable {
  associatedtype Entity: AppEntity
  func entities(for identifiers: [Entity.ID]) async throws -> [Entity]
  /// A few entities to offer, and the names a not-found error suggests from.
  func suggestedEntities() async throws -> [Entity]
}

extension EntityQuery {
  public func suggestedEntities() async throws -> [Entity] { [] }
}

/// A query that also finds entities by text (App Intents' `EntityStringQuery`): what a workflow's
/// `collection: Reading List` goes through.
public protocol EntityStringQuery: EntityQuery {
  func entities(matching string: String) async throws -> [Entity]
}
