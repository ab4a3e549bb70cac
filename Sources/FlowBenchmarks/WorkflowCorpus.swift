/// A large YAML file shaped like real workflows: block and flow collections, quoted and plain scalars,
/// references and literal block scalars, in the proportions of the probe in
/// `shared/reference/swift-probes.md` so the figures compare.
enum WorkflowCorpus {
  static func generate(bytes target: Int) -> String {
    var out = "flow: 1\nname: Generated\nsteps:\n"
    out.reserveCapacity(target + 1024)
    let words = ["alpha", "beta", "gamma", "delta"]
    var index = 0
    while out.utf8.count < target {
      let word = words[index % words.count]
      out += """
          - raindrop.get-bookmarks:
              collection: \(word) \(index)
              search-text: "#\(word) page \(index)"
              sort-by: newest-first
              max-results: \(index % 50 + 1)
              tags: [\(word), beta, gamma]
            as: step_\(index)
            when: ${previous.count} > \(index % 7)
            retry: {attempts: \(index % 3), delay: 1.5}
            note: |
              Fetch the \(word) page \(index)
              and keep it for later.

        """
      index += 1
    }
    return out
  }
}
