import FlowCLI
import FlowTestSupport
import Foundation
import RaindropLocal
import RaindropStubServer
import Testing

/// `flow auth`: a token is checked with `GET /user` before it is saved, and "refused" is told apart from
/// "could not check" (the loopback stand-in speaks Raindrop's protocol; port 1 on loopback answers nothing).
struct AuthCommandTests {
  /// `flow auth …` with `line` on standard input, and the transcript with the temporary home as `$HOME`.
  static func auth(_ arguments: [String], line: String? = nil, machine: Machine) async -> (
    status: Int32, transcript: String
  ) {
    let result = await Machine.run(
      ["auth"] + arguments, in: machine.home, environment: machine.environment, lines: line.map { [$0] } ?? [])
    let text = "$ flow auth \(arguments.joined(separator: " "))\n" + transcript(result) + "\n"
    return (result.status, text.replacingOccurrences(of: machine.home.path, with: "$HOME"))
  }

  @Test func loginChecksTheTokenBeforeSavingIt() async throws {
    var machine = try RaindropWorkflowTests.machine()
    let server = try RaindropStubServer(
      store: try LocalBackend(directory: machine.home.appendingPathComponent("server")))
    let url = try await server.start()
    machine.environment["RAINDROP_API_URL"] = url.absoluteString
    let tokenFile = machine.home.appendingPathComponent("config/flow/raindrop-token").path
    var transcripts = ""

    let refused = await Self.auth(["login"], line: "wrong-token", machine: machine)
    #expect(refused.status == 5)
    #expect(!FileManager.default.fileExists(atPath: tokenFile))
    transcripts += refused.transcript

    let accepted = await Self.auth(["login"], line: "test-token", machine: machine)
    #expect(accepted.status == 0)
    #expect(try String(contentsOfFile: tokenFile, encoding: .utf8) == "test-token\n")
    transcripts += accepted.transcript
    await server.stop()

    #expect(!transcripts.contains("test-token") && !transcripts.contains("wrong-token"))
    assertGolden(transcripts, named: "auth/login-checked.txt")
    #expect(await server.requestCounts["GET /user"] == 2)
  }

  /// Offline, nothing is saved unless `--no-check` says so, and `status` says it could not check the
  /// token, not that the token does not work.
  @Test func offlineIsNotARefusal() async throws {
    var machine = try RaindropWorkflowTests.machine()
    machine.environment["RAINDROP_API_URL"] = "http://127.0.0.1:1/rest/v1"
    let tokenFile = machine.home.appendingPathComponent("config/flow/raindrop-token").path
    var transcripts = ""

    let unchecked = await Self.auth(["login"], line: "some-token", machine: machine)
    #expect(unchecked.status == 5)
    #expect(!FileManager.default.fileExists(atPath: tokenFile))
    transcripts += unchecked.transcript

    let saved = await Self.auth(["login", "--no-check"], line: "some-token", machine: machine)
    #expect(saved.status == 0)
    #expect(FileManager.default.fileExists(atPath: tokenFile))
    transcripts += saved.transcript

    let status = await Self.auth(["status"], machine: machine)
    #expect(status.status == 5)
    #expect(status.transcript.contains("could not check the token"))
    #expect(!status.transcript.contains("does not work"))
    transcripts += status.transcript
    assertGolden(transcripts, named: "auth/offline.txt")
  }
}
