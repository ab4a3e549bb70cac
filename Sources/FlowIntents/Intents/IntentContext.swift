import FlowModel
import FoundationEssentials
import Synchronization

/// What an intent runs with: who answers questions, what time it is, where randomness comes from, and
/// the services (`@Dependency`) of this run.
///
/// The runtime makes one per run and installs it for the duration of `perform()` (and of entity
/// lookups) as ``current``; nothing is a singleton, so tests and backends swap freely and runs in one
/// process do not see each other's services.
public struct IntentContext: Sendable {
  /// Asks the person for values, choices and confirmations.
  public var prompter: any Prompter
  public var clock: any FlowClock
  public var random: any RandomSource
  /// Services by type: an HTTP transport, a bookmark backend, a URL launcher.
  public var dependencies: DependencyValues
  /// Where the step being performed reports how far it has got; set only for actions that report
  /// (``IntentDescriptor/reportsProgress``).
  public var progress: ProgressReporter?
  /// The step's `confirm:`, for the action's runner to ask through; set only for steps that have one.
  public var question: StepQuestion?

  public init(
    prompter: any Prompter,
    clock: any FlowClock = SystemClock(),
    random: any RandomSource = SystemRandomSource(),
    dependencies: DependencyValues = DependencyValues()
  ) {
    self.prompter = prompter
    self.clock = clock
    self.random = random
    self.dependencies = dependencies
  }

  /// The context of the intent being performed, if any.
  @TaskLocal public static var current: IntentContext?

  /// A dependency by type, the context's own services included.
  public func dependency<Value>(_ type: Value.Type) -> Value? {
    if let value = dependencies[type] { return value }
    // The type first: casting to a type the value is not (a class) scans every conformance record.
    if type == (any Prompter).self { return prompter as? Value }
    if type == (any FlowClock).self { return clock as? Value }
    if type == (any RandomSource).self { return random as? Value }
    return nil
  }

  /// Whether a dependency of this type can be had.
  public func hasDependency(_ type: Any.Type) -> Bool {
    dependencies.contains(type) || type == (any Prompter).self || type == (any FlowClock).self
      || type == (any RandomSource).self
  }

  /// Returns a copy with `value` registered as the service of type `Value`.
  public func with<Value: Sendable>(_ value: Value, as type: Value.Type = Value.self) -> IntentContext {
    var copy = self
    copy.dependencies.register(value, as: type)
    return copy
  }
}

/// Services by type, the way App Intents' `AppDependencyManager` keeps them, but one set per run.
public struct DependencyValues: Sendable {
  /// Each value boxed as the type it was registered as, under that type, so reading it back needs no
  /// cast: casting `any Sendable` to `any Files` would have the runtime look the stored type's
  /// conformance up by scanning every record in the binary (0.5 M instructions a service type, the
  /// first time each is read).
  private var values = TypeTable<any AnyObject & Sendable>()

  /// One value, kept as the type it was registered as. Not a generic class: each `Box<T>` would be
  /// metadata the runtime makes at the start of every run, one per service.
  private final class Box: @unchecked Sendable {
    private let pointer: UnsafeMutableRawPointer
    private let destroy: (UnsafeMutableRawPointer) -> Void

    init<Value>(_ value: Value) {
      let typed = UnsafeMutablePointer<Value>.allocate(capacity: 1)
      typed.initialize(to: value)
      pointer = UnsafeMutableRawPointer(typed)
      destroy = { pointer in
        pointer.assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        pointer.deallocate()
      }
    }

    deinit { destroy(pointer) }

    /// The value; `Value` is the type it was registered as (the table's key says so).
    func value<Value>(as type: Value.Type) -> Value { pointer.assumingMemoryBound(to: Value.self).pointee }
  }

  public init() {}

  /// Registers `value` as the service of type `type` (register existentials as `(any P).self`).
  public mutating func register<Value: Sendable>(_ value: Value, as type: Value.Type = Value.self) {
    values[type] = Box(value)
  }

  /// Replaces the service of type `type`, when there is one, with what `transform` makes of it, in place.
  public mutating func replace<Value: Sendable>(_ type: Value.Type, with transform: (Value) -> Value) {
    guard let value = self[type] else { return }
    values[type] = Box(transform(value))
  }

  public subscript<Value>(type: Value.Type) -> Value? {
    values[type].map { unsafeDowncast($0, to: Box.self).value(as: type) }
  }

  public func contains(_ type: Any.Type) -> Bool { values[type] != nil }
}

/// A service the intent (or entity query) takes from the run's context: App Intents' `@Dependency`.
///
/// ```swift
/// @Dependency var transport: any HTTPTransport
/// ```
///
/// The runtime checks before `perform()` that every declared dependency is there and fails with a
/// readable error when one is not, so reading it inside `perform()` cannot fail.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable, AnyDependency {
  public init() {}

  public var wrappedValue: Value {
    guard let context = IntentContext.current, let value = context.dependency(Value.self) else {
      preconditionFailure("dependency \(Value.self) read outside a run that provides it")
    }
    return value
  }

  public var dependencyType: Any.Type { Value.self }
}

/// Lets the runtime find `@Dependency` declarations by reflection.
public protocol AnyDependency {
  var dependencyType: Any.Type { get }
}

/// Time for intents: what time it is, and waiting. Injected so tests never really sleep.
public protocol FlowClock: Sendable {
  var now: Date { get }
  func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemClock: FlowClock {
  public init() {}
  public var now: Date { Date() }
  public func sleep(for duration: Duration) async throws {
    try await ContinuousClock().sleep(for: duration)
  }
}

/// Where `get-item random` and friends get their randomness; injected so tests are deterministic.
public protocol RandomSource: Sendable {
  /// A uniformly chosen integer in `0..<count`; `count` is at least 1.
  func index(below count: Int) -> Int
}

/// The system's random number generator.
public struct SystemRandomSource: RandomSource {
  public init() {}
  public func index(below count: Int) -> Int { Int.random(in: 0..<count) }
}
