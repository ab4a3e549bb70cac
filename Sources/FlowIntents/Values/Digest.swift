import CSodium
import FlowDiagnostics
import FoundationEssentials
import Glibc

/// The digests of the `hash` action, and the one SHA-256, which also gives the content hash run history
/// keeps, the names of lock files, the MCP tool caches' keys and the signing keys' fingerprints.
///
/// SHA-256 and SHA-512 are libsodium's (`flow` links it for Ed25519 anyway); libsodium has no MD5 or
/// SHA-1, so those two are written out here, small, fixed by their RFCs and checked against their test
/// vectors. They name content (checksums, cache keys); nothing here is for secrets.
public enum Digest {
  // No `sodium_init` before these: libsodium has one SHA-2 implementation, chosen when it is built, and
  // it uses no randomness and no state the call does not pass in. `sodium_init` picks the fastest code
  // for other primitives and seeds the random generator: 4,100 instructions and two getrandom(2) calls
  // (libsodium 1.0.18, callgrind and strace), which every run would otherwise pay for its lock file.

  /// The SHA-256 of `bytes` in lowercase hex, as `sha256sum` prints it, so that a person can check a
  /// content hash by hand.
  public static func sha256Hex(_ bytes: [UInt8]) -> String { Hex.encode(sha256(bytes)) }

  public static func sha256(_ message: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
    _ = crypto_hash_sha256(&digest, message, UInt64(message.count))
    return digest
  }

  public static func sha512(_ message: [UInt8]) -> [UInt8] {
    var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha512_BYTES))
    _ = crypto_hash_sha512(&digest, message, UInt64(message.count))
    return digest
  }

  /// The message padded to whole 64-byte blocks: a 1 bit, zeros, and the length in bits in 8 bytes.
  private static func padded(_ message: [UInt8], bigEndian: Bool) -> [UInt8] {
    var data = message
    data.append(0x80)
    while data.count % 64 != 56 { data.append(0) }
    let bits = UInt64(message.count) &* 8
    for index in 0..<8 as Range<UInt64> {
      data.append(UInt8(truncatingIfNeeded: bits >> (bigEndian ? 56 - 8 * index : 8 * index)))
    }
    return data
  }

  private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }

  // RFC 1321.
  public static func md5(_ message: [UInt8]) -> [UInt8] {
    let shifts: [UInt32] = [
      7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
      14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15,
      21, 6, 10, 15, 21,
    ]
    // floor(abs(sin(i + 1)) * 2^32), as the RFC defines the table.
    let constants: [UInt32] = (0..<64).map {
      UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296))
    }
    var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]
    let data = padded(message, bigEndian: false)
    for blockStart in stride(from: 0, to: data.count, by: 64) {
      let words = (0..<16).map { index in
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[blockStart + index * 4 + $1]) << (8 * UInt32($1)) }
      }
      var (a, b, c, d) = (state[0], state[1], state[2], state[3])
      for round in 0..<64 {
        var f: UInt32
        let g: Int
        switch round {
        case 0..<16: (f, g) = ((b & c) | (~b & d), round)
        case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * round + 1) % 16)
        case 32..<48: (f, g) = (b ^ c ^ d, (3 * round + 5) % 16)
        default: (f, g) = (c ^ (b | ~d), (7 * round) % 16)
        }
        f = f &+ a &+ constants[round] &+ words[g]
        (a, d, c) = (d, c, b)
        b = b &+ rotl(f, shifts[round])
      }
      state[0] = state[0] &+ a
      state[1] = state[1] &+ b
      state[2] = state[2] &+ c
      state[3] = state[3] &+ d
    }
    return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
  }

  private static func bigEndianWords32(_ data: [UInt8], at start: Int) -> [UInt32] {
    (0..<16).map { index in
      (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(data[start + index * 4 + $1]) }
    }
  }

  private static func bytes(_ words: [UInt32]) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(words.count * 4)
    for word in words {
      for shift in stride(from: 24 as UInt32, through: 0, by: -8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> shift))
      }
    }
    return bytes
  }

  // RFC 3174.
  public static func sha1(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
    let data = padded(message, bigEndian: true)
    for blockStart in stride(from: 0, to: data.count, by: 64) {
      var w = bigEndianWords32(data, at: blockStart)
      for t in 16..<80 { w.append(rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1)) }
      var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
      for t in 0..<80 {
        let (f, k): (UInt32, UInt32) =
          switch t {
          case 0..<20: ((b & c) | (~b & d), 0x5a82_7999)
          case 20..<40: (b ^ c ^ d, 0x6ed9_eba1)
          case 40..<60: ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
          default: (b ^ c ^ d, 0xca62_c1d6)
          }
        let temp = rotl(a, 5) &+ f &+ e &+ k &+ w[t]
        (e, d, c, b, a) = (d, c, rotl(b, 30), a, temp)
      }
      for (index, value) in [a, b, c, d, e].enumerated() { state[index] = state[index] &+ value }
    }
    return bytes(state)
  }
}
