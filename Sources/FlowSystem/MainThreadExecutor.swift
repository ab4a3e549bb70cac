import CSwiftConcurrency
import Glibc

/// Swift concurrency's global executor for a `flow` process: every job runs on the main thread, in the
/// order it was enqueued, instead of on Dispatch's thread pool.
///
/// Why: a command is a short process whose work is one task at a time, and whatever blocks (a child
/// process, an HTTP transfer, an MCP server's pipe) already waits on a thread of its own and resumes the
/// task through a continuation. Dispatch's pool cost every command its set-up, a manager thread (epoll,
/// an eventfd and a timerfd) and a worker thread or two, and the hand-overs between them, while the main
/// thread sat idle: a one-step run took 3.58 ms with them and 3.34 without (Performance.md).
///
/// The runtime's own hooks (`CSwiftConcurrency`) route the jobs here: those of tasks not isolated to an
/// actor, which run on the generic executor as on Dispatch's pool, and those isolated to the main actor,
/// which are on the main thread here as everywhere. A job due later (`Task.sleep`, a step's timeout or
/// `wait`) still waits on Dispatch's timers, which the runtime uses for them whatever the hooks say, and
/// then comes back here: only a run that sleeps starts Dispatch.
///
/// The one rule this adds: a job must not block waiting for another job to run, which on one thread
/// would never happen. flow's code never does (it waits with `await`); what blocks waits for the kernel.
public enum MainThreadExecutor {
  /// Routes Swift concurrency's jobs to the main thread; ``run()`` then runs them. Called on the main
  /// thread before the first task is made.
  public static func install() {
    // Each names `MainThreadExecutor` in full: a thin function cannot capture even the type.
    let global: Hook = { job, _ in MainThreadExecutor.jobs.enqueue(job, onMainActor: false) }
    let main: Hook = { job, _ in MainThreadExecutor.jobs.enqueue(job, onMainActor: true) }
    flow_set_enqueue_hooks(
      unsafeBitCast(global, to: UnsafeMutableRawPointer.self), unsafeBitCast(main, to: UnsafeMutableRawPointer.self))
  }

  /// Runs the jobs as they come, for as long as the process lives: a command ends with `exit`.
  public static func run() -> Never {
    jobs.run()
  }

  /// The hooks' type (CSwiftConcurrency): the job, and the runtime's own enqueue, which is not used.
  private typealias Hook = @convention(thin) (UnownedJob, Enqueue) -> Void
  private typealias Enqueue = @convention(thin) (UnownedJob) -> Void

  private static let jobs = JobQueue()
}

/// The jobs waiting for the main thread, under a mutex; the main thread sleeps on a condition variable
/// only when there are none. Jobs are taken a batch at a time, so a job enqueued by a job running on the
/// main thread (the usual case: a task resuming itself) costs a lock and an append, and no wake-up.
private final class JobQueue: @unchecked Sendable {
  // Unchecked: `pending` and `sleeping` are under `mutex`; `batch` is touched by `run` alone. A pthread
  // mutex rather than `Mutex`, because the main thread sleeps on a condition variable, which needs one;
  // Synchronization has no condition to wait on.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var pending: [(job: UnownedJob, onMainActor: Bool)] = []
  private var batch: [(job: UnownedJob, onMainActor: Bool)] = []
  private var sleeping = false

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(arrived, nil)
    pending.reserveCapacity(16)
    batch.reserveCapacity(16)
  }

  func enqueue(_ job: UnownedJob, onMainActor: Bool) {
    pthread_mutex_lock(mutex)
    pending.append((job, onMainActor))
    if sleeping { pthread_cond_signal(arrived) }
    pthread_mutex_unlock(mutex)
  }

  func run() -> Never {
    // The generic executor, on which Dispatch's pool runs a job: no serial executor (SerialExecutorRef's
    // identity and implementation both zero). Run on an executor of its own, a task would find itself
    // off the generic executor at every `await` and be enqueued again instead of going on.
    let generic = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)
    let mainActor = MainActor.sharedUnownedExecutor
    while true {
      pthread_mutex_lock(mutex)
      while pending.isEmpty {
        sleeping = true
        pthread_cond_wait(arrived, mutex)
        sleeping = false
      }
      swap(&pending, &batch)
      pthread_mutex_unlock(mutex)
      for (job, onMainActor) in batch {
        job.runSynchronously(on: onMainActor ? mainActor : generic)
      }
      batch.removeAll(keepingCapacity: true)
    }
  }
}
