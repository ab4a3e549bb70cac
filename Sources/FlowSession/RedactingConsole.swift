/// The console of a run that read secrets: whatever reaches standard output or error — a step that shows a
/// secret, a result, `--json`, a diagnostic quoting a value — shows `••••` where a secret's value was.
///
/// One wrapper where every write passes, rather than a mask at each place that prints, so that a place
/// added later cannot forget it. A value derived from a secret that still contains it (text combined
/// around it) is masked too; one that no longer does (uppercased, hashed, cut) is not (Secrets.md).
public struct RedactingConsole: Console {
  public let inner: any Console
  public let redact: SecretMask

  public init(_ inner: any Console, secrets: [String]) {
    self.inner = inner
    redact = SecretMask(secrets: secrets)
  }

  public func write(_ text: String, to stream: ConsoleStream) { inner.write(redact(text), to: stream) }
  public func isTerminal(_ stream: ConsoleStream) -> Bool { inner.isTerminal(stream) }
  public func readLine() -> String? { inner.readLine() }
  public func readSecretLine(prompt: String) -> String? { inner.readSecretLine(prompt: redact(prompt)) }
  public func readAllInput(atMost limit: Int) -> String? { inner.readAllInput(atMost: limit) }
  public func columns(_ stream: ConsoleStream) -> Int? { inner.columns(stream) }
}
