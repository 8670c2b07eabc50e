// swift-tools-version: 6.1
import PackageDescription

// Homebrew's ncurses is keg-only (not in the default search paths): pkg-config, which SwiftPM points
// at the keg of the brew provider below, finds it. On Linux the system paths hold ncursesw, and
// pkg-config would only add -D_DEFAULT_SOURCE -D_XOPEN_SOURCE=600, flags SwiftPM drops with a
// warning (shim.h asks for the wide API itself): there it is left out.
#if os(macOS)
  let ncursesPkgConfig: String? = "ncursesw"
#else
  let ncursesPkgConfig: String? = nil
#endif

let package = Package(
  name: "opsview",
  // Synchronization's Mutex needs macOS 15.
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "OpsEvents", targets: ["OpsEvents"]),
    .library(name: "OpsEngine", targets: ["OpsEngine"]),
    .library(name: "OpsProbe", targets: ["OpsProbe"]),
    .executable(name: "opsview", targets: ["opsview"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
  ],
  targets: [
    // The event contract: events, causes, commands and their values, with the JSON and text
    // encodings. Everything that reads or writes events depends on this and nothing else.
    .target(name: "OpsEvents"),
    // The operation engine: the state machine, the virtual and the live runtime, the projection.
    // No terminal code.
    .target(
      name: "OpsEngine",
      dependencies: [
        "OpsEvents",
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      exclude: ["Speed/README.md"]),
    // What comes from outside, read one way: the text policy for every name and every byte that
    // reaches a terminal or a handout, the validator of event streams (recordings, probes), and
    // the opening of input files.
    .target(name: "OpsInput", dependencies: ["OpsEvents", "OpsEngine"]),
    // Scenarios: the format, loader and built-in catalogue (embedded by a build plugin).
    .target(
      name: "OpsScenarios",
      dependencies: [
        "OpsEvents", "OpsEngine", "OpsInput", .product(name: "Yams", package: "Yams"),
      ],
      plugins: ["EmbedScenariosPlugin"]
    ),
    .executableTarget(name: "ScenarioEmbedder"),
    .plugin(
      name: "EmbedScenariosPlugin", capability: .buildTool(), dependencies: ["ScenarioEmbedder"]),
    // The cells, keys and board contract shared by the board and the terminal, so the terminal
    // needs no board.
    .target(name: "OpsCells"),
    // The board: its model (the engine's projection plus the log pane), layout and rendering into
    // cells. No curses.
    .target(name: "OpsBoard", dependencies: ["OpsEvents", "OpsEngine", "OpsCells", "OpsInput"]),
    // Exports for handouts and other tools (Perfetto, Graphviz, Mermaid, SVG, Markdown), read from
    // the engine's projection.
    .target(name: "OpsExport", dependencies: ["OpsEvents", "OpsEngine", "OpsInput"]),
    // Lets `opsview attach` see a program: a Unix-socket probe and an observed OperationQueue.
    .target(name: "OpsProbe", dependencies: ["OpsEvents", "OpsEngine", "OpsInput"]),
    // A small photo pipeline on OperationQueue, to attach to (`swift run opsview-example-photos`).
    .executableTarget(name: "opsview-example-photos", dependencies: ["OpsProbe"]),
    // The terminal: the only code that touches ncursesw.
    .systemLibrary(
      name: "CNCursesW", pkgConfig: ncursesPkgConfig,
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
    // Signal handlers and their state, in C (async-signal-safe code, one copy of the state); it
    // includes curses.h, found where CNCursesW finds it.
    .target(name: "CTerminalSignals", dependencies: ["CNCursesW"]),
    .target(name: "OpsTerminal", dependencies: ["OpsCells", "CNCursesW", "CTerminalSignals"]),
    // The command line.
    .executableTarget(
      name: "opsview",
      dependencies: [
        "OpsEvents", "OpsEngine", "OpsInput", "OpsScenarios", "OpsBoard", "OpsTerminal",
        "OpsExport", "OpsProbe",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The loader under libFuzzer (.ci/fuzz builds it with -sanitize=fuzzer -D FUZZING); otherwise a
    // replayer of inputs (the seed corpus in Fuzz/corpus, crash reproducers).
    .executableTarget(name: "ScenarioFuzzer", dependencies: ["OpsScenarios", "FuzzHarness"]),
    // The two fuzz targets' shared main: libFuzzer's driver, or a replayer of files.
    .target(name: "FuzzHarness"),
    // The recording reader under libFuzzer, and what it feeds (exports, the board), the same way:
    // .ci/fuzz builds it instrumented; otherwise a replayer of Fuzz/recordings.
    .executableTarget(
      name: "RecordingFuzzer",
      dependencies: ["OpsExport", "OpsBoard", "OpsCells", "OpsEvents", "OpsEngine", "FuzzHarness"]),
    // Release-build benchmark: live runtime vs Foundation.OperationQueue, virtual runtime throughput,
    // frame rendering, exports, and the probe's overhead (`opsview-bench probe`).
    .executableTarget(
      name: "opsview-bench",
      dependencies: ["OpsEvents", "OpsEngine", "OpsScenarios", "OpsBoard", "OpsExport", "OpsProbe"]),
    // What several test targets share: a raw probe viewer, the fuzzers' seed corpora, waiting on a
    // thread of its own.
    .target(name: "OpsTestSupport", path: "Tests/OpsTestSupport"),
    .testTarget(
      name: "OpsEngineTests",
      dependencies: [
        "OpsEvents", "OpsEngine", "OpsInput", "OpsTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "OpsEventsTests", dependencies: ["OpsEvents"]),
    .testTarget(name: "OpsInputTests", dependencies: ["OpsInput", "OpsEvents", "OpsEngine"]),
    .testTarget(
      name: "OpsScenariosTests",
      dependencies: ["OpsScenarios", "OpsEvents", "OpsEngine", "OpsInput", "OpsTestSupport"],
      resources: [.copy("Malformed")]),
    .testTarget(
      name: "OpsBoardTests",
      dependencies: [
        "OpsBoard", "OpsScenarios", "OpsEvents", "OpsEngine", "OpsExport", "OpsTestSupport",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(
      name: "OpsExportTests", dependencies: ["OpsExport", "OpsScenarios", "OpsEvents", "OpsEngine"]),
    .testTarget(
      name: "OpsProbeTests", dependencies: ["OpsProbe", "OpsEvents", "OpsEngine", "OpsTestSupport"]),
    .testTarget(name: "OpsTerminalTests", dependencies: ["OpsTerminal", "OpsCells"]),
    .testTarget(name: "EndToEndTests", dependencies: ["opsview", "OpsTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
