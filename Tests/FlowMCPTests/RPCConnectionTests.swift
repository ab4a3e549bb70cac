import FlowIntents
import FlowTestSupport
import Foundation
import Synchronization
import Testing

@testable import FlowMCP

/// Two real connections over two pipes, each the other's peer, as a client and a server are.
private struct PipePair {
  let client: RPCConnection
  let server: RPCConnection
  /// The server's input, written by hand to test what a broken peer sends.
  let rawToClient: Int32

  init(clientHandler: any RPCHandler, serverHandler: any RPCHandler) {
    var toServer: [Int32] = [0, 0]
    var toClient: [Int32] = [0, 0]
    pipe(&toServer)
    pipe(&toClient)
    client = RPCConnection(input: toClient[0], output: toServer[1], handler: clientHandler)
    server = RPCConnection(
      input: toServer[0], output: toClient[1], handler: serverHandler, invalidLines: .answerParseError)
    rawToClient = toClient[1]
    client.start()
    server.start()
  }
}

/// Answers `echo` with its params, `ask` by asking the peer `question` back, and `wait` never (until cancelled).
private final class TestServer: RPCHandler {
  let cancelled = Mutex<[RPCID]>([])
  /// Signalled once a `wait` has been cancelled.
  let cancellation = Occurrence()
  let waiting = Mutex<[RPCID]>([])
  let notes = Mutex<[String]>([])

  func handleRequest(_ method: String, params: FlowValue?, id: RPCID, connection: RPCConnection) async throws
    -> FlowValue
  {
    switch method {
    case "echo": return params ?? .nothing
    case "ask": return try await connection.request("question", params: ["text": "name?"])
    case "wait":
      waiting.withLock { $0.append(id) }
      do {
        try await Task.sleep(for: .seconds(60))
      } catch {
        cancelled.withLock { $0.append(id) }
        cancellation.signal()
        throw error
      }
      return .nothing
    default: throw RPCError.methodNotFound(method)
    }
  }

  func handleNotification(_ method: String, params: FlowValue?, connection: RPCConnection) {
    notes.withLock { $0.append(method) }
  }
}

private final class TestClient: RPCHandler {
  let progress = Mutex<[Double]>([])

  func handleRequest(_ method: String, params: FlowValue?, id: RPCID, connection: RPCConnection) async throws
    -> FlowValue
  {
    ["answer": "Ada"]
  }

  func handleNotification(_ method: String, params: FlowValue?, connection: RPCConnection) {
    if case .dictionary(let fields)? = params, case .number(let value)? = fields["progress"] {
      progress.withLock { $0.append(value) }
    }
  }
}

struct RPCMessageTests {
  @Test func requestsKeepKeyOrderAndBooleansOnOneLine() throws {
    let message = RPCMessage.request(
      id: .number(7), method: "tools/call", params: ["name": "a\nb", "arguments": ["z": true, "a": 1]])
    let line = message.encoded()
    #expect(
      line == #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a\nb","arguments":{"z":true,"a":1}}}"#)
    #expect(try RPCMessage.decode(line) == message)
  }

  @Test func idsMayBeStringsAndErrorsCarryTheirCode() throws {
    #expect(
      try RPCMessage.decode(#"{"jsonrpc":"2.0","id":"x-1","error":{"code":-32601,"message":"no"}}"#)
        == .error(id: .string("x-1"), RPCError(code: -32601, message: "no")))
    #expect(try RPCMessage.decode(#"{"jsonrpc":"2.0","method":"n"}"#) == .notification(method: "n", params: nil))
  }

  @Test func refusesWhatIsNotJSONRPC() {
    #expect(throws: RPCMessage.DecodingError.self) { try RPCMessage.decode("Starting server on stdio...") }
    #expect(throws: RPCMessage.DecodingError.self) { try RPCMessage.decode(#"{"id":1,"result":{}}"#) }
    #expect(throws: RPCMessage.DecodingError.self) { try RPCMessage.decode(#"[{"jsonrpc":"2.0","method":"n"}]"#) }
  }

  /// An error's code past Int's range, or not whole, is refused rather than trapped on.
  @Test(arguments: ["1e300", "-9.3e18", "1.5"])
  func refusesAnErrorCodeThatIsNotAnInteger(code: String) {
    let error = #expect(throws: RPCMessage.DecodingError.self) {
      try RPCMessage.decode(#"{"jsonrpc":"2.0","id":1,"error":{"code":\#(code),"message":"no"}}"#)
    }
    #expect(error?.message == "a JSON-RPC error must be an object with an integer code")
  }
}

struct RPCConnectionTests {
  @Test func requestsGetTheirOwnAnswersWhenManyAreInFlight() async throws {
    let pair = PipePair(clientHandler: TestClient(), serverHandler: TestServer())
    try await withThrowingTaskGroup(of: (Int, FlowValue).self) { group in
      for index in 0..<50 {
        group.addTask { (index, try await pair.client.request("echo", params: ["n": .number(Double(index))])) }
      }
      for try await (index, answer) in group { #expect(answer == ["n": .number(Double(index))]) }
    }
    pair.client.close()
    await pair.client.waitUntilFinished()
  }

  @Test func errorsAnswersAndRequestsBackToTheCaller() async throws {
    let pair = PipePair(clientHandler: TestClient(), serverHandler: TestServer())
    await #expect(throws: RPCError.methodNotFound("nope")) { try await pair.client.request("nope") }
    // The server's handler asks the client a question while the client's request waits: elicitation's shape.
    #expect(try await pair.client.request("ask") == ["answer": "Ada"])
    pair.client.close()
  }

  @Test(.timeLimit(.minutes(1))) func cancellingARequestTellsThePeerWhichOne() async throws {
    let server = TestServer()
    let pair = PipePair(clientHandler: TestClient(), serverHandler: server)
    let task = Task { try await pair.client.request("wait", cancelReason: "timed out") }
    // The answer to a later request proves the server has read the first one (the pipe keeps order).
    _ = try await pair.client.request("echo")
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    // Once the server has read the notification, the handler's sleep ends.
    await server.cancellation.wait()
    #expect(server.cancelled.withLock { $0 } == server.waiting.withLock { $0 })
    #expect(server.cancelled.withLock { $0 }.count == 1)
    pair.client.close()
  }

  @Test func notificationsArriveInOrder() async throws {
    let client = TestClient()
    let pair = PipePair(clientHandler: client, serverHandler: TestServer())
    for step in 1...20 {
      pair.server.notify("notifications/progress", params: ["progressToken": 1, "progress": .number(Double(step))])
    }
    _ = try await pair.server.request("anything")  // answered after the client read every notification
    #expect(client.progress.withLock { $0 } == (1...20).map(Double.init))
    pair.client.close()
  }

  @Test func aLineThatIsNotJSONEndsAClientConnectionAndFailsWaitingRequests() async throws {
    let pair = PipePair(clientHandler: TestClient(), serverHandler: TestServer())
    let waiting = Task { try await pair.client.request("wait") }
    _ = try await pair.client.request("echo")
    _ = "Server listening on stdio\n".withCString { write(pair.rawToClient, $0, strlen($0)) }
    await #expect(
      throws: RPCConnection.Closed(
        reason: .invalidLine(line: "Server listening on stdio", problem: "not JSON: unexpected character at offset 0"))
    ) { try await waiting.value }
    await pair.client.waitUntilFinished()
    pair.client.close()
  }
}

/// A wire that keeps what the connection sends, with the request each message belongs to: what a
/// Streamable HTTP wire routes by.
private final class RecordingWire: RPCWire {
  let sent = Mutex<[(message: RPCMessage, relatedTo: RPCID?)]>([])
  /// Signalled when the first message is sent.
  let firstSent = Occurrence()
  /// Signalled when the connection closes its output.
  let closed = Occurrence()
  func start(_ connection: RPCConnection) {}
  func send(_ message: RPCMessage, relatedTo request: RPCID?) -> Bool {
    sent.withLock { $0.append((message, request)) }
    firstSent.signal()
    return true
  }
  func closeOutput() { closed.signal() }
}

struct RPCWireTests {
  @Test(.timeLimit(.minutes(1))) func answersAndWhatIsSentForARequestNameThatRequest() async throws {
    let wire = RecordingWire()
    let connection = RPCConnection(wire: wire, handler: TestServer())
    connection.start()
    connection.receive(.request(id: .number(3), method: "ask", params: nil))
    // The handler's question to the peer goes out related to request 3; answering it lets request 3 end.
    await wire.firstSent.wait()
    let question = wire.sent.withLock { $0.first }?.message
    guard case .request(let questionID, "question", _)? = question else {
      Issue.record("expected a question, got \(String(describing: question))")
      return
    }
    #expect(wire.sent.withLock { $0.first?.relatedTo } == .number(3))
    connection.receive(.response(id: questionID, result: ["answer": "Ada"]))
    connection.finish(.endOfInput)
    await connection.waitUntilAnswered()
    let answer = wire.sent.withLock { $0.last }
    #expect(answer?.message == .response(id: .number(3), result: ["answer": "Ada"]))
    #expect(answer?.relatedTo == .number(3))
    // The peer is gone and its request answered: this side closes its output.
    await wire.closed.wait()
    connection.finish(.closedHere)
    #expect(connection.closeReason == .endOfInput)
  }
}
