import FlowTestSupport
import Foundation
import Testing

@testable import FlowCron
@testable import FlowScheduler

/// flow's next fires against systemd's calendar and croniter, on the whole corpus, in UTC and in a zone
/// without daylight saving (Asia/Tokyo): one process per tool and zone, so the suite stays fast.
struct ReferenceToolTests {
  static let base = "2026-01-01T00:00:00Z"
  static let baseInstant: Int64 = 1_767_225_600
  static let iterations = 50
  /// systemd computes no elapse after 2199.
  static let systemdEnd: Int64 = 7_258_118_400  // 2200-01-01

  @Test func corpusIsLargeEnough() throws {
    #expect(try instant(Self.base) == Self.baseInstant)
    #expect(ReferenceCorpus.all.count >= 200)
    #expect(Set(ReferenceCorpus.all).count == ReferenceCorpus.all.count)
  }

  /// flow's next `count` fires of `text` in `zoneName`, as local date and time (`2026-01-05T09:00:00`).
  static func flowFires(_ text: String, zone zoneName: String, count: Int = iterations, until end: Int64 = .max)
    throws -> [String]
  {
    let schedule = Schedule([Schedule.Entry(try cron(text), timeZone: try zone(zoneName))])
    var cursor = baseInstant
    var result: [String] = []
    while result.count < count, let fire = schedule.nextFire(after: cursor), fire.instant < end {
      result.append(String(fire.iso8601.prefix(19)))
      cursor = fire.instant
    }
    return result
  }

  /// The elapses `systemd-analyze calendar` prints for each of `lines`, as local date and time in the
  /// zone `TZ` names.
  static func systemdElapses(_ lines: [String], count: Int, localZone: String) throws -> [[String]]? {
    let tool = ReferenceTool("systemd-analyze", install: "apt-get install systemd")
    guard
      let result = try tool.run(
        ["calendar", "--iterations=\(count)", "--base-time=2026-01-01 00:00:00 UTC"] + lines,
        environment: ["TZ": localZone, "SYSTEMD_COLORS": "0"])
    else { return nil }
    #expect(result.status == 0, "\(result.error)")
    // One block per line given, from its 'Normalized form:' line; an elapse line ends in
    // "Mon 2028-02-28 09:00:00 JST".
    var blocks: [[String]] = []
    for line in result.output.split(separator: "\n") {
      if line.contains("Normalized form:") {
        blocks.append([])
      } else if line.contains("Next elapse:") || line.contains("Iter. #"), !blocks.isEmpty {
        let words = line.split(separator: " ")
        blocks[blocks.count - 1].append("\(words[words.count - 3])T\(words[words.count - 2])")
      }
    }
    #expect(blocks.count == lines.count)
    return blocks
  }

  /// The whole corpus: the union of each expression's `OnCalendar=` lines elapses as flow fires. systemd
  /// reads a zone suffix slowly (a millisecond an elapse), so the lines run in the zone of `TZ` here and
  /// ``zoneSuffixIsHonoured()`` checks the suffix on a sample.
  @Test(arguments: ["UTC", "Asia/Tokyo"])
  func onCalendarElapsesEqualNextFires(zoneName: String) throws {
    let corpus = ReferenceCorpus.all
    let lines = try corpus.map { text in
      try cron(text).onCalendar(zone: zoneName).map { String($0.dropLast(zoneName.count + 1)) }
    }
    guard let blocks = try Self.systemdElapses(lines.flatMap { $0 }, count: Self.iterations, localZone: zoneName)
    else { return }
    var block = 0
    for (text, calendar) in zip(corpus, lines) {
      var union: Set<String> = []
      for _ in calendar {
        if block < blocks.count { union.formUnion(blocks[block]) }
        block += 1
      }
      let systemd = Array(union.sorted().prefix(Self.iterations))
      let flow = try Self.flowFires(text, zone: zoneName, until: Self.systemdEnd)
      #expect(flow == systemd, "\(text) as \(calendar)")
    }
  }

  /// The emitted lines as they are, zone suffix included, on every eighth expression.
  @Test func zoneSuffixIsHonoured() throws {
    let sample = ReferenceCorpus.all.enumerated().filter { $0.offset % 8 == 0 }.map(\.element)
    let lines = try sample.map { try cron($0).onCalendar(zone: "Asia/Tokyo") }
    guard let blocks = try Self.systemdElapses(lines.flatMap { $0 }, count: 5, localZone: "Asia/Tokyo") else { return }
    var block = 0
    for (text, calendar) in zip(sample, lines) {
      var union: Set<String> = []
      for _ in calendar {
        if block < blocks.count { union.formUnion(blocks[block]) }
        block += 1
      }
      #expect(try Self.flowFires(text, zone: "Asia/Tokyo", count: 5) == Array(union.sorted().prefix(5)), "\(text)")
    }
  }

  @Test(arguments: ["UTC", "Asia/Tokyo"])
  func croniterAgreesAwayFromItsDifferences(zoneName: String) throws {
    let corpus = try ReferenceCorpus.all.filter { !ReferenceCorpus.croniterDiffers(try cron($0)) }
    #expect(corpus.count >= 180)
    let script = """
      import json, sys
      from datetime import datetime
      from zoneinfo import ZoneInfo
      from croniter import croniter
      request = json.load(sys.stdin)
      zone = ZoneInfo(request["zone"])
      start = datetime.fromisoformat(request["base"]).astimezone(zone)
      result = []
      for expression in request["expressions"]:
          it = croniter(expression, start)
          result.append([it.get_next(datetime).strftime("%Y-%m-%dT%H:%M:%S") for _ in range(request["iterations"])])
      json.dump(result, sys.stdout)
      """
    let request: [String: Any] = [
      "zone": zoneName, "base": Self.base.replacingOccurrences(of: "Z", with: "+00:00"), "expressions": corpus,
      // croniter takes a fifth of a millisecond a fire; 25 each keeps this test near a second.
      "iterations": 25,
    ]
    let input = String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self)
    let tool = ReferenceTool("python3", install: "Scripts/setup.sh (pip install croniter)")
    guard let result = try tool.run(["-c", script], input: input) else { return }
    #expect(result.status == 0, "croniter failed (pip install croniter): \(result.error)")
    guard result.status == 0 else { return }
    let croniter = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]])
    #expect(croniter.count == corpus.count)
    for (text, theirs) in zip(corpus, croniter) {
      #expect(try Self.flowFires(text, zone: zoneName, count: 25) == theirs, "\(text)")
    }
  }
}
