@_spi(Reflection) import Swift

/// Where an entity type keeps its `@Property`s: each one's key and its offset in the value, found once per
/// type. Reading the properties of a value is then a load at each offset, where `Mirror` built a child
/// list, boxed every field in `Any` and cast it back: a tenth of the time `get-bookmarks` took to hand on
/// 10,000 bookmarks (issue 17).
struct EntityLayout: Sendable {
  struct Field: Sendable {
    let key: String
    let offset: Int
    let type: any AnyEntityPropertyType.Type
  }

  /// The `@Property` fields in declaration order; nil for a class, whose fields are not inline in the value
  /// (its properties are read with `Mirror`, as before).
  let fields: [Field]?

  private static let layouts = TypeCache<EntityLayout>()

  static func of(_ type: Any.Type) -> EntityLayout { layouts.value(for: type, make: EntityLayout.init) }

  private init(_ type: Any.Type) {
    guard !(type is AnyClass) else {
      fields = nil
      return
    }
    var fields: [Field] = []
    let complete = _forEachField(of: type, options: _EachFieldOptions()) { name, offset, fieldType, _ in
      if let propertyType = fieldType as? any AnyEntityPropertyType.Type {
        fields.append(Field(key: Naming.kebabCase(String(cString: name)), offset: offset, type: propertyType))
      }
      return true
    }
    self.fields = complete ? fields : nil
  }
}
