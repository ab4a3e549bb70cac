import FoundationEssentials

/// A time as flow keeps one in a file: whole milliseconds since 1970, the nearest to the `Date` (run
/// history's and the local store's integer columns, and the line of a workflow's lock file).
extension Date {
  public init(millisecondsSince1970 milliseconds: Int64) {
    self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Saturated at Int64's ends (and 0 for a date that is not a number), so that a date computed from a
  /// number read elsewhere cannot trap here.
  public var millisecondsSince1970: Int64 {
    let milliseconds = (timeIntervalSince1970 * 1000).rounded()
    guard !milliseconds.isNaN else { return 0 }
    return milliseconds >= 9.2e18 ? .max : milliseconds <= -9.2e18 ? .min : Int64(milliseconds)
  }
}

extension SQLValue {
  /// The time an integer column keeps as milliseconds since 1970; 1970 itself for null.
  public var date: Date { Date(millisecondsSince1970: Int64(int ?? 0)) }
}
