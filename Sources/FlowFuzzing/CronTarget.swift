import FlowCron
import FlowDiagnostics
import FlowModel
import Foundation

/// A cron expression as `flow schedule explain` takes it (a one-line file, so that diagnostics point
/// into it), then what flow makes of a valid one: its words, the next fires in zones with and without
/// daylight saving (Lord Howe's is half an hour), and the systemd, crontab and Kubernetes forms.
enum CronTarget {
  static let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"].compactMap {
    name in TimeZoneName.zone(named: name).map { (name, $0) }
  }
  static let start = Date(timeIntervalSince1970: 1_767_225_600)

  static func run(_ bytes: [UInt8]) {
    let expression = String(decoding: bytes, as: UTF8.self)
    let file = SourceFile(path: "<expression>", bytes: Array(expression.utf8))
    let whole = SourceSpan(
      file: file, start: SourceLocation(line: 1, column: 1),
      end: SourceLocation(line: 1, column: expression.unicodeScalars.count + 1))
    let locator = ScalarLocator(whole: whole, firstColumn: expression.contains("\n") ? nil : 1)
    let (cron, diagnostics) = CronExpression.parse(expression, locate: locator.span)
    _ = DiagnosticRenderer(colors: true).render(Diagnostics(diagnostics))
    guard let cron else { return }
    _ = (cron.words, cron.fields, cron.description)
    for (name, zone) in zones {
      _ = cron.onCalendar(zone: name)
      _ = Schedule([Schedule.Entry(cron, timeZone: zone, zoneName: name)]).fires(after: start, count: 3)
    }
  }
}
