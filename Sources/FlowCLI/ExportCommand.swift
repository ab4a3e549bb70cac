import ArgumentParser
import FlowDiagnostics
import FlowLibrary
import FlowModel
import FlowPresentation
import FlowRuntime
import FlowSession
import FlowSharing
import FlowSystem
import FoundationEssentials

/// `flow export WORKFLOW`: one self-contained file to share, optionally signed, or its share page.
struct ExportCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a workflow as one self-contained file to share, or as a share page.",
    discussion: """
      WORKFLOW is a path or a name, as for 'flow run'. The file keeps the workflow as written (comments \
      and all), adds a 'shared:' block (created, modified, actions, flow version) and embeds every \
      workflow it runs under 'workflows:', so that it runs anywhere. It is checked like 'flow validate' \
      first, and refused when a value looks like a credential (a token, a password, an Authorization \
      header, a long random string): read those from the environment, or pass --allow-secret with the \
      path the message gives when it is no secret. Defaults of inputs marked 'secret: true' are left out. \
      --sign signs the file with your key (made on first use; see 'flow keys'). --html writes a page that \
      shows the workflow and offers the file for download. Without -o the result goes to standard output.
      """
  )

  @Argument(help: "The workflow: a path or a name.", completion: Completions.workflow)
  var workflow: String

  @Option(
    name: [.short, .customLong("output")],
    help: ArgumentHelp("Write to FILE (by convention NAME.flow.yml, or .html).", valueName: "FILE"))
  var output: String?

  @Flag(help: "Sign the file with your Ed25519 key.")
  var sign = false

  @Option(
    name: .customLong("key"), help: ArgumentHelp("The signing key to use, when you have several.", valueName: "NAME"))
  var keyName: String?

  @Option(
    name: .customLong("allow-secret"),
    help: ArgumentHelp(
      "Let the value at PATH through the secrets check (the path a refusal prints), repeatable.", valueName: "PATH"))
  var allowSecret: [String] = []

  @Flag(help: "Write the share page: one self-contained HTML file.")
  var html = false

  func run() async throws {
    // Until it writes, export holds nothing to finish: Ctrl-C and SIGTERM end it at once.
    try Interrupts.endingAtOnce { try export() }
  }

  /// The places the files hold a value of one of the keyring's secrets (the Raindrop token among them),
  /// asked only when there is a keyring to ask, or when the workflow reads secrets (then a keyring that
  /// cannot be asked is a warning: the check did not happen).
  static func exposedSecrets(
    _ root: Workflow, children: [(reference: String, workflow: Workflow)], context: SessionContext
  ) -> Diagnostics {
    let workflows = [root] + children.map(\.workflow)
    let store = SecretStore(context: context)
    var values: [String: String] = [:]
    if let (token, _) = Backends(context: context).token() { values[Backends.tokenSecret] = token }
    let declared = workflows.flatMap { $0.secrets.map(\.value) }
    do throws(Diagnostic) {
      let names = Set(try store.names() + declared)
      values.merge(try store.read(Array(names)).values) { $1 }
    } catch {
      if !declared.isEmpty {
        return Diagnostics([
          Diagnostic(
            .warning, error.code, "could not check the file for the values of its secrets: \(error.message)",
            file: nil)
        ])
      }
    }
    var found: [Diagnostic] = []
    var seen: Set<String> = []
    for workflow in workflows where seen.insert(workflow.file.path).inserted {
      found += SecretStore.exposures(of: values, in: workflow.file)
    }
    return Diagnostics(found)
  }

  private func export() throws {
    let context = SessionContext.current
    let locator = WorkflowLocator(context: context)
    let check = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let (loaded, diagnostics) = locator.check(workflow, with: check)
    guard let root = loaded, !diagnostics.hasErrors else {
      context.report(diagnostics)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    let children = Sharing.tree(of: root, check: check)

    // No secrets leave the machine.
    var problems = Diagnostics(diagnostics.filter { $0.severity != .error })
    // The values of the keyring's secrets first: a value found there is said to be one, not guessed.
    let exposed = Self.exposedSecrets(root, children: children, context: context)
    problems.append(contentsOf: exposed)
    let findings = Sharing.secrets(in: root, children: children, allowed: Set(allowSecret)).filter { finding in
      !exposed.all.contains { $0.code == .secretExposed && $0.span?.start.line == finding.span.start.line }
    }
    if !findings.isEmpty || exposed.hasErrors {
      problems.append(contentsOf: SecretScanner.diagnostics(findings))
      context.report(problems)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    problems.append(contentsOf: Self.computedReferences(root, children: children))

    let now = context.clock.now
    let created = root.shared?.created?.value ?? SharedTime.format(now)
    let newest = ([root] + children.map(\.workflow)).compactMap { workflow -> Date? in
      let attributes = try? FileManager.default.attributesOfItem(atPath: context.url(for: workflow.file.path).path)
      return attributes?[.modificationDate] as? Date
    }.max()
    let modified = max(created, newest.map(SharedTime.format) ?? created)
    let shared = Exporter.Shared(
      created: created, modified: modified, actions: root.actionCount, flowVersion: Sharing.flowVersion)
    var bytes: [UInt8]
    switch Exporter.export(Exporter.Tree(root: root, children: children), shared: shared) {
    case .success(let exported): bytes = exported
    case .failure(let error):
      problems.append(contentsOf: error.diagnostics)
      context.report(problems)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }

    // The file as written must read back as the same workflow tree, on its own.
    let name = Self.fileName(for: root, source: workflow)
    let exported = SourceFile(path: output ?? name, bytes: bytes)
    let verify = WorkflowCheck(registry: Catalogs.registry, files: locator)
    let (reread, rereadProblems) = verify.check(exported)
    // What is a warning in a person's own file (a value pasted into a script) is an error in a shared
    // one: then the file is the person's to fix, not a fault of the export.
    let warned = Set(problems.all.filter { $0.severity == .warning }.map(\.code))
    let errors = rereadProblems.all.filter { $0.severity == .error }
    if !errors.isEmpty, errors.allSatisfy({ warned.contains($0.code) }) {
      context.report(
        Diagnostics(
          [
            Diagnostic(
              .error, .exportConflict,
              "'\(root.name)' cannot be shared as it is: what is a warning in your own file is an error in a shared one",
              file: root.file.path
            ).help("fix the warnings below in the workflow, then export it again; nothing was written")
          ] + problems.all.filter { $0.severity == .warning && errors.map(\.code).contains($0.code) }))
      throw ExitCode(ExitStatus.invalid.rawValue)
    }
    guard let reread, !rereadProblems.hasErrors else {
      problems.append(
        Diagnostic(.error, .exportConflict, "the exported file does not read back as the workflow", file: exported.path)
          .help("this is a bug in flow export; the problems below say where"))
      problems.append(contentsOf: rereadProblems)
      context.report(problems)
      throw ExitCode(ExitStatus.invalid.rawValue)
    }

    var signer: SharePage.Signer?
    if sign {
      let (key, keyName) = try Interrupts.finishing { try signingKey(context) }
      bytes = SignedFile.sign(bytes, with: key)
      signer = SharePage.Signer(name: keyName, fingerprint: key.publicKey.fingerprint)
    }
    if !problems.isEmpty { context.report(problems) }

    let result: [UInt8]
    if html {
      let outline = OutlineBuilder(registry: Catalogs.registry, loader: verify).outline(
        of: reread,
        provenance: Provenance(
          created: SharedTime.parse(created), modified: SharedTime.parse(modified),
          signature: signer.map { .trusted(name: $0.name) } ?? .unsigned),
        now: now)
      result = Array(SharePage.html(outline, file: bytes, fileName: name, signer: signer).utf8)
    } else {
      result = bytes
    }
    guard let output else {
      context.console.write(String(decoding: result, as: UTF8.self), to: .output)
      return
    }
    do {
      try Interrupts.finishing { try Data(result).write(to: context.url(for: output), options: .atomic) }
    } catch {
      throw Library.fail(
        Diagnostic(.error, .cannotWrite, "cannot write the export: \(error.reason)", file: output),
        context)
    }
    let embedded = Set(children.map(\.reference)).count
    var summary = "exported '\(root.name)' (\(root.actionCount) action\(root.actionCount == 1 ? "" : "s")"
    if embedded > 0 { summary += ", \(embedded) workflow\(embedded == 1 ? "" : "s") embedded" }
    summary += signer.map { ", signed by \($0.name)" } ?? ", unsigned"
    summary += html ? ") as a share page to \(output)" : ") to \(output)"
    context.console.write(summary + "\n", to: .error)
    if !html { context.console.write("import it with: flow import \(output)\n", to: .error) }
  }

  /// The key `--sign` uses: the one named, the only one there is, or a new one on first use.
  private func signingKey(_ context: SessionContext) throws -> (SigningKey, String) {
    let store = Sharing.keyStore(context)
    do {
      if let keyName { return (try store.signingKey(named: keyName), keyName) }
      let own = store.ownKeys()
      switch own.count {
      case 0:
        let name = Sharing.defaultKeyName(context)
        let made = try store.generate(name: name)
        context.console.write(
          "made your signing key '\(name)' (\(made.publicKey.fingerprint)) in \(made.file.path); "
            + "'flow keys export' prints its public half for others to trust\n", to: .error)
        return (try store.signingKey(named: name), name)
      case 1:
        return (try store.signingKey(named: own[0].name), own[0].name)
      default:
        throw Library.fail(
          Diagnostic(.error, .keyProblem, "you have several signing keys", at: nil)
            .help("choose one with --key: \(own.map(\.name).joined(separator: ", "))"), context)
      }
    } catch let problem as KeyStore.Problem {
      throw Sharing.fail(problem, context)
    }
  }

  /// Warnings for workflows chosen at run time: they cannot travel with the file.
  private static func computedReferences(_ root: Workflow, children: [(reference: String, workflow: Workflow)])
    -> [Diagnostic]
  {
    var warnings: [Diagnostic] = []
    for workflow in [root] + children.map(\.workflow) {
      StepWalk.walk(workflow) { visit in
        guard case .runWorkflow(let value, _) = visit.step.kind, visit.step.literalWorkflowReference == nil else {
          return
        }
        warnings.append(
          Diagnostic(
            .warning, .exportConflict, "the workflow this step runs is chosen at run time, so it is not embedded",
            at: value.span
          ).help("whoever imports the file needs it in their library; the import card says so"))
      }
    }
    return warnings
  }

  /// What the shared file is called: the library name or the file's, with `.flow.yml`.
  static func fileName(for workflow: Workflow, source: String) -> String {
    let stem = URL(fileURLWithPath: workflow.file.path).deletingPathExtension().lastPathComponent
    let base = stem.hasSuffix(".flow") ? String(stem.dropLast(5)) : stem
    return (WorkflowName.isValidName(base) ? base : Sharing.libraryName(for: workflow.name) ?? "workflow") + ".flow.yml"
  }
}
