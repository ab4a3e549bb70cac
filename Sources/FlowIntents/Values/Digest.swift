import Foundation

/// MD5, SHA-1, SHA-256 and SHA-512 in plain Swift: the `hash` action, and the content hash run history
/// keeps and lock files are named by (`FlowLibrary.SHA256`), so there is one implementation of each.
///
/// Written out rather than linked: only FlowSharing signs, through libsodium, and these digests are
/// small, fixed by their RFCs, and checked against their test vectors. They name content (checksums,
/// cache keys); nothing here is for secrets.
package enum Digest {
  package static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The message padded to whole blocks: a 1 bit, zeros, and the length in bits in `lengthBytes` bytes.
  private static func padded(_ message: [UInt8], block: Int, lengthBytes: Int, bigEndian: Bool) -> [UInt8] {
    var data = message
    data.append(0x80)
    while data.count % block != block - lengthBytes { data.append(0) }
    let bits = UInt64(message.count) &* 8
    var length = [UInt8](repeating: 0, count: lengthBytes)
    for index in 0..<8 {
      let byte = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))
      if bigEndian { length[lengthBytes - 1 - index] = byte } else { length[index] = byte }
    }
    return data + length
  }

  private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
  private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
  private static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 { (x >> n) | (x << (64 - n)) }

  // RFC 1321.
  package static func md5(_ message: [UInt8]) -> [UInt8] {
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
    let data = padded(message, block: 64, lengthBytes: 8, bigEndian: false)
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
  package static func sha1(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
    let data = padded(message, block: 64, lengthBytes: 8, bigEndian: true)
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

  private static let sha256K: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  // FIPS 180-4. Every run computes two (its lock file's name and history's content hash), so this one
  // works in place: eight variables and one 64-word schedule, where arrays made per round cost 80,000
  // instructions for a short path.
  package static func sha256(_ message: [UInt8]) -> [UInt8] {
    var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    let data = padded(message, block: 64, lengthBytes: 8, bigEndian: true)
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
      for blockStart in stride(from: 0, to: data.count, by: 64) {
        for t in 0..<16 {
          let at = blockStart + t * 4
          w[t] =
            UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
        }
        for t in 16..<64 {
          let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
          let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
          w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        for t in 0..<64 {
          let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
          let choice = (e & f) ^ (~e & g)
          let temp1 = h &+ s1 &+ choice &+ sha256K[t] &+ w[t]
          let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
          let majority = (a & b) ^ (a & c) ^ (b & c)
          (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ s0 &+ majority)
        }
        state = (
          state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e, state.5 &+ f, state.6 &+ g,
          state.7 &+ h
        )
      }
    }
    return bytes([state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7])
  }

  private static let sha512K: [UInt64] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
  ]

  // FIPS 180-4; the length field is 16 bytes, of which a message in memory fills the last 8.
  package static func sha512(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt64] = [
      0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1, 0x510e527fade682d1,
      0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]
    let data = padded(message, block: 128, lengthBytes: 16, bigEndian: true)
    for blockStart in stride(from: 0, to: data.count, by: 128) {
      var w: [UInt64] = (0..<16).map { index in
        (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(data[blockStart + index * 8 + $1]) }
      }
      for t in 16..<80 {
        let s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7)
        let s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6)
        w.append(w[t - 16] &+ s0 &+ w[t - 7] &+ s1)
      }
      var v = state
      for t in 0..<80 {
        let s1 = rotr(v[4], 14) ^ rotr(v[4], 18) ^ rotr(v[4], 41)
        let choice = (v[4] & v[5]) ^ (~v[4] & v[6])
        let temp1 = v[7] &+ s1 &+ choice &+ sha512K[t] &+ w[t]
        let s0 = rotr(v[0], 28) ^ rotr(v[0], 34) ^ rotr(v[0], 39)
        let majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2])
        v = [temp1 &+ s0 &+ majority, v[0], v[1], v[2], v[3] &+ temp1, v[4], v[5], v[6]]
      }
      for index in 0..<8 { state[index] = state[index] &+ v[index] }
    }
    return state.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64($0))) } }
  }
}
