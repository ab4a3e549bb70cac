import FlowCLI
import FlowPresentation
import FlowTestSupport
import Foundation
import Testing

/// `flow schema`: the committed copy is current, and check-jsonschema (the reference validator, from
/// PyPI) accepts every real workflow and rejects every file `flow validate` rejects in the corpus.
struct SchemaCommandTests {
  static let committed = DocumentationTests.root.appendingPathComponent("Documentation/flow.schema.json")
  static let corpus = testDirectory().appendingPathComponent("SchemaCorpus")

  @Test func committedCopyIsCurrent() async throws {
    let result = await Machine.run(["schema"], in: DocumentationTests.root)
    #expect(result.status == 0)
    let committed = try String(contentsOf: Self.committed, encoding: .utf8)
    #expect(
      result.output == committed,
      "Documentation/flow.schema.json is stale: run 'swift run flow schema -o Documentation/flow.schema.json'")
  }

  @Test func writesTheFileOrSaysWhyNot() async throws {
    let directory = try temporaryDirectory()
    let written = await Machine.run(["schema", "-o", "out.json"], in: directory)
    #expect(written.status == 0)
    #expect(written.output == "")
    #expect(
      try String(contentsOf: directory.appendingPathComponent("out.json"), encoding: .utf8)
        == (await Machine.run(["schema"], in: directory)).output)
    let failed = await Machine.run(["schema", "-o", "missing/folder/out.json"], in: directory)
    #expect(failed.status == 2)
    #expect(failed.error.contains("error: cannot write the schema"))
  }

  /// One run of check-jsonschema over everything: the gallery, the examples, the hostile files and a new
  /// skeleton pass; each file of the corpus fails, and `flow validate` rejects each of them too.
  @Test func checkJSONSchemaAgreesWithValidate() async throws {
    let schema = try temporaryDirectory().appendingPathComponent("flow.schema.json")
    #expect(await Machine.run(["schema", "-o", schema.path], in: DocumentationTests.root).status == 0)
    let skeleton = schema.deletingLastPathComponent().appendingPathComponent("skeleton.yml")
    try WorkflowSkeleton.text(name: "new-one").write(to: skeleton, atomically: true, encoding: .utf8)
    let root = DocumentationTests.root
    let good =
      try listing(of: root.appendingPathComponent("examples")).map { "examples/\($0)" }
      + listing(of: root.appendingPathComponent("workflows")).map { "workflows/\($0)" }
      + listing(of: testDirectory().appendingPathComponent("Hostile")).map {
        "Tests/FlowCLITests/Hostile/\($0)"
      } + [skeleton.path]
    let bad = try listing(of: Self.corpus).map { "Tests/FlowCLITests/SchemaCorpus/\($0)" }
    #expect(good.count >= 22)
    #expect(bad.count >= 15)
    let report = try checkJSONSchema(schema: schema.path, files: good + bad, in: root)
    let failing = Set(report)
    #expect(failing == Set(bad), "check-jsonschema disagrees: \(failing.symmetricDifference(bad).sorted())")
    for file in bad {
      #expect(await Machine.run(["validate", file], in: root).status == 2, "\(file) is valid to 'flow validate'")
    }
  }

  /// The files check-jsonschema rejects, from its JSON report.
  private func checkJSONSchema(schema: String, files: [String], in directory: URL) throws -> [String] {
    let tool = ReferenceTool("check-jsonschema", install: "Scripts/setup.sh (pip install check-jsonschema)")
    let run = try #require(
      try tool.run(["--schemafile", schema, "--output-format", "json"] + files, in: directory))
    let data = Data(run.output.utf8)
    let report = try #require(
      try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(run.output)\(run.error)")
    #expect((report["parse_errors"] as? [Any])?.isEmpty == true)
    return ((report["errors"] as? [[String: Any]]) ?? []).compactMap { $0["filename"] as? String }
  }
}
