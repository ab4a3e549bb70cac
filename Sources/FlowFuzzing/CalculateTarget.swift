import FlowBasics

/// An expression as `calculate` evaluates it once its `${…}` are filled in: the bytes as text.
enum CalculateTarget {
  static func run(_ bytes: [UInt8]) {
    _ = try? Arithmetic.evaluate(String(decoding: bytes, as: UTF8.self))
  }
}
