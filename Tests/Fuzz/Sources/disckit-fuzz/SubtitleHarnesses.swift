import DiscKitFuzzHarnesses
@_spi(Fuzzing) import DiscKitSubtitles

/// PGS display sets (a `.sup` file, or PES payloads) through ``PGSDecoder`` and the OCR's
/// preparation (DiscKitSubtitles' `SubtitleFuzzHarness`, which `DiscKitSubtitlesTests` replays
/// the kept inputs through).
let pgsHarness = FuzzHarness(name: "pgs") { SubtitleFuzzHarness.pgs($0) }

/// A DVD subpicture unit through ``DVDSubpictureDecoder`` and the OCR's preparation.
let dvdsubHarness = FuzzHarness(name: "dvdsub") { SubtitleFuzzHarness.dvdSubpicture($0) }
