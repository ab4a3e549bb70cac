import CFuzzDriver
import FlowFuzzing
import Foundation

// flow-fuzz: the fuzzing harness's one executable (CONTRIBUTING.md). Scripts/fuzz.sh builds it with
// -sanitize=fuzzer, and then it hands the command line to libFuzzer; the normal build has no libFuzzer,
// and then it replays the files it is given, as the test suite does with the regressions.

let usage = """
  usage: flow-fuzz TARGET [libFuzzer options] [CORPUS...]   fuzz TARGET (a -sanitize=fuzzer build)
         flow-fuzz TARGET FILE|FOLDER...                     run each input once (any build)
         flow-fuzz seeds TARGET FOLDER [ROOT]                write TARGET's seeds from the project at ROOT
         flow-fuzz list                                      the targets, one a line
  targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))

  """

/// The target libFuzzer's callback runs: a C callback cannot capture it.
enum Selected {
  nonisolated(unsafe) static var target = FuzzTarget.check
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("flow-fuzz: \(message)\n\(usage)".utf8))
  exit(64)
}

/// The regular files at `path`, a file or a folder (its files, by name), skipping dotfiles.
func inputs(at path: String) -> [String] {
  var isDirectory: ObjCBool = false
  guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("no file '\(path)'") }
  guard isDirectory.boolValue else { return [path] }
  let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
  return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }.filter { file in
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) && !isFolder.boolValue
  }
}

func read(_ path: String) -> [UInt8] {
  guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read '\(path)'") }
  return [UInt8](data)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("no target") }

if arguments[1] == "list" {
  for target in FuzzTarget.allCases { print(target.rawValue) }
  exit(0)
}

if arguments[1] == "seeds" {
  guard arguments.count >= 4, let target = FuzzTarget(rawValue: arguments[2]) else { fail("seeds needs a target") }
  let folder = arguments[3]
  let root = URL(fileURLWithPath: arguments.count > 4 ? arguments[4] : FileManager.default.currentDirectoryPath)
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  let seeds = Seeds.inputs(for: target, root: root)
  for (number, seed) in seeds.enumerated() {
    guard FileManager.default.createFile(atPath: "\(folder)/seed-\(number)", contents: Data(seed)) else {
      fail("cannot write \(folder)/seed-\(number)")
    }
  }
  print("\(seeds.count) seeds for \(target.rawValue) in \(folder)")
  exit(0)
}

guard let target = FuzzTarget(rawValue: arguments[1]) else { fail("no target '\(arguments[1])'") }
Selected.target = target

// libFuzzer takes the command line without the target: argv[0], then its options and corpus folders.
var driverArguments = ([arguments[0]] + arguments.dropFirst(2)).map { strdup($0) } + [nil]
var argc = Int32(driverArguments.count - 1)
let status = driverArguments.withUnsafeMutableBufferPointer { buffer in
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
  return flow_fuzz_run_driver(&argc, &argv) { data, size in
    Selected.target.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }
}
guard status == -1 else { exit(status) }

// Not linked with libFuzzer: run every input given once.
let paths = arguments.dropFirst(2).flatMap(inputs(at:))
guard !paths.isEmpty else { fail("this build has no libFuzzer (see Scripts/fuzz.sh); give inputs to replay") }
for path in paths { target.run(read(path)) }
print("\(paths.count) inputs ran through \(target.rawValue) without a crash")
