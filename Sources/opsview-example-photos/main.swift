import Foundation
import OpsProbe

// A small photo pipeline on OperationQueue, to watch with `opsview attach`: downloads on a queue of
// two, a decode for each depending on its download, and a serial UI queue that shows each photo.
// `--batches N` (default: forever), `--read-only` (refuse steering from the viewer) and `--buffer N`
// (events the probe keeps for viewers; a small one shows how a late viewer is caught up).

let arguments = CommandLine.arguments
let readOnly = arguments.contains("--read-only")
let batches = arguments.firstIndex(of: "--batches").flatMap { Int(arguments[$0 + 1]) } ?? .max

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let buffer = arguments.firstIndex(of: "--buffer").flatMap { Int(arguments[$0 + 1]) } ?? 200_000

// `--tcp PORT`: listen on loopback TCP instead of a Unix socket (0: any free port).
let tcpPort = arguments.firstIndex(of: "--tcp").flatMap { UInt16(arguments[$0 + 1]) }

// The one line that makes the program visible to `opsview attach`. It never throws: when the probe
// cannot start, it says why through `log` and the program runs on, unobserved.
let probe = Probe.start(
  program: "photos", control: !readOnly, capacity: max(buffer, 1),
  transport: tcpPort.map { .tcp(port: $0) } ?? .unixSocket, log: say)
if let probe {
  say("photos: probe at \(probe.path)\(readOnly ? " (read-only)" : "")")
}

final class Downloads: ObservedOperationQueue, @unchecked Sendable {
  override var isSuspended: Bool {
    get { super.isSuspended }
    set {
      super.isSuspended = newValue
      say("photos: downloads \(newValue ? "suspended" : "resumed")")
    }
  }
}

let downloads = Downloads(name: "downloads", maxConcurrent: 2)
let decoding = ObservedOperationQueue(name: "decoding")
let ui = ObservedOperationQueue(name: "ui", maxConcurrent: 1)

/// Work that notices cancellation every 50 ms, as real work should.
final class Step: Operation, @unchecked Sendable {
  let seconds: Double
  init(_ name: String, seconds: Double) {
    self.seconds = seconds
    super.init()
    self.name = name
  }
  override func cancel() {
    say("photos: \(name!) cancelled")
    super.cancel()
  }
  override func main() {
    let end = Date().addingTimeInterval(seconds)
    while Date() < end {
      if isCancelled { return }
      usleep(50_000)
    }
  }
}

// Each batch waits for its four photos to be shown. Not `ui.waitUntilAllOperationsAreFinished()`:
// swift-corelibs-foundation's can miss the last finish and wait forever (`opsview-bench probe` hit it).
let shown = DispatchSemaphore(value: 0)
var batch = 0
var lastShows: [Operation] = []
while batch < batches {
  batch += 1
  lastShows = []
  for i in 1...4 {
    let photo = "photo\(batch)-\(i)"
    let download = Step("download \(photo)", seconds: 1.5 + Double(i % 3))
    let decode = Step("decode \(photo)", seconds: 1)
    decode.addDependency(download)
    let show = BlockOperation {
      say("photos: showing \(photo)")
      shown.signal()
    }
    show.name = "show \(photo)"
    show.addDependency(decode)
    lastShows.append(show)
    downloads.addOperation(download)
    decoding.addOperation(decode)
    ui.addOperation(show)
  }
  for _ in 1...4 { shown.wait() }
}
// The last show has signalled from inside its block: it finishes before the probe's last sample.
for show in lastShows { show.waitUntilFinished() }
probe?.stop()
say("photos: done")
