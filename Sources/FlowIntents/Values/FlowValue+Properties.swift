import FoundationEssentials

extension FlowValue {
  /// The value of `${value.name}`: an entity's property, a dictionary's key, a list's `count`, `first`
  /// or `last`, a URL's `host`, `scheme`, `path`, `query` or `port`, a text's `count` (and a URL's
  /// properties when the text holds a URL), a date's `year`,
  /// `month` or `day` (in UTC). Nil when there is no such property; ``ValueType/properties`` lists them
  /// for the checker.
  public func property(named name: String) -> FlowValue? {
    switch self {
    case .entity(let entity):
      if let value = entity.property(name) { return value }
      switch name {
      case "id": return entity.id
      case "title": return .text(entity.title)
      default: return nil
      }
    case .dictionary(let dictionary):
      return dictionary[name]
    case .list(let items):
      switch name {
      case "count": return .number(Double(items.count))
      case "first": return items.first ?? .nothing
      case "last": return items.last ?? .nothing
      default: return nil
      }
    case .url(let url):
      switch name {
      case "host": return .text(url.host ?? "")
      case "scheme": return .text(url.scheme ?? "")
      case "path": return .text(url.path)
      case "query": return .text(url.query ?? "")
      case "port": return url.port.map { .number(Double($0)) } ?? .nothing
      default: return nil
      }
    case .text(let text):
      if name == "count" { return .number(Double(text.count)) }
      // A URL's properties, when the text holds one, read as the URL it becomes where a URL is wanted
      // (``ValueType/properties`` lists them for text, so the checker lets them through).
      guard ValueType.url.property(named: name) != nil, let url = Coercion.parseURL(text) else { return nil }
      return FlowValue.url(url).property(named: name)
    case .date(let date):
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
      let parts = calendar.dateComponents([.year, .month, .day], from: date)
      switch name {
      case "year": return parts.year.map { .number(Double($0)) }
      case "month": return parts.month.map { .number(Double($0)) }
      case "day": return parts.day.map { .number(Double($0)) }
      default: return nil
      }
    default:
      return nil
    }
  }

  /// The names ``property(named:)`` answers for this value, for did-you-mean.
  public var propertyNames: [String] {
    switch self {
    case .entity(let entity): entity.properties.keys
    case .dictionary(let dictionary): dictionary.keys
    case .list: ["count", "first", "last"]
    case .url: ["host", "scheme", "path", "query", "port"]
    case .text: ["count"] + ValueType.url.properties.map(\.key)
    case .date: ["year", "month", "day"]
    default: []
    }
  }
}
