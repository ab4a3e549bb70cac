import FlowModel
import Foundation
import Synchronization

/// What an intent runs with: who answers questions, what time it is, where randomness comes from, and
/// the services (`@Dependency`) of this run.
///
/// The runtime makes one per run and installs it for the duration of `perform()` (and of entity
/// lookups) as ``current``; nothing is a singleton, so tests and backends swap freely and runs in one
/// process do not see each other's services.
package struct IntentContext: Sendable {
  /// Asks the person for values, choices and confirmations.
  package var prompter: any Prompter
  package var clock: any FlowClock
  package var random: any RandomSource
  /// Services by type: an HTTP transport, a bookmark backend, a URL launcher.
  package var dependencies: DependencyValues
  /// Where the step being performed reports how far it has got; set only for actions that report
  /// (``IntentDescriptor/reportsProgress``).
  package var progress: ProgressReporter?

  package init(
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
  @TaskLocal package static var current: IntentContext?

  /// A dependency by type, the context's own services included.
  package func dependency<Value>(_ type: Value.Type) -> Value? {
    if let value = dependencies[type] { return value }
    if let value = prompter as? Value, type == (any Prompter).self { return value }
    if let value = clock as? Value, type == (any FlowClock).self { return value }
    if let value = random as? Value, type == (any RandomSource).self { return value }
    return nil
  }

  /// Whether a dependency of this type can be had.
  package func hasDependency(_ type: Any.Type) -> Bool {
    dependencies.contains(type) || type == (any Prompter).self || type == (any FlowClock).self
      || type == (any RandomSource).self
  }

  /// Returns a copy with `value` registered as the service of type `Value`.
  package func with<Value: Sendable>(_ value: Value, as type: Value.Type = Value.self) -> IntentContext {
    var copy = self
    copy.dependencies.register(value, as: type)
    return copy
  }
}

/// Services by type, the way App Intents' `AppDependencyManager` keeps them, but one set per run.
package struct DependencyValues: Sendable {
  private var values = TypeTable<any Sendable>()

  package init() {}

  /// Registers `value` as the service of type `type` (register existentials as `(any P).self`).
  package mutating func register<Value: Sendable>(_ value: Value, as type: Value.Type = Value.self) {
    values[type] = value
  }

  package subscript<Value>(type: Value.Type) -> Value? {
    values[type] as? Value
  }

  package func contains(_ type: Any.Type) -> Bool { values[type] != nil }
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
package struct Dependency<Value: Sendable>: Sendable, AnyDependency {
  package init() {}

  package var wrappedValue: Value {
    guard let context = IntentContext.current, let value = context.dependency(Value.self) else {
      preconditionFailure("dependency \(Value.self) read outside a run that provides it")
    }
    return value
  }

  package var dependencyType: Any.Type { Value.self }
}

/// Lets the runtime find `@Dependency` declarations by reflection.
package protocol AnyDependency {
  var dependencyType: Any.Type { get }
}

/// Time for intents: what time it is, and waiting. Injected so tests never really sleep.
package protocol FlowClock: Sendable {
  var now: Date { get }
  func sleep(for duration: Duration) async throws
}

/// The real clock.
package struct SystemClock: FlowClock {
  package init() {}
  package var now: Date { Date() }
  package func sleep(for duration: Duration) async throws {
    try await ContinuousClock().sleep(for: duration)
  }
}

/// Where `get-item random` and friends get their randomness; injected so tests are deterministic.
package protocol RandomSource: Sendable {
  /// A uniformly chosen integer in `0..<count`; `count` is at least 1.
  func index(below count: Int) -> Int
}

/// The system's random number generator.
package struct SystemRandomSource: RandomSource {
  package init() {}
  package func index(below count: Int) -> Int { Int.random(in: 0..<count) }
}
