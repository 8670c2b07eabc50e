/// Numbers written as ASCII digits straight into a byte buffer: trace writers print hundreds of
/// thousands of them, and a `String` per number costs more than the digits.
enum DecimalBytes {
  /// The decimal digits of `value`.
  static func append(_ value: UInt64, to out: inout [UInt8]) {
    let start = out.count
    var v = value
    repeat {
      out.append(UInt8(ascii: "0") + UInt8(v % 10))
      v /= 10
    } while v > 0
    out[start...].reverse()
  }

  /// `formatSeconds(seconds)`'s bytes: shortest form at microsecond resolution.
  static func appendSeconds(_ seconds: Double, to out: inout [UInt8]) {
    let micros = Int64((seconds * 1_000_000).rounded())
    if micros < 0 { out.append(UInt8(ascii: "-")) }
    let m = UInt64(abs(micros))
    append(m / 1_000_000, to: &out)
    var frac = m % 1_000_000
    guard frac != 0 else { return }
    var digits = 6
    while frac % 10 == 0 {
      frac /= 10
      digits -= 1
    }
    out.append(UInt8(ascii: "."))
    var width = 1
    var rest = frac / 10
    while rest > 0 {
      width += 1
      rest /= 10
    }
    out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - width))
    append(frac, to: &out)
  }
}
