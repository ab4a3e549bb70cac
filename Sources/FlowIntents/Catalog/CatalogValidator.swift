import FlowDiagnostics
import FoundationEssentials

/// Checks intent declarations for the mistakes the compiler cannot see, and reports all of them.
///
/// Programmer errors, caught in tests (swift-argument-parser's validators): each problem names the
/// intent type and the rule it breaks.
public enum CatalogValidator {
  /// The rules, as their ids.
  public enum Rule: String, Sendable, Hashable, CaseIterable {
    case uniqueIDs = "unique-ids"
    case kebabCaseIDs = "kebab-case-ids"
    case sortedRegistry = "sorted-registry"
    case hasTitle = "has-title"
    case hasDescription = "has-description"
    case kebabCaseKeys = "kebab-case-keys"
    case uniqueKeys = "unique-keys"
    case atMostOnePrimary = "at-most-one-primary"
    case defaultsInRange = "defaults-in-range"
    case validRanges = "valid-ranges"
    case hasSummary = "has-summary"
    case summaryKeyPathsAreParameters = "summary-key-paths-are-parameters"
    case summaryMentionsEveryParameter = "summary-mentions-every-parameter"
    case uniqueEnumIDs = "unique-enum-ids"
    case uniqueEnumDisplayNames = "unique-enum-display-names"
    case enumCasesHaveDisplayNames = "enum-cases-have-display-names"
    case entitiesHaveNames = "entities-have-names"
    case uniqueEntityProperties = "unique-entity-properties"
    case networkParameterIsURL = "network-parameter-is-url"
    case promptsDeclared = "prompts-declared"
    case effectParametersAreParameters = "effect-parameters-are-parameters"
    case effectFollowsDeclaredParameters = "effect-follows-declared-parameters"
  }

  /// One broken rule in one declaration.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// The Swift type that breaks the rule: `SaveBookmarkIntent`.
    public var declaration: String
    public var rule: Rule
    public var message: String

    public var description: String { "\(declaration): \(message) [\(rule.rawValue)]" }
  }

  /// Problems in these catalogues, across them too (ids must be unique among all).
  public static func validate(_ catalogs: [any IntentCatalog.Type]) -> [Problem] {
    var problems: [Problem] = []
    var seen: [String: String] = [:]
    for catalog in catalogs {
      let descriptors = catalog.descriptors
      problems += validate(descriptors)
      let ids = descriptors.map(\.id)
      if ids != ids.sorted() {
        problems.append(
          Problem(
            declaration: String(describing: catalog), rule: .sortedRegistry,
            message: "intents are not sorted by id; expected \(ids.sorted().joined(separator: ", "))"))
      }
      for descriptor in descriptors {
        if let other = seen[descriptor.id], other != descriptor.typeName {
          problems.append(
            Problem(
              declaration: descriptor.typeName, rule: .uniqueIDs,
              message: "id '\(descriptor.id)' is also the id of \(other)"))
        }
        seen[descriptor.id] = descriptor.typeName
      }
    }
    return problems
  }

  /// Problems in these intents, which form one catalogue.
  public static func validate(intents: [any AppIntent.Type], namespace: String? = nil) -> [Problem] {
    validate(intents.map { IntentDescriptor($0, namespace: namespace) })
  }

  static func validate(_ descriptors: [IntentDescriptor]) -> [Problem] {
    var problems: [Problem] = []
    var ids: [String: String] = [:]
    var checkedTypes: Set<String> = []
    for descriptor in descriptors {
      func report(_ rule: Rule, _ message: String) {
        problems.append(Problem(declaration: descriptor.typeName, rule: rule, message: message))
      }
      if let other = ids[descriptor.id], other != descriptor.typeName {
        report(.uniqueIDs, "id '\(descriptor.id)' is also the id of \(other)")
      }
      ids[descriptor.id] = descriptor.typeName
      if !Naming.isKebabCase(descriptor.shortID) {
        report(.kebabCaseIDs, "id '\(descriptor.shortID)' is not kebab-case")
      }
      if descriptor.title.trimmingWhitespace().isEmpty { report(.hasTitle, "the title is empty") }
      if descriptor.description.trimmingWhitespace().isEmpty {
        report(.hasDescription, "the description is empty")
      }
      var keys: Set<String> = []
      for parameter in descriptor.parameters {
        if !Naming.isKebabCase(parameter.key) {
          report(.kebabCaseKeys, "parameter key '\(parameter.key)' is not kebab-case")
        }
        if !keys.insert(parameter.key).inserted {
          report(.uniqueKeys, "two parameters have the key '\(parameter.key)'")
        }
        if parameter.reversedRange {
          report(.validRanges, "the range of '\(parameter.key)' ends before it starts")
        }
        if let range = parameter.range {
          switch parameter.type {
          case .number, .integer, .duration: break
          default: report(.validRanges, "'\(parameter.key)' has a range but is not a number")
          }
          if case .number(let value)? = parameter.defaultValue, !range.contains(value) {
            report(
              .defaultsInRange,
              "the default of '\(parameter.key)', \(FlowValue.formatNumber(value)), is outside "
                + "\(FlowValue.formatNumber(range.lowerBound))...\(FlowValue.formatNumber(range.upperBound))")
          }
        }
        problems += validate(type: parameter.type, checked: &checkedTypes)
      }
      let primaries = descriptor.parameters.filter(\.isPrimary).map(\.key)
      if primaries.count > 1 {
        report(.atMostOnePrimary, "\(primaries.count) parameters are primary: \(List.and(primaries.map { "'\($0)'" }))")
      }
      if descriptor.summary.unknownKeyPaths > 0 {
        report(
          .summaryKeyPathsAreParameters,
          "the summary has \(Count.of(descriptor.summary.unknownKeyPaths, "key path")) that are not parameters")
      }
      if !descriptor.parameters.isEmpty {
        if descriptor.summary.isUndeclared {
          report(.hasSummary, "it has parameters but no parameter summary")
        } else {
          let mentioned = descriptor.summary.keys
          for parameter in descriptor.parameters where !mentioned.contains(parameter.key) {
            report(.summaryMentionsEveryParameter, "the summary does not mention '\(parameter.key)'")
          }
          for key in Set(mentioned) where mentioned.count(where: { $0 == key }) > 1 {
            report(.summaryMentionsEveryParameter, "the summary mentions '\(key)' more than once")
          }
        }
      }
      if case .hostOfParameter(let key) = descriptor.networkAccess, descriptor.parameter(key)?.type != .url {
        report(.networkParameterIsURL, "its network access names '\(key)', which is not a URL parameter")
      }
      for key in descriptor.sideEffectParameters.sorted() where descriptor.parameter(key) == nil {
        report(.effectParametersAreParameters, "its side effect is decided by '\(key)', which is not a parameter")
      }
      for access in descriptor.machineAccess {
        if let key = access.parameter, descriptor.parameter(key) == nil {
          report(
            .effectParametersAreParameters,
            "its machine access '\(access.kind.rawValue)' names '\(key)', which is not a parameter")
        }
      }
      // The card takes a step at its declared effect when no deciding value is computed: an effect that
      // moves with values nobody declared would be worded too weakly there.
      if descriptor.sideEffectParameters.isEmpty, descriptor.sideEffect(for: [:]) != descriptor.sideEffect {
        report(
          .effectFollowsDeclaredParameters,
          "its side effect changes with its values, but it declares no 'sideEffectParameters'")
      }
      // An unattended run refuses before its first step only for what it knows will be asked.
      if descriptor.dependencies.contains(String(describing: (any Prompter).self)), descriptor.prompts.isEmpty {
        report(.promptsDeclared, "it asks the person through a Prompter but declares no 'prompts'")
      }
      if let output = descriptor.outputType { problems += validate(type: output, checked: &checkedTypes) }
    }
    return problems
  }

  /// Problems in an enum or entity type reached from a declaration; each type is checked once.
  static func validate(type: ValueType, checked: inout Set<String>) -> [Problem] {
    var problems: [Problem] = []
    switch type {
    case .list(let element):
      return validate(type: element, checked: &checked)
    case .enumeration(let enumType):
      guard checked.insert("enum " + enumType.name).inserted else { return [] }
      func report(_ rule: Rule, _ message: String) {
        problems.append(Problem(declaration: "enum '\(enumType.name)'", rule: rule, message: message))
      }
      var ids: Set<String> = []
      var names: Set<String> = []
      for enumCase in enumType.cases {
        if !Naming.isKebabCase(enumCase.id) { report(.uniqueEnumIDs, "case id '\(enumCase.id)' is not kebab-case") }
        if !ids.insert(enumCase.id).inserted { report(.uniqueEnumIDs, "two cases have the id '\(enumCase.id)'") }
        if enumCase.title == enumCase.id {
          report(.enumCasesHaveDisplayNames, "case '\(enumCase.id)' has no display representation")
        }
        if !names.insert(enumCase.title.lowercased()).inserted {
          report(.uniqueEnumDisplayNames, "two cases are shown as '\(enumCase.title)'")
        }
      }
    case .entity(let entityType):
      guard checked.insert("entity " + entityType.name).inserted else { return [] }
      func report(_ rule: Rule, _ message: String) {
        problems.append(Problem(declaration: "entity '\(entityType.name)'", rule: rule, message: message))
      }
      if entityType.name.trimmingWhitespace().isEmpty {
        report(.entitiesHaveNames, "its type display representation is empty")
      }
      var keys: Set<String> = []
      for property in entityType.properties {
        if !keys.insert(property.key).inserted {
          report(.uniqueEntityProperties, "two properties have the key '\(property.key)'")
        }
        problems += validate(type: property.type, checked: &checked)
      }
    default:
      break
    }
    return problems
  }
}
