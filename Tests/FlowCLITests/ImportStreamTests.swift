import FlowTestSupport
import Foundation
import Synchronization
import Testing

/// `flow import -` on the real binary: standard input is read only up to the size limit, so an
/// endless or huge stream is refused without being held in memory.
struct ImportStreamTests {
  @Test func aStreamPastTheLimitIsRefusedWithoutReadingItAll() throws {
    let home = try temporaryDirectory()
    // A socket rather than a pipe: send() with MSG_NOSIGNAL reports the closed end as an error
    // instead of raising SIGPIPE in the test process.
    var ends: [Int32] = [0, 0]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
    let (writer, reader) = (ends[0], ends[1])
    let offered = 64 << 20

    let process = Process()
    process.executableURL = Machine.executable
    process.arguments = ["import", "-", "--yes"]
    process.environment = [
      "NO_COLOR": "1", "HOME": home.path, "PATH": "/usr/bin:/bin",
      "XDG_DATA_HOME": home.appendingPathComponent("data").path,
    ]
    process.standardInput = FileHandle(fileDescriptor: reader, closeOnDealloc: false)
    process.standardOutput = FileHandle.nullDevice
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    close(reader)

    let sent = Mutex(0)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let chunk = [UInt8](repeating: UInt8(ascii: "#"), count: 1 << 16)
      var total = 0
      while total < offered {
        let written = chunk.withUnsafeBytes { send(writer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written <= 0 { break }
        total += written
      }
      close(writer)
      sent.withLock { $0 = total }
      finished.signal()
    }
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()

    #expect(process.terminationStatus == 2)
    #expect(text.contains("-: error: the file is longer than the 4 MiB a workflow file may be"))
    // The limit, the socket's buffers and one chunk; nowhere near the 64 MiB on offer.
    finished.wait()
    #expect(sent.withLock { $0 } < 8 << 20)
    #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("data/flow/workflows").path))
  }
}
