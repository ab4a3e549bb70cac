// flow-bench: benchmarks run on demand (Scripts/bench-yaml.sh), never as part of the tests.
// Usage: flow-bench [MEGABYTES] [profile]
//
// Every figure is printed next to a reference measured in the same run on the same input, so the
// ratio means something on a noisy machine where absolute numbers move by 20 %.

import CLibYAML
import FlowDiagnostics
import FlowYAML
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let megabytes = arguments.first.flatMap(Int.init) ?? 20
let iterations = 3

let text = WorkflowCorpus.generate(bytes: megabytes * 1_000_000)
let file = SourceFile(path: "generated.yml", text: text)
let size = Double(file.bytes.count) / 1_000_000
print("input: \(String(format: "%.2f", size)) MB, \(iterations) iterations each, best time kept")

/// The reference: libyaml's event parser with nothing done per event but counting.
func rawEvents() -> Int {
  var parser = yaml_parser_t()
  guard yaml_parser_initialize(&parser) == 1 else { return -1 }
  defer { yaml_parser_delete(&parser) }
  return file.bytes.withUnsafeBufferPointer { buffer in
    yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
    var event = yaml_event_t()
    var count = 0
    while yaml_parser_parse(&parser, &event) == 1 {
      count += 1
      let done = event.type == YAML_STREAM_END_EVENT
      yaml_event_delete(&event)
      if done { return count }
    }
    return -1
  }
}

/// The documents loaded so far, kept so that freeing a tree is timed separately from building it.
nonisolated(unsafe) var loaded: [YAMLDocument] = []

/// The full tree: nodes with spans, keys with spans, duplicate-key checks, limits.
func tree() -> Int {
  let document = YAMLDocument.load(file, limits: .large)
  precondition(document.diagnostics.isEmpty, "the generated corpus must load cleanly")
  loaded.append(document)
  return document.root?.mapping?.entries.count ?? 0
}

/// Freeing one loaded tree.
func free() -> Int {
  loaded.removeLast()
  return loaded.count
}

func best(_ work: () -> Int) -> (seconds: Double, result: Int) {
  var fastest = Double.infinity
  var result = 0
  let clock = ContinuousClock()
  for _ in 0..<iterations {
    let start = clock.now
    result = work()
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    fastest = min(fastest, seconds)
  }
  return (fastest, result)
}

// `flow-bench MB profile` builds and frees the tree only, for `perf record`.
if arguments.dropFirst().first == "profile" {
  for _ in 0..<5 {
    _ = tree()
    _ = free()
  }
  exit(0)
}

let raw = best(rawEvents)
let built = best(tree)
let freed = best(free)
let rawRate = size / raw.seconds
let treeRate = size / built.seconds
print("libyaml events (reference): \(String(format: "%.2f", rawRate)) MB/s  (\(raw.result) events)")
print("FlowYAML tree with spans:   \(String(format: "%.2f", treeRate)) MB/s")
print("freeing the tree:           \(String(format: "%.0f", freed.seconds * 1000)) ms (not in the rate above)")
print("ratio tree / raw libyaml:   \(String(format: "%.2f", treeRate / rawRate))×  (target ≥ 0.60×)")
