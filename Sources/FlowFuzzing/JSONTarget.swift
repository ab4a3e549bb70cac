import FlowIntents
import FlowMCP

/// Text as JSON reaches flow (a web API's answer, `get-dictionary-from-input`, a stdio MCP line): parsed
/// by ``JSON/parse(_:)``, and what parses is written back and must parse to the same value; then the
/// same text as an MCP message (``RPCMessage/decode(_:)``), whose encoding must decode to itself.
enum JSONTarget {
  static func run(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    if let value = try? JSON.parse(text) {
      _ = (JSON.encode(value, pretty: true), Coercion.text(of: value))
      let written = JSON.encode(value)
      guard let again = try? JSON.parse(written), again == value else {
        fatalError("JSON did not survive a round trip: \(written)")
      }
    }
    if let message = try? RPCMessage.decode(text) {
      let written = message.encoded()
      guard let again = try? RPCMessage.decode(written), again == message else {
        fatalError("an MCP message did not survive a round trip: \(written)")
      }
    }
  }
}
