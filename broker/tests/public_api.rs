//! The public surface of kwire-broker, guarded against accidental growth:
//! every public item, one a line, in `tests/public_api.txt`.
//!
//! When the surface changes on purpose, refresh the list and review the
//! diff with the change:
//!
//! ```text
//! KWIRE_BLESS=1 cargo test -p kwire-broker --all-features --test public_api
//! ```

#[test]
fn public_api_is_the_checked_in_list() {
    let checked =
        kwire_testkit::public_api::check_package(env!("CARGO_MANIFEST_DIR").as_ref(), env!("CARGO_PKG_NAME"), &[]);
    if let Err(failure) = checked {
        panic!("{failure}");
    }
}
