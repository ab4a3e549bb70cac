@_spi(Reflection) import Swift

/// Where an intent type keeps its `@Parameter`s and `@Dependency`s: each parameter's label, key and
/// offset in the intent value, and the dependency types, found once per type. Every action step makes a
/// fresh intent and needs its parameters; reading them at known offsets replaces a `Mirror` per step,
/// which built a child list, boxed every field in `Any` and cast each back (a third of `run-shell`'s own
/// CPU per step before, issue 14). ``EntityLayout`` does the same for entities.
struct IntentLayout: Sendable {
  struct ParameterField: Sendable {
    /// The property's name without the wrapper's underscore (`maxResults`).
    let label: String
    /// Its kebab-case: the key unless the parameter declares one (`key:`).
    let key: String
    let offset: Int
  }

  /// The `@Parameter` fields in declaration order; nil for a class, whose fields are not inline in the
  /// value (its parameters are found with `Mirror`, as before).
  let parameters: [ParameterField]?
  /// The `@Dependency` value types in declaration order: they belong to the type, not the value.
  let dependencies: [Any.Type]

  private static let layouts = TypeCache<IntentLayout>()

  static func of(_ type: Any.Type) -> IntentLayout { layouts.value(for: type, make: IntentLayout.init) }

  private init(_ type: Any.Type) {
    guard !(type is AnyClass) else {
      parameters = nil
      dependencies = []
      return
    }
    var parameters: [ParameterField] = []
    var dependencies: [Any.Type] = []
    let complete = _forEachField(of: type, options: _EachFieldOptions()) { name, offset, fieldType, _ in
      let label = String(cString: name)
      if fieldType is ParameterObject.Type {
        let property = label.hasPrefix("_") ? String(label.dropFirst()) : label
        parameters.append(ParameterField(label: property, key: Naming.kebabCase(property), offset: offset))
      } else if let dependencyType = fieldType as? any DependencyFieldType.Type {
        dependencies.append(dependencyType.dependencyValueType)
      }
      return true
    }
    self.parameters = complete ? parameters : nil
    self.dependencies = complete ? dependencies : []
  }
}

extension IntentLayout.ParameterField {
  /// The parameter stored in this field of the intent value at `start`: a `Parameter` is a class, so the
  /// field holds a reference, the same whatever the value type.
  func parameter(in start: UnsafeRawPointer) -> any AnyParameter {
    (start + offset).assumingMemoryBound(to: ParameterObject.self).pointee.erased
  }
}

/// A `@Dependency` field's type: the service it names is part of the type.
protocol DependencyFieldType {
  static var dependencyValueType: Any.Type { get }
}

extension Dependency: DependencyFieldType {
  static var dependencyValueType: Any.Type { Value.self }
}
