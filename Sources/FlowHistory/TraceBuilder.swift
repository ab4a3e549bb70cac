import FlowIntents
import FlowRuntime
import FoundationEssentials

/// Turns a run's step events into its trace: one ``StepTrace`` per step of the file, in the order the
/// steps first started, each with its passes counted and timed.
///
/// Positions come from the interpreter, which numbers a nested workflow's steps from 1 again; the
/// builder puts them under the `run-workflow` step that ran them (its `2` becomes `2.1`), knowing the
/// nesting from the steps started and not yet finished. A `stop` unwinds blocks without finishing
/// them; such a block is closed when a step that is not inside it starts or finishes.
///
/// It runs for every step, so the common case is kept cheap (measured by `Scripts/bench-history.sh`):
/// each open block remembers which entry each of its steps went to, so the passes of a loop after the
/// first find their entry without building or hashing a position, and counters live in plain structs
/// apart from the text.
struct TraceBuilder {
  /// What changes on every pass: plain values, cheap to update.
  private struct Counts {
    var status: StepTrace.Status = .running
    var ran: Int32 = 0
    var skipped: Int32 = 0
    var failed: Int32 = 0
    var microseconds: Int64 = 0
    var changed = false
  }

  private var counts: [Counts] = []
  /// The place in the trace (nested workflows' steps under their step) and the action.
  private var names: [(position: String, action: String)] = []
  /// Each entry's last output, summarised only when the entry is written.
  private var outputs: [FlowValue?] = []
  /// The first failure's message, or a dry run's parameter summary.
  private var details: [String?] = []
  private var byPlace: [String: Int] = [:]
  private var open: [Frame] = []
  private var changed: [Int] = []

  /// A step started and not yet finished.
  private struct Frame {
    /// The position as the interpreter gave it.
    var position: String
    var entry: Int
    var start: Date
    /// The entries its steps went to, by their positions: a loop's later passes look here.
    var steps: [(position: String, entry: Int)] = []
  }

  /// Every entry as it stands.
  var entries: [StepTrace] { counts.indices.map(trace) }

  mutating func started(_ step: StepInfo, at time: Date) {
    let entry = self.entry(step.position, action: step.label, at: time)
    counts[entry].status = .running
    markChanged(entry)
    open.append(Frame(position: step.position, entry: entry, start: time))
  }

  /// A step ended: `detail` is a failure's message or a dry run's parameter summary. Takes the
  /// record's parts rather than the record, so that nothing else of it is copied on every pass.
  mutating func finished(
    _ position: String, action: String, status: StepRecord.Status, output: FlowValue?, detail: String?,
    at time: Date
  ) {
    var entry: Int
    var microseconds: Int64 = 0
    // By index, not `open.last`: copying the frame would copy its list of steps too.
    let top = open.count - 1
    if status != .skipped, top >= 0, open[top].position == position, names[open[top].entry].action == action {
      (entry, microseconds) = (open[top].entry, Self.microseconds(from: open[top].start, to: time))
      open.removeLast()
    } else if status != .skipped,
      let index = open.lastIndex(where: { $0.position == position && names[$0.entry].action == action })
    {
      while open.count > index + 1 { close(open.removeLast(), as: .ran, at: time) }
      let frame = open.removeLast()
      (entry, microseconds) = (frame.entry, Self.microseconds(from: frame.start, to: time))
    } else {
      // Skipped steps never started.
      entry = self.entry(position, action: action, at: time)
    }
    var count = counts[entry]
    switch status {
    case .ran:
      count.status = .ran
      count.ran += 1
      outputs[entry] = output
    case .skipped:
      count.status = .skipped
      count.skipped += 1
    case .failed:
      count.status = .failed
      count.failed += 1
      if details[entry] == nil { details[entry] = detail }
      outputs[entry] = nil
    case .dryRun:
      count.status = .dryRun
      count.ran += 1
      details[entry] = detail
    }
    count.microseconds += microseconds
    if !count.changed {
      count.changed = true
      changed.append(entry)
    }
    counts[entry] = count
  }

  /// The step the run failed in before its `on-failure:` steps ran: the run's failing step, whatever
  /// happens in `on-failure:`.
  private var failedBeforeOnFailure: (position: String, action: String)?

  /// The run failed in the steps open now (`on-failure:` steps follow): closes them with `status`, as
  /// ``end(as:at:)`` would, and remembers the innermost as the step the run failed in.
  mutating func failed(as status: StepTrace.Status, at time: Date) {
    failedBeforeOnFailure = open.last.map { names[$0.entry] }
    while let frame = open.popLast() { close(frame, as: status, at: time) }
  }

  /// Closes the steps still open when the run ends: the step it failed (or was cancelled) in and the
  /// blocks around it, or blocks a `stop` left. Returns the step the run failed in: the innermost open
  /// one, or the one it had failed in before `on-failure:` ran.
  mutating func end(as status: StepTrace.Status, at time: Date) -> (position: String, action: String)? {
    let innermost = open.last.map { names[$0.entry] }
    while let frame = open.popLast() { close(frame, as: status, at: time) }
    return failedBeforeOnFailure ?? innermost
  }

  /// The entries changed since the last call, with their outputs, by their place in the trace.
  mutating func takeChanged() -> [(seq: Int, trace: StepTrace, output: FlowValue?)] {
    defer { changed.removeAll(keepingCapacity: true) }
    return changed.map { index in
      counts[index].changed = false
      return (index, trace(index), outputs[index])
    }
  }

  /// ``takeChanged()`` while the run goes on: the steps still open are written too, with the time
  /// they have taken so far added to their finished passes', so that a run killed in a long step shows
  /// how long it had been in it rather than no time at all.
  mutating func takeChanged(openAt time: Date) -> [(seq: Int, trace: StepTrace, output: FlowValue?)] {
    var taken = takeChanged()
    for frame in open {
      var entry = trace(frame.entry)
      entry.microseconds += Self.microseconds(from: frame.start, to: time)
      if let index = taken.firstIndex(where: { $0.seq == frame.entry }) {
        taken[index].trace = entry
      } else {
        taken.append((frame.entry, entry, outputs[frame.entry]))
      }
    }
    return taken
  }

  private func trace(_ index: Int) -> StepTrace {
    let count = counts[index]
    let isDryRun = count.status == .dryRun
    return StepTrace(
      position: names[index].position, action: names[index].action, status: count.status, ran: Int(count.ran),
      skipped: Int(count.skipped), failed: Int(count.failed), microseconds: count.microseconds,
      summary: isDryRun ? details[index] : nil, error: isDryRun ? nil : details[index])
  }

  // MARK: - Parts

  /// The entry of a step at `position` (as the interpreter numbers it) under the steps open now.
  private mutating func entry(_ position: String, action: String, at time: Date) -> Int {
    if let top = open.indices.last {
      for known in open[top].steps where known.position == position { return known.entry }
    }
    let place = self.place(position, at: time)
    let entry: Int
    if let index = byPlace[place] {
      entry = index
    } else {
      entry = counts.count
      counts.append(Counts())
      names.append((place, action))
      outputs.append(nil)
      details.append(nil)
      byPlace[place] = entry
    }
    if let top = open.indices.last { open[top].steps.append((position, entry)) }
    return entry
  }

  /// Where a step sits in the trace, closing blocks a `stop` left open.
  private mutating func place(_ position: String, at time: Date) -> String {
    while let top = open.last {
      let block = names[top.entry].position
      if Self.isInside(position, top.position) {
        // Outside nested workflows a step's place is its position.
        return block == top.position ? position : block + position.dropFirst(top.position.count)
      }
      if names[top.entry].action == "run-workflow" { return block + "." + position }
      close(open.removeLast(), as: .ran, at: time)
    }
    return position
  }

  private static func isInside(_ position: String, _ block: String) -> Bool {
    let (inner, outer) = (position.utf8, block.utf8)
    guard inner.count > outer.count, inner.starts(with: outer) else { return false }
    return inner[inner.index(inner.startIndex, offsetBy: outer.count)] == UInt8(ascii: ".")
  }

  private mutating func close(_ frame: Frame, as status: StepTrace.Status, at time: Date) {
    counts[frame.entry].status = status
    switch status {
    case .ran: counts[frame.entry].ran += 1
    case .failed: counts[frame.entry].failed += 1
    default: break
    }
    counts[frame.entry].microseconds += Self.microseconds(from: frame.start, to: time)
    markChanged(frame.entry)
  }

  private mutating func markChanged(_ entry: Int) {
    guard !counts[entry].changed else { return }
    counts[entry].changed = true
    changed.append(entry)
  }

  /// Never negative: the wall clock may step back (NTP) during a run.
  private static func microseconds(from start: Date, to end: Date) -> Int64 {
    max(0, Int64(end.timeIntervalSince(start) * 1_000_000 + 0.5))
  }
}
