import Synchronization

/// What an action noticed and went on past (a folder a recursive listing could not read): said as the
/// step's warning when the step ends, so the person hears of it and the run still succeeds. One per run,
/// among its services; the interpreter takes what each step left.
public final class StepWarnings: Sendable {
  private let messages = Mutex<[String]>([])
  /// Whether there are any: the run asks after every action step, and almost always there are none.
  private let any = Atomic(false)

  public init() {}

  public func add(_ message: String) {
    messages.withLock { $0.append(message) }
    any.store(true, ordering: .releasing)
  }

  /// What was added since the last call, emptied.
  public func take() -> [String] {
    guard any.exchange(false, ordering: .acquiringAndReleasing) else { return [] }
    return messages.withLock { messages in
      defer { messages = [] }
      return messages
    }
  }
}

extension IntentContext {
  /// Says `message` as the running step's warning; the step goes on.
  public func warn(_ message: String) { dependency(StepWarnings.self)?.add(message) }
}
