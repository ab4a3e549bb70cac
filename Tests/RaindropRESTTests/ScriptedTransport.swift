import FlowHTTP
import Foundation

/// A transport that answers from a script and records what it was sent. No sockets.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
  // Guarded by `lock`; a class with a lock because `send` is called from the client's tasks.
  private let lock = NSLock()
  private var script: [Result<HTTPResponse, HTTPTransportError>]
  private var sent: [HTTPRequest] = []

  init(_ script: [Result<HTTPResponse, HTTPTransportError>]) { self.script = script }

  func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
    let next: Result<HTTPResponse, HTTPTransportError>? = lock.withLock {
      sent.append(request)
      return script.isEmpty ? nil : script.removeFirst()
    }
    guard let next else { throw .other("script exhausted") }
    return try next.get()
  }

  var requests: [HTTPRequest] { lock.withLock { sent } }
}

/// A JSON answer with Raindrop's headers.
func json(_ body: String, status: Int = 200, headers: [String: String] = [:]) -> Result<
  HTTPResponse, HTTPTransportError
> {
  var all = ["content-type": "application/json; charset=utf-8"]
  for (name, value) in headers { all[name] = value }
  return .success(HTTPResponse(status: status, headers: all, body: Data(body.utf8)))
}

let userBody = #"{"result":true,"user":{"_id":7,"fullName":"Ann","email":"a@b.c","pro":true,"groups":[],"config":{}}}"#
