/// What `perform()` returns: `.result()`, `.result(value:)`, `.result(dialog:)` or
/// `.result(value:dialog:)`.
///
/// Declare the return type as App Intents does — `some IntentResult`, `some ReturnsValue<Bookmark>`,
/// `some ReturnsValue<Double> & ProvidesDialog` — and the runtime reads the output type from it.
public protocol IntentResult: Sendable {
  /// The value to pass on as the step's output (nil: nothing).
  var outputValue: FlowValue? { get }
  /// The text to show the person.
  var outputDialog: IntentDialog? { get }
  /// The declared output type; nil when the intent returns no value. What the catalogue reads is
  /// ``AppIntent/_outputValueType``, which knows the type without asking the runtime.
  static var outputType: ValueType? { get }
}

/// A result whose value becomes the step's output, the magic variable later steps use.
public protocol ReturnsValue<Value>: IntentResult {
  associatedtype Value
}

/// A result with text for the person.
public protocol ProvidesDialog: IntentResult {}

/// Marks a result without a value or without a dialog.
public enum NoResultPart: Sendable {}

/// The one concrete result type; the factories below pick its parameters.
///
/// The factories, which know `Value: IntentValueConvertible`, convert the value as they make the result:
/// a cast to the protocol here would have the Swift runtime scan every conformance in the program, once
/// for each value type (Performance.md).
public struct IntentResultContainer<Value: Sendable, Dialog: Sendable>: IntentResult {
  public let outputValue: FlowValue?
  public let outputDialog: IntentDialog?

  init(value: Value?, dialog: IntentDialog?) where Value: IntentValueConvertible {
    outputValue = value?.flowValue
    outputDialog = dialog
  }

  init(dialog: IntentDialog?) where Value == NoResultPart {
    outputValue = nil
    outputDialog = dialog
  }

  public static var outputType: ValueType? {
    Value.self == NoResultPart.self ? nil : (Value.self as? any IntentValueConvertible.Type)?.valueType
  }
}

extension IntentResultContainer: ReturnsValue where Value: IntentValueConvertible {}
extension IntentResultContainer: ProvidesDialog where Dialog == IntentDialog {}

extension IntentResult {
  /// Done, with nothing to pass on or say.
  public static func result() -> Self where Self == IntentResultContainer<NoResultPart, NoResultPart> {
    IntentResultContainer(dialog: nil)
  }

  /// Done; `value` becomes the step's output.
  public static func result<V: IntentValueConvertible>(value: V) -> Self
  where Self == IntentResultContainer<V, NoResultPart> {
    IntentResultContainer(value: value, dialog: nil)
  }

  /// Done; `dialog` is shown to the person.
  public static func result(dialog: IntentDialog) -> Self
  where Self == IntentResultContainer<NoResultPart, IntentDialog> {
    IntentResultContainer(dialog: dialog)
  }

  /// Done; `value` becomes the step's output and `dialog` is shown.
  public static func result<V: IntentValueConvertible>(value: V, dialog: IntentDialog) -> Self
  where Self == IntentResultContainer<V, IntentDialog> {
    IntentResultContainer(value: value, dialog: dialog)
  }
}
