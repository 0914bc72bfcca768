//! How the targets that take an api key and version from their input
//! choose them: an index into the api-key table and an offset from the
//! api's lowest version, each wrapped into range.

use kwire::api::{ApiInfo, API_INFO};

/// The api at `index` and its version at `offset` (both modulo their range).
pub fn api_version(index: u8, offset: u8) -> (&'static ApiInfo, i16) {
    let info = &API_INFO[index as usize % API_INFO.len()];
    let span = (info.valid_versions.max - info.valid_versions.min + 1) as usize;
    (info, info.valid_versions.min + (offset as usize % span) as i16)
}
