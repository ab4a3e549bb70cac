import Foundation
import Testing

/// The dependency graph is written once, in Package.swift's targets: these tests hold the code and the
/// map in Architecture.md to it.
struct PackageGraphTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
    .standardizedFileURL

  /// Modules every target may import without declaring them: the toolchain's.
  static let toolchain: Set<String> = [
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking", "_FoundationICU",
    "Glibc", "Synchronization", "Dispatch", "Testing",
    "XCTest", "_Concurrency", "PackageDescription", "Swift",
  ]

  @Test func everyModuleImportsOnlyWhatItDeclares() throws {
    let targets = try PackageManifest.read(Self.root.appendingPathComponent("Package.swift"))
    #expect(targets.count > 30, "Package.swift's targets were not read")
    var checked = 0
    for target in targets where target.kind != .systemLibrary {
      let folder = Self.root.appendingPathComponent(target.path)
      let files = try Self.swiftFiles(in: folder)
      #expect(!files.isEmpty || target.kind == .cTarget, "\(target.name) has no Swift files at \(target.path)")
      for file in files {
        for module in try Self.imports(of: file) where module != target.name && !Self.toolchain.contains(module) {
          checked += 1
          #expect(
            target.dependencies.contains(module),
            "\(target.name) imports \(module) in \(file.lastPathComponent) without declaring it in Package.swift")
        }
      }
    }
    #expect(checked > 300, "too few imports were checked: \(checked)")
  }

  /// The modules `flow` links import FoundationEssentials, never Foundation, whose one import would link
  /// swift-corelibs-foundation (2.3 MB, and CoreFoundation's 1.9 MB with a constructor run at every start)
  /// back into the binary (Architecture.md; `Scripts/check-size.sh` checks the binary itself).
  @Test func theModulesFlowLinksImportFoundationEssentials() throws {
    let targets = try PackageManifest.read(Self.root.appendingPathComponent("Package.swift"))
    let byName = Dictionary(targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    // The executable's targets, its dependencies and theirs.
    var linked: Set<String> = []
    var pending = ["flow"]
    while let name = pending.popLast() {
      guard linked.insert(name).inserted, let target = byName[name] else { continue }
      pending += target.dependencies
    }
    #expect(linked.contains("FlowCLI") && linked.contains("RaindropModel"), "flow's targets were not followed")
    var found: Set<String> = []
    for name in linked {
      guard let target = byName[name], target.kind != .systemLibrary else { continue }
      for file in try Self.swiftFiles(in: Self.root.appendingPathComponent(target.path))
      where try Self.imports(of: file).contains("Foundation") {
        let start = file.path.range(of: target.path + "/")?.lowerBound ?? file.path.startIndex
        found.insert(String(file.path[start...]))
      }
    }
    #expect(found.isEmpty, "import Foundation: \(found.sorted())")
  }

  /// What crosses modules is `public`, never `package`: Swift's default cross-module optimisation inlines and
  /// specialises only `public` declarations (package CMO needs library evolution), and `package` made a
  /// one-step run 40% longer (1.99 M → 2.80 M instructions, Performance.md).
  @Test func noDeclarationIsPackage() throws {
    let targets = try PackageManifest.read(Self.root.appendingPathComponent("Package.swift"))
    var read = 0
    for target in targets where target.kind != .systemLibrary {
      for file in try Self.swiftFiles(in: Self.root.appendingPathComponent(target.path)) {
        read += 1
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        for (number, line) in lines.enumerated() where Self.isPackage(line) {
          Issue.record("\(file.lastPathComponent):\(number + 1) is package: \(line)")
        }
      }
    }
    #expect(read > 300, "too few files were read: \(read)")
  }

  @Test func architectureMapDrawsPackageSwift() throws {
    let targets = try PackageManifest.read(Self.root.appendingPathComponent("Package.swift"))
    // Every library target named Flow… or Raindrop…, with its dependencies on this package's targets (C
    // ones included; products such as ArgumentParser are not drawn).
    let library = targets.filter { $0.kind == .library && ($0.name.hasPrefix("Flow") || $0.name.hasPrefix("Raindrop")) }
    let names = Set(targets.map(\.name))
    let expected = Dictionary(
      uniqueKeysWithValues: library.map { ($0.name, Set($0.dependencies.filter(names.contains))) })
    let text = try String(
      contentsOf: Self.root.appendingPathComponent("Documentation/Architecture.md"), encoding: .utf8)
    let drawn = try ModuleMap.parse(text)
    #expect(!drawn.isEmpty, "Architecture.md has no module map")
    #expect(Set(drawn.keys) == Set(expected.keys), "modules drawn but not in Package.swift, or missing")
    for (module, dependencies) in expected.sorted(by: { $0.key < $1.key }) {
      #expect(drawn[module] == dependencies, "Architecture.md draws \(module) → \(drawn[module] ?? [])")
    }
  }

  /// Whether `line` declares something `package`, after any attributes (`@inlinable package func`).
  static func isPackage(_ line: Substring) -> Bool {
    var words = line.split(separator: " ")[...]
    while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
    return words.first == "package"
  }

  static func swiftFiles(in folder: URL) throws -> [URL] {
    guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
    return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
  }

  /// The modules a file imports (`import X`, `@testable import X`, `import struct X.Y`).
  static func imports(of file: URL) throws -> [String] {
    // At the start of a line only: an import inside a string (a Python script a test runs) is not one.
    try String(contentsOf: file, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard line.first == "i" || line.first == "@" || line.first == "p" else { return nil }
      var words = line.split(separator: " ").map(String.init)
      while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal"].contains(first) {
        words.removeFirst()
      }
      guard words.first == "import", words.count >= 2 else { return nil }
      let name = words.count >= 3 ? words[2] : words[1]
      return String(name.split(separator: ".")[0])
    }
  }
}

/// Package.swift's targets, read from its text: their names, kinds, folders and dependencies.
struct PackageManifest {
  struct Target {
    enum Kind { case library, executable, test, systemLibrary, cTarget }
    var name: String
    var kind: Kind
    var path: String
    var dependencies: Set<String>
  }

  struct Unreadable: Error, CustomStringConvertible { var description: String }

  static func read(_ file: URL) throws -> [Target] {
    let text = try String(contentsOf: file, encoding: .utf8)
    let kinds: [(String, Target.Kind)] = [
      (".target(", .library), (".executableTarget(", .executable), (".testTarget(", .test),
      (".systemLibrary(", .systemLibrary),
    ]
    var targets: [Target] = []
    var index = text.startIndex
    while let (range, kind) = kinds.compactMap({ kind in
      text.range(of: kind.0, range: index..<text.endIndex).map { ($0, kind.1) }
    })
    .min(by: { $0.0.lowerBound < $1.0.lowerBound }) {
      let body = try Self.balanced(text, from: range.upperBound)
      index = body.upperBound
      let call = String(text[body])
      guard let name = Self.string(after: "name:", in: call) else {
        throw Unreadable(description: "a target without a name")
      }
      let declared = Self.string(after: "path:", in: call)
      let folder = kind == .test ? "Tests" : "Sources"
      var dependencies: Set<String> = []
      if let list = call.range(of: "dependencies:"), let open = call[list.upperBound...].firstIndex(of: "[") {
        let items = try Self.balanced(call, from: call.index(after: open), open: "[", close: "]")
        // `.product(name: "ArgumentParser", package: …)` names the product's module; plain strings are targets.
        let itemText = String(call[items]).replacing(/package: "[^"]*"/, with: "")
        for match in itemText.matches(of: /"([A-Za-z][A-Za-z0-9_-]*)"/) { dependencies.insert(String(match.1)) }
      }
      let isC = kind == .library && name.hasPrefix("C")
      targets.append(
        Target(
          name: name.replacingOccurrences(of: "-", with: "_"), kind: isC ? .cTarget : kind,
          path: declared ?? "\(folder)/\(name)", dependencies: dependencies))
    }
    return targets
  }

  /// The text from `start` to the bracket that closes the one before it.
  static func balanced(
    _ text: String, from start: String.Index, open: Character = "(", close: Character = ")"
  ) throws -> Range<String.Index> {
    var depth = 1
    var index = start
    var inString = false
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" { inString.toggle() }
      if !inString {
        if character == open { depth += 1 }
        if character == close {
          depth -= 1
          if depth == 0 { return start..<index }
        }
      }
      index = text.index(after: index)
    }
    throw Unreadable(description: "unbalanced \(open)")
  }

  static func string(after label: String, in text: String) -> String? {
    guard let range = text.range(of: label) else { return nil }
    let rest = text[range.upperBound...].drop { $0 == " " }
    guard rest.first == "\"", let end = rest.dropFirst().firstIndex(of: "\"") else { return nil }
    return String(rest[rest.index(after: rest.startIndex)..<end])
  }
}

/// The module map in Architecture.md: a fenced block of lines `Module → Dependency, Dependency`.
enum ModuleMap {
  static func parse(_ markdown: String) throws -> [String: Set<String>] {
    var map: [String: Set<String>] = [:]
    var fenced = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        fenced.toggle()
        continue
      }
      guard fenced, let arrow = line.range(of: " →") else { continue }
      let module = line[..<arrow.lowerBound].trimmingCharacters(in: .whitespaces)
      guard !module.isEmpty, module.allSatisfy({ $0.isLetter || $0.isNumber }) else { continue }
      let dependencies = line[arrow.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
      map[module, default: []].formUnion(dependencies)
    }
    return map
  }
}
