/// Where the workflow whose step is running comes from: a shared file (exported, imported or embedded in
/// one) or the person's own. The interpreter provides it for each shared workflow; absent means the
/// person's own file. What depends on it reads this one value: `run-shell` fences a shared file's steps
/// by default, and ``ConfirmationPolicy`` leaves more to a person.
public struct RunOrigin: Sendable, Hashable {
  /// The file came from someone else: `flow export` wrote it (`shared:`), and it was imported or is run
  /// as it came. Values in it, and what it does, are its author's, not the person's running it.
  public var shared: Bool

  public init(shared: Bool) { self.shared = shared }
}

/// The one confirmation policy of every way a workflow starts — `flow run` by hand or from cron, the
/// scheduler, automations, `flow mcp` with or without elicitation (issue 28): `--yes` from the person
/// running it answers every confirmation; `confirmations: auto` and a block's `confirm:` answer the
/// others, never one that only a person may answer.
public enum ConfirmationPolicy {
  /// Whether confirming a step with these effects takes a person (or their `--yes`): deleting files for
  /// good always, since nothing brings them back; and in a file that came from elsewhere, replacing a
  /// file's contents and running a command too, whose author is not the person who would be answering.
  public static func needsPerson(_ kinds: some Sequence<MachineAccess.Kind>, shared: Bool) -> Bool {
    kinds.contains { kind in
      switch kind {
      case .deletesFiles: true
      case .replacesFiles, .runsCommands: shared
      default: false
      }
    }
  }
}
