import FlowIntents
import FlowModel
import Foundation

/// Text where a workflow or an input gives a number, a duration or a date: ``DurationParsing`` (a
/// duration written in a workflow, whose formatted form must parse back to it), ``Coercion`` of the
/// text, and of the number it holds, to each scalar type and to the parameters of actions, and
/// ``DateWords`` ('tomorrow', 'in 3 days').
enum NumbersTarget {
  static let now = Date(timeIntervalSince1970: 1_767_225_600)
  static let calendar: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.locale = Locale(identifier: "en_US_POSIX")
    calendar.timeZone = TimeZone(identifier: "Australia/Lord_Howe") ?? .gmt
    return calendar
  }()
  static let types: [ValueType] = [.number, .integer, .duration, .boolean, .date, .url, .text]

  static func run(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let duration = DurationParsing.parse(text) {
      let written = DurationParsing.format(duration)
      guard DurationParsing.parse(written) == duration else {
        fatalError("the duration \(duration) is written '\(written)', which reads back differently")
      }
    }
    for type in types { _ = try? Coercion.coerce(.text(text), to: type) }
    // As an action's parameter takes the value: a `Duration`, an `Int`, a `Date` parameter.
    for value in [FlowValue.text(text)] + (Coercion.parseNumber(text).map { [.number($0)] } ?? []) {
      for type in types { _ = try? Coercion.coerce(value, to: type) }
      _ = (try? Duration(flowValue: value)).map(DurationParsing.format)
      _ = (try? Int(flowValue: value), try? Double(flowValue: value), try? Date(flowValue: value))
    }
    _ = try? DateWords.read(text, now: now, calendar: calendar)
    _ = try? DateWords.reading(.list([.text(text)]), as: .list(.date), now: now)
  }
}
