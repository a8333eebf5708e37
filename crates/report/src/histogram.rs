//! A result file's latency histograms read back: HdrHistogram's V2 deflate format in base64, as
//! the result contract fixes it (`Histograms`). dbpress-measure writes them; the renderers read
//! them here with the same two libraries, so a report needs nothing of the measuring side.

use base64::Engine;
use hdrhistogram::serialization::Deserializer;
use hdrhistogram::Histogram;

/// The histogram `s` encodes; None when it is not one.
pub fn decode(s: &str) -> Option<Histogram<u64>> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(s).ok()?;
    Deserializer::new().deserialize(&mut bytes.as_slice()).ok()
}
