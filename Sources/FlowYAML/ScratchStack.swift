/// A stack that hands its top elements over as an array by moving them, never copying.
///
/// The tree builder keeps the children of every open collection here. An `Array` would need each child
/// copied out (a retain) and then destroyed in place (a release) when its collection closes; moving
/// halves that traffic on the hottest path of a load.
struct ScratchStack<Element>: ~Copyable {
  private var base: UnsafeMutablePointer<Element>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 256
    base = .allocate(capacity: capacity)
  }

  deinit {
    base.deinitialize(count: count)
    base.deallocate()
  }

  mutating func append(_ element: consuming Element) {
    if count == capacity { grow() }
    (base + count).initialize(to: element)
    count += 1
  }

  /// Reads an element in place.
  func withElement<Result>(at index: Int, _ body: (borrowing Element) -> Result) -> Result {
    body(base[index])
  }

  /// Removes the elements from `start` on and returns them, in order, as an array of exactly their size.
  mutating func popArray(from start: Int) -> [Element] {
    let moved = count - start
    let source = base + start
    count = start
    // Reserved and appended to, which is specialized for the element type: `Array(unsafeUninitializedCapacity:)`
    // goes through the standard library's generic allocation, which looks the storage type up at run
    // time for every collection, half the cost of making one.
    var array: [Element] = []
    array.reserveCapacity(moved)
    for offset in 0..<moved { array.append((source + offset).move()) }
    return array
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }
}
