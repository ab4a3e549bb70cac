import CLinux
import Glibc
import Synchronization

/// A thread that lives as long as flow, on which children are started when the caller's thread may not.
///
/// `PR_SET_PDEATHSIG` is tied to the thread that made the child, not to the process: a child started on
/// a worker thread that later exits would be killed with it while flow runs on. The main thread lives as
/// long as flow, so a child started there is started at once; one started anywhere else is handed here
/// (a few microseconds: one hand-over, no thread made per child).
enum SpawnThread {
  /// Runs `body` on a thread that outlives every child it starts, and returns what it returned.
  static func run<T>(_ body: () -> T) -> T {
    if clinux_gettid() == getpid() { return body() }
    return withoutActuallyEscaping(body) { body in
      var result: T?
      let job = Job { result = body() }
      shared.submit(job)
      job.waitUntilDone()
      guard let result else { preconditionFailure("the spawn thread returned without running the job") }
      return result
    }
  }

  private static let shared = Worker()

  /// One request: the closure and a semaphore its caller waits on.
  private final class Job: @unchecked Sendable {
    /// Dropped once run, before the caller is woken: the caller's closure must not outlive its call.
    private var body: (() -> Void)?
    private let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(_ body: @escaping () -> Void) {
      self.body = body
      sem_init(done, 0, 0)
    }

    deinit {
      sem_destroy(done)
      done.deallocate()
    }

    func finish() {
      body?()
      body = nil
      sem_post(done)
    }

    func waitUntilDone() {
      while sem_wait(done) != 0, errno == EINTR {}
    }
  }

  /// The thread and its queue; never ends.
  private final class Worker: @unchecked Sendable {
    private let queue = Mutex<[Job]>([])
    private let ready = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() {
      sem_init(ready, 0, 0)
      var thread = pthread_t()
      let me = Unmanaged.passRetained(self).toOpaque()
      pthread_create(
        &thread, nil,
        { argument in
          guard let argument else { return nil }
          Unmanaged<Worker>.fromOpaque(argument).takeUnretainedValue().serve()
          return nil
        }, me)
      pthread_detach(thread)
    }

    func submit(_ job: Job) {
      queue.withLock { $0.append(job) }
      sem_post(ready)
    }

    private func serve() -> Never {
      while true {
        while sem_wait(ready) != 0 {}
        let job = queue.withLock { $0.removeFirst() }
        job.finish()
      }
    }
  }
}
