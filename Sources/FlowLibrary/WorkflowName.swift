/// What a workflow is called in the library: the names `flow new`, `flow import` and `flow run NAME` take.
public enum WorkflowName {
  /// A library name: letters, digits, `-` and `_`, starting with a letter or digit; what `flow run NAME`
  /// takes and a file name on every system.
  public static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
      return false
    }
    return name.unicodeScalars.allSatisfy {
      $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
    }
  }

  /// The name without `.yml` or `.yaml`, which people add out of habit.
  public static func stripExtension(_ name: String) -> String {
    for suffix in [".yml", ".yaml"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
    return name
  }
}
