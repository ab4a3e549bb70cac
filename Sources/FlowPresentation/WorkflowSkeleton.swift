/// What `flow new NAME` writes: a workflow that runs as it is, with the editor-schema modeline and the
/// common keys commented in, so the person fills in rather than looks up.
public enum WorkflowSkeleton {
  /// The schema file's name beside the library's workflows; the modeline names it relative to the file.
  public static let schemaFileName = "flow.schema.json"

  /// The modeline yaml-language-server reads (VS Code, Neovim, Helix): a path relative to the workflow.
  public static let modeline = "# yaml-language-server: $schema=\(schemaFileName)"

  /// The skeleton for the library name `name` ("daily-digest" becomes "Daily Digest").
  public static func text(name: String) -> String {
    let title = name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map {
      $0.prefix(1).uppercased() + $0.dropFirst()
    }
    .joined(separator: " ")
    return """
      \(modeline)
      # \(title): run it with 'flow run \(name)', draw it with 'flow show \(name)'.
      # 'flow actions' lists every action; 'flow actions NAME' shows one with an example.
      flow: 1
      name: \(title)
      description: What this workflow does, in a sentence.
      # icon: bookmark
      # color: blue                 # red, orange, yellow, green, mint, teal, cyan, blue, indigo, purple…

      # Inputs: given with --input NAME=VALUE, or asked for at a terminal.
      # input:
      #   url:
      #     type: url
      #     prompt: Which page?

      # Environment variables it may read, as ${env.NAME}.
      # env: [HOME]

      # When 'flow schedule' runs it, as a cron expression.
      # schedule: "0 9 * * MON"

      steps:
        - text: Hello from \(title)
          as: greeting                # names the step's output: ${greeting}
        - show: ${greeting}

      """
  }
}
