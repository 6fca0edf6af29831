import Foundation

/// Episodes (issue 27): `disckit titles`, which now also lists the episodes, as a whole process on
/// the episodic real Blu-rays (bdpl's anime discs) against `bd_list_titles`, and on the generated
/// episodic DVDs against `lsdvd` (hyperfine medians).
let episodeBenchmarks: [Benchmark] = [
  Benchmark(
    name: "titles-episodes",
    summary:
      "disckit titles (with episodes) on the episodic real Blu-rays vs bd_list_titles, and on the episodic generated DVDs vs lsdvd"
  ) {
    let disckit = try Startup.disckit()
    let discs = try Startup.realBlurays().filter {
      ($0 as NSString).lastPathComponent.hasPrefix("bdpl_disc")
    }
    var ratios: [Double] = []
    for path in discs {
      let times = try Startup.hyperfineTimes(
        [[disckit, "titles", path], ["bd_list_titles", path]], runs: Startup.runs)
      ratios.append(times[0].median / times[1].median)
      Startup.report(
        "titles \((path as NSString).lastPathComponent)", disckit: times[0].median,
        reference: times[1].median, referenceName: "bd_list_titles")
    }
    print(
      String(
        format:
          "   episodic Blu-rays: %d discs, ratio disckit/bd_list_titles median %.2f, max %.2f",
        ratios.count, Startup.median(ratios), ratios.max() ?? .nan))
    for name in [
      "dvd-episodes-playall", "dvd-episodes-copies", "dvd-episodes-chapters", "dvd-episodes-gprm",
      "dvd-episodes-pgcs", "dvd-episodes-linkptt",
    ] {
      let dvd = "TestImages/generated/" + name
      guard FileManager.default.fileExists(atPath: dvd) else { continue }
      let times = try Startup.hyperfineTimes(
        [[disckit, "titles", dvd], ["lsdvd", dvd]], runs: Startup.runs)
      Startup.report(
        "titles \(name) (DVD)", disckit: times[0].median, reference: times[1].median,
        referenceName: "lsdvd")
    }
  }
]
