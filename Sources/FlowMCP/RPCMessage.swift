import FlowIntents

/// A JSON-RPC 2.0 request id: the specification allows a number or a string, and an answer must carry the
/// id exactly as it was sent.
public enum RPCID: Sendable, Hashable, CustomStringConvertible {
  case number(Int)
  case string(String)

  init?(_ value: FlowValue) {
    switch value {
    case .number(let number) where number == number.rounded() && abs(number) < 9e15: self = .number(Int(number))
    case .text(let text): self = .string(text)
    default: return nil
    }
  }

  public var value: FlowValue {
    switch self {
    case .number(let number): .number(Double(number))
    case .string(let text): .text(text)
    }
  }

  public var description: String {
    switch self {
    case .number(let number): String(number)
    case .string(let text): text
    }
  }
}

/// A JSON-RPC error object, and the error a request throws when its answer is one.
public struct RPCError: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: Int
  public var message: String
  public var data: FlowValue?

  public init(code: Int, message: String, data: FlowValue? = nil) {
    self.code = code
    self.message = message
    self.data = data
  }

  public static let parseError = -32700
  public static let invalidRequest = -32600
  public static let methodNotFound = -32601
  public static let invalidParams = -32602
  public static let internalError = -32603

  public static func methodNotFound(_ method: String) -> RPCError {
    RPCError(code: methodNotFound, message: "Method not found: \(method)")
  }

  public var description: String { "\(message) (JSON-RPC error \(code))" }

  var value: FlowValue {
    var entries: [(key: String, value: FlowValue)] = [("code", .number(Double(code))), ("message", .text(message))]
    if let data { entries.append(("data", data)) }
    return .dictionary(FlowDictionary(entries))
  }
}

/// One JSON-RPC 2.0 message. Batches (arrays) are not part of MCP since 2025-06-18 and are refused.
public enum RPCMessage: Sendable, Hashable {
  case request(id: RPCID, method: String, params: FlowValue?)
  case notification(method: String, params: FlowValue?)
  case response(id: RPCID, result: FlowValue)
  /// An error answer; the id is missing when the peer could not read the request's.
  case error(id: RPCID?, RPCError)

  /// Why a line is not a JSON-RPC message.
  public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// Reads one message from its JSON text (one line of the stdio transport).
  public static func decode(_ text: String) throws(DecodingError) -> RPCMessage {
    let value: FlowValue
    do { value = try JSON.parse(text) } catch { throw DecodingError(message: "not JSON: \(error.message)") }
    guard case .dictionary(let object) = value else {
      throw DecodingError(message: "not a JSON-RPC message: expected an object")
    }
    guard object["jsonrpc"] == .text("2.0") else {
      throw DecodingError(message: "not a JSON-RPC 2.0 message: \"jsonrpc\" is not \"2.0\"")
    }
    let params = object["params"]
    if case .text(let method)? = object["method"] {
      guard let rawID = object["id"] else { return .notification(method: method, params: params) }
      guard let id = RPCID(rawID) else { throw DecodingError(message: "a request's id must be a number or a string") }
      return .request(id: id, method: method, params: params)
    }
    let id = object["id"].flatMap(RPCID.init)
    if let error = object["error"] {
      // The code is an integer (JSON-RPC 2.0 §5.1); one past Int's range would trap in the conversion.
      guard case .dictionary(let fields) = error, case .number(let number)? = fields["code"],
        let code = Int(exactly: number)
      else {
        throw DecodingError(message: "a JSON-RPC error must be an object with an integer code")
      }
      let message = fields["message"].map(\.text) ?? ""
      return .error(id: id, RPCError(code: code, message: message, data: fields["data"]))
    }
    guard let id else { throw DecodingError(message: "a JSON-RPC message needs a method or an id") }
    return .response(id: id, result: object["result"] ?? .nothing)
  }

  /// The message as compact JSON: one line, since `JSON.encode` escapes every newline inside strings.
  public func encoded() -> String {
    var entries: [(key: String, value: FlowValue)] = [("jsonrpc", "2.0")]
    switch self {
    case .request(let id, let method, let params):
      entries.append(("id", id.value))
      entries.append(("method", .text(method)))
      if let params { entries.append(("params", params)) }
    case .notification(let method, let params):
      entries.append(("method", .text(method)))
      if let params { entries.append(("params", params)) }
    case .response(let id, let result):
      entries.append(("id", id.value))
      entries.append(("result", result))
    case .error(let id, let error):
      entries.append(("id", id?.value ?? .nothing))
      entries.append(("error", error.value))
    }
    return JSON.encode(.dictionary(FlowDictionary(entries)))
  }
}
