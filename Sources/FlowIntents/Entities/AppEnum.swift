/// A fixed set of choices for a parameter, as App Intents declares one.
///
/// ```swift
/// enum BookmarkSortOption: String, AppEnum {
///   case newestFirst, oldestFirst
///   case titleAZ = "title-a-z"
///   static let typeDisplayRepresentation: TypeDisplayRepresentation = "Sort Order"
///   static let caseDisplayRepresentations: [Self: DisplayRepresentation] = [
///     .newestFirst: "Newest First", .oldestFirst: "Oldest First", .titleAZ: "Title (A to Z)",
///   ]
/// }
/// ```
///
/// A case's id is the kebab-case of its raw value — the case name unless one is given — so
/// `newestFirst` is `newest-first`; a workflow may write the id or the display name, in any case.
public protocol AppEnum: IntentValueConvertible, CaseIterable, Hashable {
  static var typeDisplayRepresentation: TypeDisplayRepresentation { get }
  static var caseDisplayRepresentations: [Self: DisplayRepresentation] { get }
}

extension AppEnum {
  /// The id users write: `newest-first`.
  public var id: String {
    if let raw = (self as? any RawRepresentable)?.rawValue as? String { return Naming.kebabCase(raw) }
    return Naming.kebabCase(String(describing: self))
  }

  /// The display name: "Newest First" (the id when none is declared).
  public var displayName: String { Self.caseDisplayRepresentations[self]?.title ?? id }

  public static var enumType: EnumType {
    EnumType(name: typeDisplayRepresentation.name, cases: allCases.map { .init(id: $0.id, title: $0.displayName) })
  }

  public static var valueType: ValueType { .enumeration(enumType) }

  public init(flowValue: FlowValue) throws(CoercionError) {
    guard case .text(let id) = try Coercion.coerce(flowValue, to: Self.valueType),
      let match = Self.allCases.first(where: { $0.id == id })
    else { throw .expected(Self.valueType, got: flowValue) }
    self = match
  }

  public var flowValue: FlowValue { .text(id) }
}
