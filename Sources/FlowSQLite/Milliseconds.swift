import Foundation

/// A time as flow keeps one in a file: whole milliseconds since 1970, the nearest to the `Date` (run
/// history's and the local store's integer columns, and the line of a workflow's lock file).
extension Date {
  public init(millisecondsSince1970 milliseconds: Int64) {
    self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }
}

extension SQLValue {
  /// The time an integer column keeps as milliseconds since 1970; 1970 itself for null.
  public var date: Date { Date(millisecondsSince1970: Int64(int ?? 0)) }
}
