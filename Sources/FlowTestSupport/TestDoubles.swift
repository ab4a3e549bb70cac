import FlowIntents
import FlowModel
import Foundation
import Synchronization

/// A clock that never waits: sleeping moves its time forward at once and is recorded.
public final class ManualClock: FlowClock, Sendable {
  private let state: Mutex<(time: Date, slept: [Duration])>

  public init(now: Date = Date(timeIntervalSince1970: 1_795_000_000)) { state = Mutex((now, [])) }

  public var now: Date { state.withLock { $0.time } }
  /// Every `sleep(for:)` so far, in order.
  public var sleeps: [Duration] { state.withLock { $0.slept } }

  public func sleep(for duration: Duration) async throws {
    try Task.checkCancellation()
    state.withLock {
      $0.slept.append(duration)
      $0.time += DurationParsing.seconds(of: duration)
    }
  }
}

/// A prompter that answers from a script, in order, and records what was asked.
///
/// For tests, and for anything that knows its answers ahead. When the script has no answer of the kind
/// asked for, it fails with ``AppIntentError/needsValue(_:dialog:)`` (or a cancelled confirmation), as an
/// unattended run would.
public actor ScriptedPrompter: Prompter {
  /// One scripted answer.
  public enum Answer: Sendable, Hashable {
    case value(FlowValue)
    case choice(Int)
    case choices([Int])
    case confirmation(Bool)
  }

  private var answers: [Answer]
  /// Every request made so far, in order, as its dialog text.
  public private(set) var asked: [String] = []
  /// Every value request, with the problem that caused a re-ask.
  public private(set) var valueRequests: [ValueRequest] = []

  public init(_ answers: [Answer] = []) { self.answers = answers }

  /// Answers not used yet.
  public var remaining: [Answer] { answers }

  public func requestValue(_ request: ValueRequest) async throws -> FlowValue {
    asked.append(request.dialog)
    valueRequests.append(request)
    guard case .value(let value)? = answers.first else {
      throw AppIntentError.needsValue(request.origin, dialog: request.dialog)
    }
    answers.removeFirst()
    return value
  }

  public func requestChoice(_ request: ChoiceRequest) async throws -> [Int] {
    asked.append(request.dialog)
    switch answers.first {
    case .choice(let index)?:
      answers.removeFirst()
      return [index]
    case .choices(let indices)?:
      answers.removeFirst()
      return indices
    default:
      throw AppIntentError.needsChoice(request.origin, dialog: request.dialog, options: request.options)
    }
  }

  public func requestConfirmation(_ request: ConfirmationRequest) async throws -> Bool {
    asked.append(request.dialog)
    guard case .confirmation(let answer)? = answers.first else {
      throw AppIntentError.confirmationRequired(request.origin, dialog: request.dialog)
    }
    answers.removeFirst()
    return answer
  }
}

/// A repeatable sequence of random indices from a seed (SplitMix64), for tests and reproducible runs.
public final class SeededRandomSource: RandomSource, Sendable {
  private let state: Mutex<UInt64>

  public init(seed: UInt64) { state = Mutex(seed) }

  public func index(below count: Int) -> Int {
    state.withLock { state in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      z ^= z >> 31
      return Int(z % UInt64(count))
    }
  }
}
