import Glibc

/// A thread of its own for one blocking call (a libcurl transfer, a D-Bus wait), which ends with it: what
/// Foundation's `Thread.detachNewThread` did, on a bare pthread, so that no module needs
/// swift-corelibs-foundation for it.
public enum DetachedThread {
  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }

  /// Runs `body` on a new detached thread, with a stack of `stackSize` bytes (nil: the system's default).
  /// When the system is out of threads it stops the program, as `Thread` did.
  public static func run(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Work(body)).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
    var thread = pthread_t()
    let started = pthread_create(
      &thread, &attributes,
      { box in
        guard let box else { return nil }
        Unmanaged<Work>.fromOpaque(box).takeRetainedValue().body()
        return nil
      }, box)
    guard started == 0 else { fatalError("no thread could be started: error \(started)") }
    pthread_detach(thread)
  }
}
