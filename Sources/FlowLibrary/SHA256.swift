import FlowIntents

/// SHA-256, for the content hash run history keeps and the names of lock files.
///
/// A fingerprint, not a security boundary: it tells whether a workflow file changed since a run, and the
/// hex form equals what `sha256sum FILE` prints, so a person can check it by hand. The digest itself is
/// FlowIntents' `Digest`, which the `hash` action uses too.
public enum SHA256 {
  /// The digest of `bytes` as 64 lowercase hex digits.
  public static func hex(_ bytes: some Collection<UInt8>) -> String {
    Digest.hex(Digest.sha256(Array(bytes)))
  }
}
