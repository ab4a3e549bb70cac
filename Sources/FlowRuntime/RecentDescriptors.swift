import FlowIntents

/// The last few actions a walk over a workflow looked up, by their id as written.
///
/// A big file names a handful of actions thousands of times (`text`, `split-text`): comparing an id with
/// the few just seen costs a tenth of the registry's lookup, which hashes the id and takes a lock each
/// time. Failed lookups are not kept, so each is reported where it happens.
struct RecentDescriptors {
  /// A struct, not a tuple: a list of tuples has its element's metadata made at run time, 40 K
  /// instructions of a one-step run.
  private struct Entry {
    let id: String
    let descriptor: IntentDescriptor
  }

  private var entries: [Entry] = []
  private var next = 0
  private static let capacity = 8

  /// The descriptor of the action `id` names, as ``IntentRegistry/descriptor(for:)`` gives it.
  mutating func descriptor(for id: String, in registry: IntentRegistry) throws(IntentLookupError)
    -> IntentDescriptor
  {
    for entry in entries where entry.id == id { return entry.descriptor }
    let descriptor = try registry.descriptor(for: id)
    if entries.count < Self.capacity {
      entries.append(Entry(id: id, descriptor: descriptor))
    } else {
      entries[next] = Entry(id: id, descriptor: descriptor)
      next = (next + 1) % Self.capacity
    }
    return descriptor
  }
}
