#ifndef CSWIFTCONCURRENCY_SHIM_H
#define CSWIFTCONCURRENCY_SHIM_H
// The Swift runtime's hooks for where concurrency's jobs run (swift/Runtime/ConcurrencyHooks.def): how a
// program puts a global executor of its own in place of Dispatch's thread pool, as SwiftNIO and
// FoundationDB do. Each is a function pointer of the Swift calling convention, declared here
// as a plain pointer: Swift stores a `@convention(thin)` function in it (FlowSystem.MainThreadExecutor).
// The variables live in the Swift runtime itself (libswift_Concurrency): nothing to link.

// void (*)(Job *job, void (*original)(Job *)): every job of a task that is not isolated to an actor.
extern void *_Nullable swift_task_enqueueGlobal_hook;
// void (*)(Job *job, void (*original)(Job *)): every job isolated to the main actor.
extern void *_Nullable swift_task_enqueueMainExecutor_hook;

// Sets both, before the first task is made (Swift 6 refuses to touch a C global variable itself).
static inline void flow_set_enqueue_hooks(void *_Nonnull global, void *_Nonnull mainActor) {
  swift_task_enqueueGlobal_hook = global;
  swift_task_enqueueMainExecutor_hook = mainActor;
}

#endif
