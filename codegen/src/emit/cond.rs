//! Version conditions: the check a field needs, given the versions in
//! which it applies and the versions still possible at that point. Emits
//! nothing where the range settles it, a one-sided check where one bound
//! is enough, a two-sided check otherwise.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::versions::Versions;

/// The outcome of testing `version` against a set, within known bounds.
#[derive(Debug, Clone)]
pub enum Cond {
    /// True for every version still possible.
    Always,
    /// False for every version still possible.
    Never,
    /// Depends on the version: a boolean expression over `version`, and
    /// its negation written as plainly.
    When(TokenStream, TokenStream),
}

impl Cond {
    /// The test of `version ∈ set`, given `version ∈ within`.
    pub fn new(set: Versions, within: Versions) -> Cond {
        let here = set.intersect(within);
        if here.is_empty() {
            return Cond::Never;
        }
        let (lo, hi) = (here.lo > within.lo, here.hi < within.hi);
        let (l, h) = (Literal::i16_unsuffixed(here.lo), Literal::i16_unsuffixed(here.hi));
        match (lo, hi) {
            (false, false) => Cond::Always,
            (true, false) => Cond::When(quote!(version >= #l), quote!(version < #l)),
            (false, true) => Cond::When(quote!(version <= #h), quote!(version > #h)),
            (true, true) if here.lo == here.hi => Cond::When(quote!(version == #l), quote!(version != #l)),
            (true, true) => Cond::When(quote!((#l..=#h).contains(&version)), quote!(!(#l..=#h).contains(&version))),
        }
    }

    /// `body` guarded by the condition: bare, inside an `if`, or nothing.
    pub fn guard(&self, body: TokenStream) -> TokenStream {
        match self {
            Cond::Always => body,
            Cond::Never => TokenStream::new(),
            Cond::When(e, _) => quote!(if #e { #body }),
        }
    }

    /// The condition as a boolean expression.
    pub fn expr(&self) -> TokenStream {
        match self {
            Cond::Always => quote!(true),
            Cond::Never => quote!(false),
            Cond::When(e, _) => e.clone(),
        }
    }

    /// `cond && rest`, simplified.
    pub fn and(&self, rest: TokenStream) -> TokenStream {
        match self {
            Cond::Always => rest,
            Cond::Never => quote!(false),
            Cond::When(e, _) => quote!(#e && #rest),
        }
    }

    /// `!cond && rest`, simplified; `None` when it can never hold.
    pub fn and_not(&self, rest: TokenStream) -> Option<TokenStream> {
        match self {
            Cond::Always => None,
            Cond::Never => Some(rest),
            Cond::When(_, not) => Some(quote!(#not && #rest)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Versions {
        s.parse().unwrap()
    }

    fn text(c: &Cond) -> String {
        match c {
            Cond::Always => "always".into(),
            Cond::Never => "never".into(),
            Cond::When(e, _) => e.to_string(),
        }
    }

    #[test]
    fn each_range_case() {
        assert_eq!(text(&Cond::new(v("0+"), v("0-12"))), "always");
        assert_eq!(text(&Cond::new(v("3+"), v("3-5"))), "always");
        assert_eq!(text(&Cond::new(v("13+"), v("0-12"))), "never");
        assert_eq!(text(&Cond::new(v("none"), v("0-12"))), "never");
        assert_eq!(text(&Cond::new(v("4+"), v("0-12"))), "version >= 4");
        assert_eq!(text(&Cond::new(v("0-3"), v("0-12"))), "version <= 3");
        assert_eq!(text(&Cond::new(v("2-3"), v("0-12"))), "(2 ..= 3) . contains (& version)");
        assert_eq!(text(&Cond::new(v("2"), v("0-12"))), "version == 2");
        // The narrowed range settles what the outer check already tested.
        assert_eq!(text(&Cond::new(v("4+"), v("4-12"))), "always");
    }
}
