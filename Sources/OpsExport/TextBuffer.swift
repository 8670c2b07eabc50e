import OpsEngine
import OpsEvents

/// Output built as UTF-8 bytes. The big exports (50,000 operations make tens of megabytes) are
/// written several times faster this way than by appending interpolated Strings.
struct TextBuffer {
  private(set) var bytes: [UInt8] = []

  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  var string: String { String(decoding: bytes, as: UTF8.self) }

  mutating func add(_ s: String) {
    var s = s
    s.withUTF8 { bytes.append(contentsOf: $0) }
  }

  mutating func add(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = value.magnitude
    var divisor: UInt = 1
    while divisor <= magnitude / 10 { divisor *= 10 }
    var rest = magnitude
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    } while divisor > 0
  }

  /// Seconds with three decimals, as `fixed3` writes them (the same integer arithmetic).
  mutating func addFixed3(_ seconds: Double) {
    let units = Int64((seconds * 1000).rounded())
    if units < 0 { bytes.append(UInt8(ascii: "-")) }
    let u = units.magnitude
    add(Int(u / 1000))
    bytes.append(UInt8(ascii: "."))
    let fraction = Int(u % 1000)
    if fraction < 100 { bytes.append(UInt8(ascii: "0")) }
    if fraction < 10 { bytes.append(UInt8(ascii: "0")) }
    add(fraction)
  }

  /// A number with at most one decimal (SVG coordinates), computed in integers so it never varies.
  mutating func addDecimal1(_ value: Double) {
    let tenths = Int((value * 10).rounded())
    if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
    add(abs(tenths) / 10)
    if abs(tenths) % 10 != 0 {
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0") + UInt8(abs(tenths) % 10))
    }
  }

  /// A quoted JSON string, escaped as the engine's event lines are (one writer for all JSON text).
  mutating func addJSON(_ s: String) { JSONValue.writeString(s, into: &bytes) }

  /// XML text or attribute content (`Escape.xml` when anything needs escaping).
  mutating func addXML(_ s: String) {
    let plain = s.utf8.allSatisfy { byte in
      switch byte {
      case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""),
        UInt8(ascii: "'"):
        false
      // 0xEF may start U+FFFE or U+FFFF, which XML forbids: Escape.xml replaces them.
      case UInt8(ascii: "\n"), UInt8(ascii: "\t"): true
      default: byte >= 0x20 && byte != 0xEF
      }
    }
    if plain {
      add(s)
    } else {
      add(Escape.xml(s))
    }
  }
}
