import FlowSharing
import FlowTestSupport
import Foundation
import Testing

@testable import FlowFuzzing

/// The fuzzing harness in the normal test run: every input that once crashed a target is run through the
/// same function libFuzzer calls, and every target takes its seeds.
struct FuzzRegressionTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
    .standardizedFileURL
  static let regressions = root.appendingPathComponent("Tests/FuzzRegressions")

  static func names(in folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test(arguments: FuzzTarget.allCases)
  func regressionsRunWithoutACrash(target: FuzzTarget) async throws {
    let folder = Self.regressions.appendingPathComponent(target.rawValue)
    for name in Self.names(in: folder) {
      await target.check(try [UInt8](Data(contentsOf: folder.appendingPathComponent(name))))
    }
  }

  /// Moved or renamed, the folder would make the test above run nothing and pass.
  @Test func theRegressionsAreFound() throws {
    let folders = try listing(of: Self.regressions) { FuzzTarget(rawValue: $0) != nil }
    #expect(folders.contains { !Self.names(in: Self.regressions.appendingPathComponent($0)).isEmpty })
  }

  /// A folder with a misspelt name would hold regressions that never run.
  @Test func everyRegressionFolderNamesATarget() {
    let folders = Self.names(in: Self.regressions).filter { $0 != "README.md" }
    #expect(Set(folders).isSubset(of: Set(FuzzTarget.allCases.map(\.rawValue) + ["pending"])), "\(folders)")
  }

  @Test(arguments: FuzzTarget.allCases)
  func seedsRunWithoutACrash(target: FuzzTarget) async {
    let seeds = Seeds.inputs(for: target, root: Self.root)
    #expect(seeds.count >= 10)
    for seed in seeds { await target.check(seed) }
  }

  /// The seeds are what the targets take: the expression of a `calculate` step with its `${…}` filled
  /// in, the cron of a `schedule:`, a file signed by the key the signature target trusts.
  @Test func seedsAreDrawnFromTheProjectsFiles() {
    let calculate = Seeds.inputs(for: .calculate, root: Self.root).map { String(decoding: $0, as: UTF8.self) }
    #expect(calculate.contains("3 * 1.5"))
    let cron = Seeds.inputs(for: .cron, root: Self.root).map { String(decoding: $0, as: UTF8.self) }
    #expect(cron.contains("0 9 * * *"))
    let signed = Seeds.inputs(for: .signature, root: Self.root)[0]
    #expect(SignedFile.verify(signed, trustedName: { _ in "seeds" }).status == .trusted(name: "seeds"))
  }

  @Test func fillInReplacesEveryReference() {
    #expect(Seeds.fillIn("${a} + ${b.c} * 2") == "3 + 3 * 2")
    #expect(Seeds.fillIn("${open") == "${open")
  }
}

/// The card's soundness property (issue 28) in the normal test run: workflows generated from seeded
/// bytes, each analysed and then run for real in a sandbox, held to its card. The harness runs the same
/// target under libFuzzer for millions of inputs; here a fixed few hundred keep it in CI.
struct CardPropertyTests {
  @Test func whatARunDoesIsAlwaysOnItsCard() async {
    let random = SeededRandomSource(seed: 28)
    for _ in 0..<300 {
      let bytes = (0..<64).map { _ in UInt8(random.index(below: 256)) }
      await CardTarget.check(bytes)
    }
  }

  /// The generator makes workflows that check, so the property is tested on runs, not on refusals.
  @Test func theGeneratedWorkflowsAreMostlyValid() {
    let random = SeededRandomSource(seed: 7)
    let valid = (0..<100).filter { _ in
      CardTarget.generatesValidWorkflow((0..<64).map { _ in UInt8(random.index(below: 256)) })
    }.count
    #expect(valid >= 60, "only \(valid) of 100 generated workflows check")
  }
}
