import FlowLibrary
import Foundation
import Testing

/// The XDG directories, as the Base Directory specification defines them.
struct FlowPathsTests {
  @Test func defaultsUnderHome() {
    let paths = FlowPaths(environment: ["HOME": "/home/ada"])
    #expect(paths.config.path == "/home/ada/.config/flow")
    #expect(paths.data.path == "/home/ada/.local/share/flow")
    #expect(paths.state.path == "/home/ada/.local/state/flow")
    #expect(paths.workflows.path == "/home/ada/.local/share/flow/workflows")
    #expect(paths.history.path == "/home/ada/.local/state/flow/history.sqlite")
    #expect(paths.locks.path == "/home/ada/.local/state/flow/locks")
    #expect(paths.configFile.path == "/home/ada/.config/flow/config.yml")
    #expect(paths.tokenFile.path == "/home/ada/.config/flow/raindrop-token")
  }

  @Test func variablesWinWhenAbsolute() {
    let paths = FlowPaths(environment: [
      "HOME": "/home/ada", "XDG_CONFIG_HOME": "/etc/ada", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/var/state",
    ])
    #expect(paths.config.path == "/etc/ada/flow")
    #expect(paths.data.path == "/data/flow")
    #expect(paths.state.path == "/var/state/flow")
  }

  /// "If an implementation encounters a relative path in any of these variables it should consider the
  /// path invalid and ignore it"; empty counts as unset.
  @Test func emptyAndRelativeVariablesAreIgnored() {
    let paths = FlowPaths(environment: [
      "HOME": "/home/ada", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "relative/data", "XDG_STATE_HOME": "~/state",
    ])
    #expect(paths.config.path == "/home/ada/.config/flow")
    #expect(paths.data.path == "/home/ada/.local/share/flow")
    #expect(paths.state.path == "/home/ada/.local/state/flow")
  }

  @Test func withoutHomeTheFallbackIsUsed() {
    let paths = FlowPaths(environment: ["HOME": "not/absolute"], fallbackHome: "/tmp/x")
    #expect(paths.state.path == "/tmp/x/.local/state/flow")
  }
}
