/// Numbers written as ASCII digits straight into a byte buffer: trace writers print hundreds of
/// thousands of them, and a `String` per number costs more than the digits.
enum DecimalBytes {
  /// The decimal digits of `value`. Written into a small buffer of their own, last digit first,
  /// and appended once: reversing them in place through `out[start...]` copied that slice (a
  /// slice of a shared buffer), an allocation per number.
  static func append(_ value: UInt64, to out: inout [UInt8]) {
    if value < 10 {
      out.append(UInt8(ascii: "0") + UInt8(value))
      return
    }
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var i = 20
      var v = value
      repeat {
        i -= 1
        digits[i] = UInt8(ascii: "0") + UInt8(v % 10)
        v /= 10
      } while v > 0
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<20]))
    }
  }

  /// `String(value)`'s bytes: the digits, after a minus sign if negative.
  static func append(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    append(UInt64(value.magnitude), to: &out)
  }

  /// Seconds in their shortest form at microsecond resolution ("0", "1.5", "0.000001", "-2.125"):
  /// `formatSeconds` and every trace write them this way.
  /// Beyond ±9e12 s (no count of microseconds fits 64 bits) and for nan or inf, Swift's own
  /// description: no input reaches that (readers bound times to the clock's end), but a writer must
  /// not trap.
  static func appendSeconds(_ seconds: Double, to out: inout [UInt8]) {
    guard abs(seconds) < 9e12 else {
      out.append(contentsOf: String(seconds).utf8)
      return
    }
    let micros = Int64((seconds * 1_000_000).rounded())
    if micros < 0 { out.append(UInt8(ascii: "-")) }
    let m = micros.magnitude
    append(m / 1_000_000, to: &out)
    var frac = m % 1_000_000
    guard frac != 0 else { return }
    var count = 6
    while frac % 10 == 0 {
      frac /= 10
      count -= 1
    }
    // The point and `count` digits, zeros kept in front: 0.05 s is 50,000 µs, written ".05".
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 7) { digits in
      digits[0] = UInt8(ascii: ".")
      var i = count
      while i > 0 {
        digits[i] = UInt8(ascii: "0") + UInt8(frac % 10)
        frac /= 10
        i -= 1
      }
      out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[0...count]))
    }
  }
}
