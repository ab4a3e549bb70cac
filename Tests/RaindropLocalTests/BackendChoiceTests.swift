import RaindropModel
import Testing

@Suite("Backend choice")
struct BackendChoiceTests {
  @Test("flag, then config file, then the token rule")
  func rule() {
    #expect(BackendChoice.resolve(flag: .local, configured: .raindrop, tokenConfigured: true) == (.local, .flag))
    #expect(BackendChoice.resolve(flag: nil, configured: .local, tokenConfigured: true) == (.local, .configFile))
    #expect(BackendChoice.resolve(flag: nil, configured: nil, tokenConfigured: true) == (.raindrop, .tokenConfigured))
    #expect(BackendChoice.resolve(flag: nil, configured: nil, tokenConfigured: false) == (.local, .noToken))
    #expect(BackendChoice.describe(.local, .noToken) == "backend: local (no Raindrop.io token configured)")
  }
}
