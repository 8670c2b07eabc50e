import Dispatch
import Foundation
import OpsEngine
import OpsEvents

/// Counts delivered events. Touched only on the runtime's delivery queue, read after `flushDeliveries`.
final class EventCounter: @unchecked Sendable {
  var count = 0
}

struct Measurement {
  var seconds: Double
  var events: Int
}

func seconds(since start: DispatchTime) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1_000_000_000
}
