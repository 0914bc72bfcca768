//! The public surface of kwire, guarded against accidental growth:
//! every public item, one a line, in `tests/public_api.txt`.
//!
//! When the surface changes on purpose, refresh the list and review the
//! diff with the change:
//!
//! ```text
//! KWIRE_BLESS=1 cargo test -p kwire --all-features --test public_api
//! ```

#[test]
fn public_api_is_the_checked_in_list() {
    // The generated modules are reviewed as generated/ itself.
    let checked = kwire_testkit::public_api::generated_modules().and_then(|generated| {
        kwire_testkit::public_api::check_package(
            env!("CARGO_MANIFEST_DIR").as_ref(),
            env!("CARGO_PKG_NAME"),
            &generated,
        )
    });
    if let Err(failure) = checked {
        panic!("{failure}");
    }
}
