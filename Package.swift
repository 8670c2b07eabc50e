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
    // Room 1: the operation engine. No terminal code.
    .target(
      name: "OpsEngine",
      dependencies: [
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
      ]),
    // What comes from outside, read one way: the text policy for every name and every byte that
    // reaches a terminal or a handout, the validator of event streams (recordings, probes), and
    // the opening of input files.
    .target(name: "OpsInput", dependencies: ["OpsEngine"]),
    // Room 2: the scenario format, loader and built-in catalogue (embedded by a build plugin).
    .target(
      name: "OpsScenarios",
      dependencies: ["OpsEngine", "OpsInput", .product(name: "Yams", package: "Yams")],
      plugins: ["EmbedScenariosPlugin"]
    ),
    .executableTarget(name: "ScenarioEmbedder"),
    .plugin(
      name: "EmbedScenariosPlugin", capability: .buildTool(), dependencies: ["ScenarioEmbedder"]),
    // The cells, keys and board contract shared by rooms 3 and 4, so the terminal needs no board.
    .target(name: "OpsCells"),
    // Room 3: the board model (the engine's projection plus the log pane), layout and rendering into cells. No curses.
    .target(name: "OpsBoard", dependencies: ["OpsEngine", "OpsCells", "OpsInput"]),
    // Exports for handouts and other tools (Perfetto, Graphviz, Mermaid, SVG, Markdown), read from
    // the engine's projection.
    .target(name: "OpsExport", dependencies: ["OpsEngine", "OpsInput"]),
    // Lets `opsview attach` see a program: a Unix-socket probe and an observed OperationQueue.
    .target(name: "OpsProbe", dependencies: ["OpsEngine", "OpsInput"]),
    // A small photo pipeline on OperationQueue, to attach to (`swift run opsview-example-photos`).
    .executableTarget(name: "opsview-example-photos", dependencies: ["OpsProbe"]),
    // Room 4: the only code that touches ncursesw.
    .systemLibrary(
      name: "CNCursesW", pkgConfig: ncursesPkgConfig,
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
    // Signal handlers and their state, in C (async-signal-safe code, one copy of the state); it
    // includes curses.h, found where CNCursesW finds it.
    .target(name: "CTerminalSignals", dependencies: ["CNCursesW"]),
    .target(name: "OpsTerminal", dependencies: ["OpsCells", "CNCursesW", "CTerminalSignals"]),
    // Room 5: the command line.
    .executableTarget(
      name: "opsview",
      dependencies: [
        "OpsEngine", "OpsInput", "OpsScenarios", "OpsBoard", "OpsTerminal", "OpsExport", "OpsProbe",
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
      dependencies: ["OpsExport", "OpsBoard", "OpsCells", "OpsEngine", "FuzzHarness"]),
    // Release-build benchmark: live runtime vs Foundation.OperationQueue, virtual runtime throughput,
    // frame rendering, exports, and the probe's overhead (`opsview-bench probe`).
    .executableTarget(
      name: "opsview-bench",
      dependencies: ["OpsEngine", "OpsScenarios", "OpsBoard", "OpsExport", "OpsProbe"]),
    .testTarget(
      name: "OpsEngineTests",
      dependencies: [
        "OpsEngine", "OpsInput",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(name: "OpsInputTests", dependencies: ["OpsInput", "OpsEngine"]),
    .testTarget(
      name: "OpsScenariosTests", dependencies: ["OpsScenarios", "OpsEngine", "OpsInput"],
      resources: [.copy("Malformed")]),
    .testTarget(
      name: "OpsBoardTests",
      dependencies: [
        "OpsBoard", "OpsScenarios", "OpsEngine", "OpsExport",
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ],
      exclude: ["__Snapshots__"]
    ),
    .testTarget(name: "OpsExportTests", dependencies: ["OpsExport", "OpsScenarios", "OpsEngine"]),
    .testTarget(name: "OpsProbeTests", dependencies: ["OpsProbe", "OpsEngine"]),
    .testTarget(name: "OpsTerminalTests", dependencies: ["OpsTerminal", "OpsCells"]),
    .testTarget(name: "EndToEndTests", dependencies: ["opsview"]),
  ],
  swiftLanguageModes: [.v6]
)
