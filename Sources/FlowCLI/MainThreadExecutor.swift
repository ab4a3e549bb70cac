import Dispatch

/// Runs a task's jobs on the main thread, through the main queue that `dispatchMain()` serves: the
/// executor `flow run` prefers (``FlowCommand``), so that a run starts no worker thread of Swift's
/// cooperative pool. Jobs run one at a time, as a run's steps do anyway; child tasks (a step's timeout)
/// take turns with it at their suspension points, and unstructured tasks still go to the pool.
final class MainThreadExecutor: TaskExecutor {
  static let shared = MainThreadExecutor()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    DispatchQueue.main.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
