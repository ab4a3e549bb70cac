import FlowDiagnostics
import FlowModel

/// Which items of a `run-shell` `command:` a program reads as code, so that a `${…}` in one of them is
/// refused as it is in `script:` (ScriptInjection). Documentation/Shell.md states the rule:
///
/// - A known interpreter (sh, bash, python3, node, perl, ruby, php, awk, sed, …) is recognised by the
///   literal name of an item, its folder and version left off (`/usr/bin/python3.12` is python). Its code
///   is the argument of its code option (`sh -c`, `bash -ec`, `python3 -c`, `node -e`/`--eval`,
///   `perl -e`/`-E`, `ruby -e`, `php -r`, an attached `-eCODE` too) or, for awk and sed, their first
///   operand. Wherever such a name stands (after `env`, `sudo`, `xargs`, `find -exec`, anything), a
///   reference in that code is refused: a wrapper is never trusted to be understood.
/// - Where the interpreter is the program that runs (the first item, the program a wrapper or
///   `find -exec` runs), a reference in its options or in the script file it runs is refused too: the
///   value decides the code.
/// - A wrapper's options and its own operands (`sudo -u`, `timeout 5`, `env -S`) decide what it runs: a
///   reference there is refused; `env NAME=${…}` is refused for the variables a shell or interpreter
///   reads as code (``CodeVariables``) and passes for the others.
/// - ssh, watch and parallel join their operands into a command line a shell reads: a reference in any
///   of them is refused.
///
/// Items after the code (`sh -c 'echo "$1"' sh "${x}"`, `python3 -c CODE "${x}"`) are the code's
/// arguments, never read as code: the rewrite moves values there.
enum CodeArguments {
  /// One item of `command:`: its literal text, when it holds no reference, and its references.
  struct Item {
    var literal: String?
    /// The text before its first reference (all of it for a literal).
    var prefix: String
    var references: [Reference]
  }

  /// A reference the command reads as code.
  struct Finding {
    enum Reading: Hashable {
      /// In the code of `program` given with `option` (`-c`), or its code operand (awk, sed) when nil.
      case code(option: String?)
      /// In the option that decides what `program` runs, or the script file it runs.
      case scriptOrOption
      /// In an option or operand of the wrapper `program`, before the program it runs.
      case wrapperOption
      /// The program a wrapper runs.
      case program
      /// In the value of a variable `env NAME=…` sets that `program` reads as code.
      case variable(String)
      /// In the command line ssh, watch or parallel hand to a shell.
      case commandLine
    }

    var reference: Reference
    /// The item's index in `command:`.
    var index: Int
    /// The interpreter or wrapper, as its name (`bash`, `python`).
    var program: String
    var reading: Reading
  }

  /// How an interpreter takes its code.
  struct Interpreter {
    var names: [String]
    /// The options whose argument is code (next item, or attached to a one-letter option).
    var codeOptions: [String]
    /// The options whose argument decides what runs without being the code (`-m module`, `-r file`).
    var programOptions: [String] = []
    /// Other options that take an argument (the next item), skipped.
    var argumentOptions: [String] = []
    /// sh-like: `-c` may stand in a cluster (`-ec`), and then the code is the first operand.
    var clusters = false
    /// awk, sed: the first operand is the code unless a file of code is given (`-f`).
    var firstOperandIsCode = false
    /// ssh, watch, parallel: every operand is part of a command line a shell reads.
    var operandsAreCommandLine = false
  }

  static let shells = ["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "csh", "tcsh", "fish"]

  static let interpreters: [Interpreter] = [
    Interpreter(
      names: shells, codeOptions: ["-c", "--command"], programOptions: ["--rcfile", "--init-file", "-o", "+o"],
      argumentOptions: ["-O", "+O"], clusters: true),
    Interpreter(
      names: ["python", "pypy"], codeOptions: ["-c"], programOptions: ["-m"], argumentOptions: ["-W", "-X", "-Q"]),
    Interpreter(
      names: ["node", "nodejs", "bun"], codeOptions: ["-e", "--eval", "-p", "--print"],
      programOptions: ["-r", "--require", "--import", "--loader", "--experimental-loader"]),
    Interpreter(names: ["perl"], codeOptions: ["-e", "-E"], programOptions: ["-M", "-m", "-I"]),
    Interpreter(names: ["ruby"], codeOptions: ["-e"], programOptions: ["-r", "-I"]),
    Interpreter(names: ["php"], codeOptions: ["-r", "-B", "-R", "-E"], programOptions: ["-f", "-c", "-d"]),
    Interpreter(names: ["lua", "luajit"], codeOptions: ["-e"], programOptions: ["-l"]),
    Interpreter(names: ["Rscript", "R"], codeOptions: ["-e"]),
    Interpreter(
      names: ["pwsh", "powershell"], codeOptions: ["-c", "-Command", "-command"], programOptions: ["-File"]),
    Interpreter(
      names: ["awk", "gawk", "mawk", "nawk"], codeOptions: ["-e", "--source"],
      programOptions: ["-f", "--file", "-i", "--include", "-l", "--load"], argumentOptions: ["-F", "-v", "--assign"],
      firstOperandIsCode: true),
    Interpreter(
      names: ["sed", "gsed"], codeOptions: ["-e", "--expression"], programOptions: ["-f", "--file"],
      argumentOptions: ["-l"], firstOperandIsCode: true),
    Interpreter(
      names: ["su", "runuser", "script"], codeOptions: ["-c", "--command"], programOptions: ["-s", "--shell"]),
    Interpreter(names: ["ssh", "watch", "parallel"], codeOptions: [], operandsAreCommandLine: true),
  ]

  /// Programs that run another program, and their options that take an argument; `leadingOperands` are
  /// operands before the program (`timeout 5 cmd`, `flock FILE cmd`).
  struct Wrapper {
    var names: [String]
    var argumentOptions: [String] = []
    var leadingOperands = 0
  }

  static let wrappers: [Wrapper] = [
    Wrapper(names: ["env"], argumentOptions: ["-u", "--unset", "-C", "--chdir", "-S", "--split-string"]),
    Wrapper(
      names: ["sudo", "doas"],
      argumentOptions: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group"]),
    Wrapper(names: ["nice"], argumentOptions: ["-n", "--adjustment"]),
    Wrapper(names: ["nohup", "setsid", "time", "exec", "command", "builtin", "unbuffer", "busybox"]),
    Wrapper(names: ["timeout"], argumentOptions: ["-s", "--signal", "-k", "--kill-after"], leadingOperands: 1),
    Wrapper(names: ["stdbuf"], argumentOptions: ["-i", "-o", "-e"]),
    Wrapper(names: ["ionice"], argumentOptions: ["-c", "-n", "-p", "-P", "-u"]),
    Wrapper(names: ["chrt"], argumentOptions: ["-T", "-P", "-D"], leadingOperands: 1),
    Wrapper(names: ["taskset"], leadingOperands: 1),
    Wrapper(names: ["flock"], argumentOptions: ["-w", "--timeout", "-E", "--conflict-exit-code"], leadingOperands: 1),
    Wrapper(names: ["chroot"], argumentOptions: ["--userspec", "--groups"], leadingOperands: 1),
    Wrapper(names: ["xargs"], argumentOptions: ["-a", "-d", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "-P", "-s"]),
    Wrapper(names: ["nsenter", "unshare", "setpriv", "systemd-run", "firejail", "bwrap", "flatpak-spawn"]),
  ]

  /// The finds-a-program options of `find`: the next item is a program.
  static let findRunners = ["-exec", "-execdir", "-ok", "-okdir"]

  /// The name an item is known by: its last path component, a version suffix left off (`python3.12`).
  static func name(_ literal: String) -> String {
    let base = literal.split(separator: "/").last.map(String.init) ?? literal
    var trimmed = Substring(base)
    while let last = trimmed.last, last.isNumber || last == "." { trimmed.removeLast() }
    return trimmed.isEmpty ? base : String(trimmed)
  }

  static func interpreter(named literal: String?) -> Interpreter? {
    guard let literal else { return nil }
    let name = name(literal)
    return interpreters.first { $0.names.contains(name) }
  }

  static func wrapper(named literal: String?) -> Wrapper? {
    guard let literal else { return nil }
    let name = name(literal)
    return wrappers.first { $0.names.contains(name) }
  }

  /// Every reference `items` read as code, at most once each.
  static func findings(_ items: [Item]) -> [Finding] {
    var found: [Finding] = []
    var programs: Set<Int> = [0]
    var queue = [0]
    var firstFind = items.count
    // The programs that run: the first item, then whatever a wrapper or find -exec runs.
    while let index = queue.popLast() {
      guard index < items.count else { continue }
      let item = items[index]
      if let wrapper = wrapper(named: item.literal) {
        if let next = wrapped(items, after: index, wrapper, &found), programs.insert(next).inserted {
          queue.append(next)
        }
      } else if let literal = item.literal, name(literal) == "find", index < firstFind {
        // Every -exec after the first find runs a program (a later find's are among them): one scan.
        for (offset, next) in items.enumerated().dropFirst(index + 1).prefix(firstFind - index - 1)
        where next.literal.map(findRunners.contains) == true && offset + 1 < items.count {
          if programs.insert(offset + 1).inserted { queue.append(offset + 1) }
        }
        firstFind = index
      } else if index > 0, let reference = item.references.first {
        found.append(Finding(reference: reference, index: index, program: "", reading: .program))
      }
    }
    // Every interpreter, wherever it stands; the options and script only where it is what runs.
    for (index, item) in items.enumerated() {
      guard let interpreter = interpreter(named: item.literal) else { continue }
      found += code(items, of: interpreter, at: index, runs: programs.contains(index))
    }
    var seen: Set<SourceSpan> = []
    return found.filter { seen.insert($0.reference.span).inserted }.sorted { $0.index < $1.index }
  }

  /// Reads a wrapper's options and leading operands; returns the index of the program it runs.
  private static func wrapped(_ items: [Item], after index: Int, _ wrapper: Wrapper, _ found: inout [Finding]) -> Int? {
    let program = name(items[index].literal ?? "")
    func report(_ position: Int, _ reading: Finding.Reading) {
      guard position < items.count else { return }
      for reference in items[position].references {
        found.append(Finding(reference: reference, index: position, program: program, reading: reading))
      }
    }
    var position = index + 1
    var operands = wrapper.leadingOperands
    while position < items.count {
      let item = items[position]
      if let variable = assignmentName(item), ["env", "sudo", "doas"].contains(program) {
        if CodeVariables.reason(for: variable) != nil { report(position, .variable(variable)) }
        position += 1
        continue
      }
      guard let literal = item.literal else {
        // A computed operand before the program (`timeout ${t}`), or the program itself.
        if operands == 0 { return position }
        report(position, .wrapperOption)
        operands -= 1
        position += 1
        continue
      }
      if literal == "--" {
        position += 1
      } else if literal.hasPrefix("-"), literal.count > 1 {
        if wrapper.argumentOptions.contains(literal) {
          report(position + 1, .wrapperOption)
          position += 2
        } else {
          position += 1
        }
      } else if operands > 0 {
        operands -= 1
        position += 1
      } else {
        return position
      }
    }
    return nil
  }

  /// The variable of a `NAME=value` item (its name written out), as env and sudo take it: any name
  /// without `=` that is not an option (`BASH_FUNC_f%%` too).
  private static func assignmentName(_ item: Item) -> String? {
    guard let equals = item.prefix.firstIndex(of: "=") else { return nil }
    let name = item.prefix[..<equals]
    guard let first = name.first, first != "-", !name.contains("/") else { return nil }
    return String(name)
  }

  /// Whether the option names the code that runs instead of a script operand (`python -m`, `awk -f`).
  private static func replacesScript(_ option: String, _ interpreter: Interpreter) -> Bool {
    interpreter.firstOperandIsCode || ["-m", "-f", "--file", "-File"].contains(option)
  }

  /// The references in what `interpreter` at `index` reads as code.
  private static func code(_ items: [Item], of interpreter: Interpreter, at index: Int, runs: Bool) -> [Finding] {
    let program = name(items[index].literal ?? "")
    var found: [Finding] = []
    func report(_ position: Int, _ reading: Finding.Reading) {
      guard position < items.count else { return }
      for reference in items[position].references {
        found.append(Finding(reference: reference, index: position, program: program, reading: reading))
      }
    }
    if interpreter.operandsAreCommandLine {
      for position in (index + 1)..<max(index + 1, items.count) { report(position, .commandLine) }
      return found
    }
    var position = index + 1
    var codeOption: String?
    var codeFromFile = false
    while position < items.count {
      guard let literal = items[position].literal else {
        // A value attached to a code option (`-e${…}`): code.
        let prefix = items[position].prefix
        if !interpreter.clusters, prefix.count >= 2,
          let option = interpreter.codeOptions.first(where: { $0.count == 2 && prefix.hasPrefix($0) })
        {
          report(position, .code(option: option))
          return found
        }
        break
      }
      if literal == "--" {
        position += 1
        break
      }
      if literal == "-" || !(literal.hasPrefix("-") || interpreter.clusters && literal.hasPrefix("+")) { break }
      if interpreter.codeOptions.contains(literal) {
        if interpreter.clusters {
          codeOption = literal
          position += 1
          continue
        }
        report(position + 1, .code(option: literal))
        return found
      }
      if let attached = interpreter.codeOptions.first(where: {
        $0.count == 2 && !$0.hasPrefix("--") && literal.hasPrefix($0) && literal.count > 2
      }), !interpreter.clusters {
        report(position, .code(option: attached))
        return found
      }
      if interpreter.clusters, !literal.hasPrefix("--"), literal.dropFirst().contains("c"), literal.hasPrefix("-") {
        codeOption = "-c"
        position += 1
        continue
      }
      if interpreter.programOptions.contains(literal) {
        if runs { report(position + 1, .scriptOrOption) }
        if Self.replacesScript(literal, interpreter) { codeFromFile = true }
        position += 2
        continue
      }
      if !interpreter.clusters,
        let attached = interpreter.programOptions.first(where: {
          $0.count == 2 && !$0.hasPrefix("--") && literal.hasPrefix($0) && literal.count > 2
        })
      {
        if Self.replacesScript(attached, interpreter) { codeFromFile = true }
        position += 1
        continue
      }
      // A cluster that ends with a one-letter code option (`perl -ne`, `python3 -Ic`): the code is next.
      if !interpreter.clusters, !literal.hasPrefix("--"), literal.count > 2, let last = literal.last,
        interpreter.codeOptions.contains("-\(last)")
      {
        report(position + 1, .code(option: "-\(last)"))
        return found
      }
      position += interpreter.argumentOptions.contains(literal) ? 2 : 1
    }
    guard position < items.count else { return found }
    // The first operand, or a computed item where one could be: an option (it could be `-c`) decides too.
    if let codeOption {
      report(position, .code(option: codeOption))
    } else if interpreter.firstOperandIsCode, !codeFromFile, runs {
      report(position, .code(option: nil))
    } else if runs, !codeFromFile {
      report(position, .scriptOrOption)
    }
    return found
  }
}
