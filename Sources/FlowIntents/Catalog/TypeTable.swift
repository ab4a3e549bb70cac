import Synchronization

/// Values by Swift type, in a list: what the intent runtime keeps per type (services, layouts) for the
/// few dozen types one run meets.
///
/// Not a `[ObjectIdentifier: Value]`: the first dictionary with a new key type makes the Swift runtime
/// scan every protocol conformance in the binary (0.4 M instructions of every start, Performance.md),
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

/// What is worked out once per Swift type and then kept for the process (an intent's or entity's field
/// layout), in a ``TypeTable`` behind a lock.
final class TypeCache<Value: Sendable>: Sendable {
  private let table = Mutex(TypeTable<Value>())

  /// The value for `type`, made by `make` the first time it is asked for (outside the lock: two threads
  /// that race both make it, and both get the same value).
  func value(for type: Any.Type, make: (Any.Type) -> Value) -> Value {
    if let known = table.withLock({ $0[type] }) { return known }
    let made = make(type)
    return table.withLock { table in
      if let known = table[type] { return known }
      table[type] = made
      return made
    }
  }
}
