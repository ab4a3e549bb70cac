import FoundationEssentials
import Synchronization

/// An input of an intent, as App Intents declares it:
///
/// ```swift
/// @Parameter(title: "Maximum Results", default: 25, inclusiveRange: (1, 50))
/// var maxResults: Int
/// ```
///
/// The key users write is the kebab-case of the property name (`maxResults` → `max-results`), unless
/// `key:` says otherwise. An optional type makes the parameter optional; a non-optional one without a
/// default is required, and is asked for when a step leaves it out. `primary: true` marks the one
/// parameter a bare scalar fills (`- show: "Done"`, SPEC §1).
///
/// The runtime finds parameters by reading the intent's fields (``IntentLayout``), the way
/// swift-argument-parser finds `@Option`: it is a class so that the runtime can set values on a fresh
/// intent, and so that `$name` reaches it.
///
/// The class puts no requirement on `Value`; its initialisers do (`Value: IntentValueConvertible`), and
/// keep the conformance. Reading an intent's fields has the Swift
/// runtime build each field's type from its mangled name, and a requirement on `Value` would have it look
/// the conformance up by scanning every conformance in the program, once for each value type: a tenth of
/// a millisecond each, about twenty in a bookmark workflow (Performance.md).
@propertyWrapper
public final class Parameter<Value>: ParameterObject, AnyParameter, @unchecked Sendable {
  public let title: String
  public let parameterDescription: String?
  public let defaultValue: Value?
  public let inclusiveRange: ClosedRange<Double>?
  public let requestValueDialog: IntentDialog?
  public let isPrimary: Bool
  public let explicitKey: String?
  /// Kept for porting (`controlStyle: .stepper`); a command line has one style.
  public let controlStyle: ParameterControlStyle

  override var erased: any AnyParameter { self }

  /// `Value`'s conformance, kept by the initialisers, which know it; the conversions below open it.
  private let conformance: any IntentValueConvertible.Type
  // The lock guards the value and the binding, which the runtime sets while the intent is performed. It
  // holds nothing itself: a `Mutex` of the two would be one more generic type for the runtime to make
  // for each value type when it reads an intent's fields (above).
  private let lock = Mutex(())
  private var storage: Value?
  private var boundOrigin = PromptOrigin()

  public init(
    title: LocalizedStringResource,
    description: LocalizedStringResource? = nil,
    default defaultValue: Value? = nil,
    controlStyle: ParameterControlStyle = .automatic,
    inclusiveRange: (Double, Double)? = nil,
    requestValueDialog: IntentDialog? = nil,
    primary: Bool = false,
    key: String? = nil
  ) where Value: IntentValueConvertible {
    conformance = Value.self
    self.title = title.key
    self.parameterDescription = description?.key
    self.defaultValue = defaultValue
    self.controlStyle = controlStyle
    self.inclusiveRange = inclusiveRange.map { $0.0...max($0.0, $0.1) }
    self.requestValueDialog = requestValueDialog
    self.isPrimary = primary
    self.explicitKey = key
    // A reversed range is kept as declared so that CatalogValidator can name it.
    if let range = inclusiveRange, range.0 > range.1 { reversedRange = true } else { reversedRange = false }
  }

  /// `@Parameter(title: "Sort By") var sortBy: Sort = .newestFirst`: the initial value is the default.
  public convenience init(
    wrappedValue: Value,
    title: LocalizedStringResource,
    description: LocalizedStringResource? = nil,
    controlStyle: ParameterControlStyle = .automatic,
    inclusiveRange: (Double, Double)? = nil,
    requestValueDialog: IntentDialog? = nil,
    primary: Bool = false,
    key: String? = nil
  ) where Value: IntentValueConvertible {
    self.init(
      title: title, description: description, default: wrappedValue, controlStyle: controlStyle,
      inclusiveRange: inclusiveRange, requestValueDialog: requestValueDialog, primary: primary, key: key)
  }

  public let reversedRange: Bool

  /// The value: what the step gave, else the default, else nil for an optional.
  ///
  /// Reading a required parameter that has no value is a broken invariant: the runtime asks for every
  /// required value before `perform()` is called.
  public var wrappedValue: Value {
    get {
      if let value = lock.withLock({ _ in storage }) ?? defaultValue { return value }
      if let none = noValue { return none }
      preconditionFailure("parameter '\(title)' was read before it had a value")
    }
    set { lock.withLock { _ in storage = newValue } }
  }

  /// `$name`: the parameter itself, for summaries (`\.$url`) and the request family.
  public var projectedValue: Parameter<Value> { self }

  // MARK: - AnyParameter

  public var valueType: ValueType { conformance.valueType }
  public var isOptional: Bool { noValue != nil }
  public var defaultFlowValue: FlowValue? {
    guard let defaultValue else { return nil }
    let value = flowValue(defaultValue)
    return value == .nothing ? nil : value
  }
  public var currentFlowValue: FlowValue? {
    guard let value = lock.withLock({ _ in storage }) ?? defaultValue else { return nil }
    let converted = flowValue(value)
    return converted == .nothing ? nil : converted
  }
  public var hasExplicitValue: Bool { lock.withLock { _ in storage != nil } }
  public var origin: PromptOrigin { lock.withLock { _ in boundOrigin } }

  public func bind(_ origin: PromptOrigin) { lock.withLock { _ in boundOrigin = origin } }

  // MARK: - Conversions, through the conformance the initialiser kept
  //
  // Each opens `conformance` as `T`, which is `Value` itself (the initialiser made it from `Value.self`), so
  // a value passes between the two by a bit cast: no cast that asks the runtime.

  private var noValue: Value? {
    func open<T: IntentValueConvertible>(_: T.Type) -> Value? { T.noValue.map { unsafeBitCast($0, to: Value.self) } }
    return open(conformance)
  }

  private func flowValue(_ value: Value) -> FlowValue {
    func open<T: IntentValueConvertible>(_: T.Type) -> FlowValue { unsafeBitCast(value, to: T.self).flowValue }
    return open(conformance)
  }

  private func make(_ value: FlowValue) throws(CoercionError) -> Value {
    func open<T: IntentValueConvertible>(_: T.Type) throws(CoercionError) -> Value {
      unsafeBitCast(try T(flowValue: value), to: Value.self)
    }
    return try open(conformance)
  }

  private func resolveValue(_ value: FlowValue, in context: IntentContext) async throws -> Value {
    func open<T: IntentValueConvertible>(_: T.Type) async throws -> Value {
      unsafeBitCast(try await T.resolve(value, in: context), to: Value.self)
    }
    return try await open(conformance)
  }

  public var literalConverter: @Sendable (FlowValue) throws(CoercionError) -> FlowValue {
    { [self] value throws(CoercionError) in try flowValue(make(value)) }
  }

  public func assign(_ value: FlowValue, in context: IntentContext) async throws {
    let resolved = try await resolve(value, in: context)
    lock.withLock { _ in storage = resolved }
  }

  public func assignDefault() {
    lock.withLock { _ in storage = defaultValue }
  }

  /// Converts and checks a value for this parameter, without keeping it.
  func resolve(_ value: FlowValue, in context: IntentContext) async throws -> Value {
    let key = origin.parameterKey ?? Naming.kebabCase(title)
    let resolved: Value
    do {
      resolved = try await PromptOrigin.$current.withValue(origin) { try await self.resolveValue(value, in: context) }
    } catch let error as CoercionError {
      throw AppIntentError(
        .invalidValue, error.message(forParameter: key), help: error.help, origin: origin)
    } catch var error as AppIntentError where error.origin == nil {
      // An entity query's "not found" belongs to this parameter, so that it is reported at its value.
      error.origin = origin
      throw error
    }
    if let range = inclusiveRange, case .number(let number) = flowValue(resolved), !range.contains(number) {
      let low = FlowValue.formatNumber(range.lowerBound), high = FlowValue.formatNumber(range.upperBound)
      throw AppIntentError(
        .outOfRange, "'\(key)' must be between \(low) and \(high), got \(FlowValue.formatNumber(number))",
        origin: origin)
    }
    return resolved
  }

  // MARK: - The request family

  /// Asks the person for this parameter's value, re-asking while the answer does not fit; the answer
  /// becomes the parameter's value.
  @discardableResult
  public func requestValue(_ dialog: IntentDialog? = nil) async throws -> Value {
    let context = try IntentContext.requireCurrent()
    let question = dialog?.text ?? requestValueDialog?.text ?? title
    var request = ValueRequest(
      kind: .missingParameter, origin: origin, dialog: question, valueType: valueType, defaultAnswer: defaultFlowValue)
    request.range = inclusiveRange
    let value = try await Prompting.requestValue(request, prompter: context.prompter) { answer in
      // What a person types for a date is read as words too ('tomorrow'), as `ask` reads it.
      try await self.resolve(DateWords.reading(answer, as: self.valueType, now: context.clock.now), in: context)
    }
    lock.withLock { _ in storage = value }
    return value
  }

  /// The error to throw when this parameter must have a value (App Intents' `needsValueError`).
  public func needsValueError(_ dialog: IntentDialog? = nil) -> AppIntentError {
    .needsValue(origin, dialog: dialog?.text ?? requestValueDialog?.text ?? title)
  }

  /// Asks the person to pick one of `values`; the choice becomes the parameter's value.
  public func requestDisambiguation(among values: [Value], dialog: IntentDialog? = nil) async throws -> Value {
    guard !values.isEmpty else { throw AppIntentError.failed("there is nothing to choose from for '\(title)'") }
    if values.count == 1 { return values[0] }
    let context = try IntentContext.requireCurrent()
    let options = values.map { Prompting.optionText(for: flowValue($0)) }
    let chosen = try await context.prompter.requestChoice(
      ChoiceRequest(kind: .disambiguation, origin: origin, dialog: dialog?.text ?? "Which \(title)?", options: options))
    guard let index = chosen.first, values.indices.contains(index) else { throw AppIntentError.userCancelled }
    lock.withLock { _ in storage = values[index] }
    return values[index]
  }

  /// Asks the person whether `value` is the one they meant; returns their answer.
  @discardableResult
  public func requestConfirmation(for value: Value, dialog: IntentDialog? = nil) async throws -> Bool {
    let context = try IntentContext.requireCurrent()
    let text = dialog?.text ?? "Use \(Prompting.optionText(for: flowValue(value))) for \(title)?"
    return try await context.prompter.requestConfirmation(
      ConfirmationRequest(kind: .parameter, origin: origin, dialog: text))
  }
}

/// How a parameter would be edited in a graphical editor; accepted for porting, not used.
public enum ParameterControlStyle: Sendable, Hashable {
  case automatic, field, stepper, slider
}

/// Every ``Parameter``, whatever its value type: what tells a parameter field, or a summary's key path,
/// from the rest with a class check. A cast to ``AnyParameter`` would do the same, but the first cast of
/// each type to a protocol makes the Swift runtime scan every conformance in the program, two scans of a
/// one-step run's start (Performance.md).
public class ParameterObject: @unchecked Sendable {
  /// This parameter as ``AnyParameter``, converted where its type is known (no cast).
  var erased: any AnyParameter { preconditionFailure("only Parameter is a ParameterObject") }
}

/// What the runtime needs of a parameter without knowing its Swift type.
public protocol AnyParameter: AnyObject, Sendable {
  var title: String { get }
  var parameterDescription: String? { get }
  var valueType: ValueType { get }
  var isOptional: Bool { get }
  var isPrimary: Bool { get }
  var explicitKey: String? { get }
  var inclusiveRange: ClosedRange<Double>? { get }
  var reversedRange: Bool { get }
  var requestValueDialog: IntentDialog? { get }
  var defaultFlowValue: FlowValue? { get }
  /// Converts a value in hand with the Swift type's own initialiser (`init(flowValue:)`), as a literal in
  /// a workflow is checked before the run.
  var literalConverter: @Sendable (FlowValue) throws(CoercionError) -> FlowValue { get }
  /// The value set, else the default; nil when neither.
  var currentFlowValue: FlowValue? { get }
  var hasExplicitValue: Bool { get }
  var origin: PromptOrigin { get }
  /// Tells the parameter its key and intent, for prompts and messages.
  func bind(_ origin: PromptOrigin)
  /// Converts, resolves (entities through their query) and range-checks `value`, then keeps it.
  func assign(_ value: FlowValue, in context: IntentContext) async throws
  /// Sets the default as the value (or nil for an optional without one).
  func assignDefault()
  /// Asks the person for the value (a required parameter without one).
  @discardableResult func requestValueErased() async throws -> FlowValue
}

extension Parameter {
  public func requestValueErased() async throws -> FlowValue { flowValue(try await requestValue()) }
}

extension IntentContext {
  /// The current context, or an error for request calls made outside a run.
  static func requireCurrent() throws -> IntentContext {
    guard let context = IntentContext.current else {
      throw AppIntentError.failed("cannot ask the person outside a run")
    }
    return context
  }
}

/// The framework's side of asking: the re-ask loop and how options are shown.
public enum Prompting {
  /// Asks until an answer converts, telling the prompter why the previous one did not.
  public static func requestValue<T>(
    _ request: ValueRequest,
    prompter: any Prompter,
    convert: (FlowValue) async throws -> T
  ) async throws -> T {
    var request = request
    while true {
      let answer = try await prompter.requestValue(request)
      do {
        if answer == .nothing || answer == .text(""), let fallback = request.defaultAnswer {
          return try await convert(fallback)
        }
        return try await convert(answer)
      } catch let error as AppIntentError
        where [.invalidValue, .outOfRange, .entityNotFound].contains(error.kind)
      {
        request.problem = error.message
      } catch let error as CoercionError {
        request.problem = error.message
      }
    }
  }

  /// An option as a list shows it: an entity's title and subtitle, anything else its text.
  public static func optionText(for value: FlowValue) -> String {
    if case .entity(let entity) = value, let subtitle = entity.subtitle, !subtitle.isEmpty {
      return "\(entity.title) (\(subtitle))"
    }
    return value.text
  }
}
