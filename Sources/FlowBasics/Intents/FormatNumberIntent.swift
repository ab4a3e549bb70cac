import FlowIntents
import FoundationEssentials

/// Writes a number as text with a fixed number of decimal places.
struct FormatNumberIntent: AppIntent {
  static let title: LocalizedStringResource = "Format Number"
  static let description = IntentDescription(
    "Write a number with a fixed number of decimal places, and commas between thousands when asked: 1234.5 → '1,234.50'."
  )

  @Parameter(title: "Number", primary: true)
  var number: Double

  @Parameter(title: "Decimal Places", default: 2, inclusiveRange: (0, 15))
  var decimalPlaces: Int

  @Parameter(title: "Group Thousands", default: false)
  var groupThousands: Bool

  static var parameterSummary: some ParameterSummary {
    Summary("Format \(\.$number) with \(\.$decimalPlaces) decimal places") {
      \.$groupThousands
    }
  }

  func perform() async throws -> some ReturnsValue<String> {
    guard number.isFinite else {
      throw AppIntentError.failed("cannot format \(FlowValue.formatNumber(number)): it is not a finite number")
    }
    // One notation on every machine ('.' before decimals, ',' between thousands), like the rest of
    // flow's output; halves round away from zero, in decimal, as 'round-number' rounds them.
    let rounded = DecimalRounding(number, places: decimalPlaces, mode: .plain)
    return .result(value: rounded.text(grouped: groupThousands))
  }
}
