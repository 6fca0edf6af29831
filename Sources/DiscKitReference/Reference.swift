/// Bridges to the C reference libraries (libudfread, libbluray, libdvdread).
///
/// DiscKit itself never calls these: they are the independent oracles that tests,
/// `disckit crosscheck` and the benchmark compare DiscKit against.
public enum Reference {}
