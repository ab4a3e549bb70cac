import FlowDiagnostics
import FoundationEssentials
import Glibc
import Synchronization

/// MCP's stdio transport: one JSON-RPC message per line over a pair of file descriptors.
///
/// Reading happens on a dedicated thread with blocking `read(2)`: flow has no event loop to share, and
/// a thread costs nothing at start-up for runs that never open a connection.
public final class PipeWire: RPCWire {
  private let input: Int32
  private let output: Int32
  private let invalidLines: RPCConnection.InvalidLinePolicy
  /// Whether `output` is still open; held while writing, so a close never lands inside a line.
  private let writeLock = Mutex(true)

  /// A wire reading `input` and writing `output`; it owns both and closes them.
  public init(input: Int32, output: Int32, invalidLines: RPCConnection.InvalidLinePolicy = .close) {
    self.input = input
    self.output = output
    self.invalidLines = invalidLines
  }

  /// Starts the reader thread. Writing to a peer that is gone must be an error, not SIGPIPE's exit.
  public func start(_ connection: RPCConnection) {
    signal(SIGPIPE, SIG_IGN)
    DetachedThread.run { [self] in readLoop(connection) }
  }

  /// Writes one message as one line; whole lines from concurrent senders never interleave.
  public func send(_ message: RPCMessage, relatedTo request: RPCID?) -> Bool {
    let line = message.encoded()
    return writeLock.withLock { open in open && LineWriter.write(line, to: output) }
  }

  public func closeOutput() {
    writeLock.withLock { open in
      if open { _ = Glibc.close(output) }
      open = false
    }
  }

  private func readLoop(_ connection: RPCConnection) {
    var reader = LineReader(descriptor: input)
    var reason = RPCConnection.CloseReason.endOfInput
    reading: while true {
      switch reader.next() {
      case .end: break reading
      case .tooLong:
        if invalidLines == .close {
          reason = .invalidLine(line: "", problem: "a line longer than \(reader.maximumLine) bytes")
          break reading
        }
        _ = send(.error(id: nil, RPCError(code: RPCError.parseError, message: "Message too long")), relatedTo: nil)
      case .line(let line):
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
        let message: RPCMessage
        do {
          message = try RPCMessage.decode(line)
        } catch {
          if invalidLines == .close {
            reason = .invalidLine(line: line, problem: error.message)
            break reading
          }
          _ = send(
            .error(id: nil, RPCError(code: RPCError.parseError, message: "Parse error: \(error.message)")),
            relatedTo: nil)
          continue
        }
        connection.receive(message)
      }
    }
    _ = Glibc.close(input)
    connection.finish(reason)
  }
}
