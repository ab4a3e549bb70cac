import FlowHTTP
import FlowIntents
import FoundationEssentials
import Synchronization

extension IntentContext {
  /// The run's services, each held to `contract` where its effect happens: a file, the Trash, a command,
  /// a request, the clipboard, a notification, a URL opened. What the card's analysis missed fails its
  /// step with "… not on the card" (``CapabilitySet/refusal(_:)``) instead of acting.
  public func holding(to contract: CapabilitySet) -> IntentContext {
    contract.everything ? self : holding(to: CardContract(contract))
  }

  /// The run's services, held to `contract`, whose set is worked out when the first effect is checked.
  public func holding(to contract: CardContract) -> IntentContext {
    var held = self
    // The contract itself, for the layers that check it in place: MCP servers' tools.
    held.dependencies.register(contract)
    held.dependencies.replace((any Files).self) { ContractFiles(base: $0, contract: contract) }
    held.dependencies.replace((any CommandRunner).self) { ContractCommandRunner(base: $0, contract: contract) }
    held.dependencies.replace((any HTTPTransport).self) { ContractTransport(base: $0, contract: contract) }
    held.dependencies.replace((any ClipboardService).self) { ContractClipboard(base: $0, contract: contract) }
    held.dependencies.replace((any NotificationService).self) { ContractNotifications(base: $0, contract: contract) }
    held.dependencies.replace((any URLLauncher).self) { ContractLauncher(base: $0, contract: contract) }
    return held
  }
}

/// The file actions' files, held to the card: each path is checked before it is touched.
struct ContractFiles: Files {
  let base: any Files
  let contract: CardContract
  /// What this run wrote where the card let it, under the name the write chose (`keep-both` numbers
  /// it: `notes 2.txt`): the run may look at and read back what it made.
  private let made = Made()

  init(base: any Files, contract: CardContract) {
    self.base = base
    self.contract = contract
  }

  private final class Made: Sendable {
    let paths = Mutex(Set<String>())
  }

  var locations: FileLocations { base.locations }

  private func check(_ kind: MachineAccess.Kind, _ path: String, or others: [MachineAccess.Kind] = []) throws {
    let absolute = locations.absolute(path)
    let set = contract.set
    for kind in [kind] + others where set.allows(kind, path: absolute, resolve: locations.absolute) { return }
    if kind == .readsFiles, made.paths.withLock({ $0.contains(absolute) }) { return }
    throw CapabilitySet.refusal("\(kind.words.acting) '\(locations.display(absolute))'")
  }

  private func remember(_ path: String) -> String {
    let absolute = locations.absolute(path)
    made.paths.withLock { _ = $0.insert(absolute) }
    return path
  }

  /// Looking at a file's name, size and dates is allowed wherever the card lets the run act on it.
  private static let looking: [MachineAccess.Kind] = [
    .writesFiles, .replacesFiles, .trashesFiles, .deletesFiles,
  ]

  func item(at path: String) throws -> FileEntity {
    try check(.readsFiles, path, or: Self.looking)
    return try base.item(at: path)
  }

  func matching(_ pattern: String) throws -> [FileEntity] {
    let found = try base.matching(pattern)
    // The glob is read before its matches are known; each match is then checked, so that a glob the
    // card does not name finds nothing it may pass on.
    for file in found { try check(.readsFiles, file.path, or: Self.looking) }
    return found
  }

  func contents(of folder: String, recursive: Bool, hidden: Bool, pattern: String?) throws -> [FileEntity] {
    try check(.readsFiles, folder, or: Self.looking)
    return try base.contents(of: folder, recursive: recursive, hidden: hidden, pattern: pattern)
  }

  func read(_ path: String, limit: Int) throws -> [UInt8] {
    try check(.readsFiles, path)
    return try base.read(path, limit: limit)
  }

  func write(_ bytes: [UInt8], to path: String, ifExists: IfExists, createFolders: Bool) throws -> String {
    try check(ifExists == .replace ? .replacesFiles : .writesFiles, path)
    return remember(try base.write(bytes, to: path, ifExists: ifExists, createFolders: createFolders))
  }

  func endsWithNewline(_ path: String) -> Bool { base.endsWithNewline(path) }

  func transfer(_ source: String, to destination: String, move: Bool, ifExists: IfExists) throws -> String {
    try check(move ? .writesFiles : .readsFiles, source)
    try check(ifExists == .replace ? .replacesFiles : .writesFiles, destination)
    return remember(try base.transfer(source, to: destination, move: move, ifExists: ifExists))
  }

  func createFolder(_ path: String, intermediate: Bool) throws -> String {
    try check(.writesFiles, path)
    return remember(try base.createFolder(path, intermediate: intermediate))
  }

  func trash(_ path: String, at date: Date) throws -> String {
    try check(.trashesFiles, path)
    return try base.trash(path, at: date)
  }

  func delete(_ path: String) throws {
    try check(.deletesFiles, path)
    try base.delete(path)
  }
}

/// `run-shell`'s commands, held to the card: the program and its script, or its words.
struct ContractCommandRunner: CommandRunner {
  let base: any CommandRunner
  let contract: CardContract

  var home: String? { base.home }
  var outputLimit: Int { base.outputLimit }

  func run(_ command: CommandRequest) async throws -> CommandResult {
    let script: String? =
      if let bytes = command.script {
        String(decoding: bytes, as: UTF8.self)
      } else if command.arguments.first == "-c", command.arguments.count > 1 {
        command.arguments[1]
      } else {
        nil
      }
    let program = command.name.map(expand) ?? command.executable
    guard contract.set.allows(program: program, arguments: command.arguments, script: script, expand: expand) else {
      throw CapabilitySet.refusal(
        "runs '\(command.name ?? command.executable)'\(script == nil ? "" : " with a script")")
    }
    return try await base.run(command)
  }

  private func expand(_ word: String) -> String { RunShellIntent.expandingHome(word, home: home) }
}

/// `get-url`'s requests, held to the card: the host, and whether data may go to it.
struct ContractTransport: HTTPTransport {
  let base: any HTTPTransport
  let contract: CardContract

  func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
    let carriesData = !(request.body?.isEmpty ?? true) || !request.headers.isEmpty
    guard contract.set.allows(url: request.url, carriesData: carriesData) else {
      let host = NetworkAccess.destination(of: request.url) ?? request.url.absoluteString
      let effect = contract.set.allows(url: request.url, carriesData: false) ? "sends data to" : "contacts"
      throw .other(CapabilitySet.refusal("\(effect) '\(host)'").message)
    }
    return try await base.send(request)
  }
}

struct ContractClipboard: ClipboardService {
  let base: any ClipboardService
  let contract: CardContract

  func text() async throws -> String {
    guard contract.set.allows(.readsClipboard) else {
      throw CapabilitySet.refusal(MachineAccess.Kind.readsClipboard.words.acting)
    }
    return try await base.text()
  }

  func copy(_ text: String) async throws {
    guard contract.set.allows(.writesClipboard) else {
      throw CapabilitySet.refusal(MachineAccess.Kind.writesClipboard.words.acting)
    }
    try await base.copy(text)
  }
}

struct ContractNotifications: NotificationService {
  let base: any NotificationService
  let contract: CardContract

  func show(_ request: NotificationRequest) async throws -> NotificationOutcome {
    guard contract.set.allows(.showsNotifications) else {
      throw CapabilitySet.refusal(MachineAccess.Kind.showsNotifications.words.acting)
    }
    return try await base.show(request)
  }
}

/// `open-url`, held to the card: the host (or a `mailto:` URL's recipients) the URL goes to.
struct ContractLauncher: URLLauncher {
  let base: any URLLauncher
  let contract: CardContract

  func open(_ url: URL) async throws {
    guard contract.set.allows(url: url, carriesData: false) else {
      throw CapabilitySet.refusal("opens '\(NetworkAccess.destination(of: url) ?? url.absoluteString)'")
    }
    try await base.open(url)
  }
}
