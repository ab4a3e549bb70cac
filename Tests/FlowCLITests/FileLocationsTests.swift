import Foundation
import Testing

@testable import FlowCLI
@testable import FlowSession

#if canImport(Glibc)
  import Glibc
#endif

/// Where the file actions resolve `~`: HOME when it is absolute, else the account's home.
struct FileLocationsTests {
  static func home(_ environment: [String: String]) -> String {
    SessionContext(console: BufferConsole(), environment: environment, workingDirectory: "/w").fileLocations.home
  }

  static let account = String(cString: getpwuid(getuid()).pointee.pw_dir)

  @Test func anAbsoluteHOMEIsTheHome() {
    #expect(Self.home(["HOME": "/somewhere/else/"]) == "/somewhere/else")
    #expect(Self.home(["HOME": "/"]) == "/")
  }

  /// The account is asked only when HOME gives no home: unset, empty or relative.
  @Test func otherwiseTheAccountsHome() {
    #expect(Self.home([:]) == Self.account)
    #expect(Self.home(["HOME": ""]) == Self.account)
    #expect(Self.home(["HOME": "relative/home"]) == Self.account)
  }
}
