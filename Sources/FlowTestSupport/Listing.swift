import Foundation

/// A folder a test expected files in held none: it was moved, misspelt, or emptied.
public struct EmptyListing: Error, CustomStringConvertible {
  public var directory: URL

  public var description: String {
    "no files to test in \(directory.path): a test over this folder would run zero cases and pass"
  }
}

/// The names of the files in `directory` that `include` accepts (by default the `.yml` files), sorted:
/// the arguments of a test that runs once per file.
///
/// Swift Testing runs a parameterised test over an empty collection as zero cases, which pass; so an
/// empty listing throws ``EmptyListing`` instead. Write it with `try` in the test's arguments
/// (`@Test(arguments: try listing(of: corpus))`): Swift Testing records the error as the test's failure.
public func listing(of directory: URL, where include: (String) -> Bool = { $0.hasSuffix(".yml") }) throws
  -> [String]
{
  let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter {
    !$0.hasPrefix(".") && include($0)
  }
  guard !names.isEmpty else { throw EmptyListing(directory: directory) }
  return names.sorted()
}
