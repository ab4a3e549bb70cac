/// Values by Swift type, in a list: what the intent runtime keeps per type (services, layouts) for the
/// few dozen types one run meets.
///
/// Not a `[ObjectIdentifier: Value]`: the first dictionary with a new key type makes the Swift runtime
/// scan every protocol conformance in the binary (0.4 M instructions of every start, Architecture.md),
/// and a search of a short list costs less than hashing.
struct TypeTable<Value> {
  private var entries: [(type: ObjectIdentifier, value: Value)] = []

  subscript(type: Any.Type) -> Value? {
    get {
      let key = ObjectIdentifier(type)
      return entries.first { $0.type == key }?.value
    }
    set {
      let key = ObjectIdentifier(type)
      if let index = entries.firstIndex(where: { $0.type == key }) {
        if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
      } else if let newValue {
        entries.append((key, newValue))
      }
    }
  }
}

extension TypeTable: Sendable where Value: Sendable {}
