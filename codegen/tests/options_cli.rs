//! `Options` as a `clap::Args` (feature `cli`): another tool's command line
//! flattens it and gets the compiler's flags.

use clap::Parser;
use kwire_codegen::Options;

#[derive(Parser)]
struct Gen {
    #[command(flatten)]
    options: Options,
}

#[test]
fn a_command_line_fills_the_options() {
    let args = ["gen", "--samples", "--json", "--api-keys", "0,18", "--sensitive-fields", "A.B,C.D"];
    let parsed = Gen::try_parse_from(args).expect("the flags parse");
    let expected = Options {
        samples: true,
        json: true,
        api_keys: Some(vec![0, 18]),
        sensitive_fields: vec!["A.B".into(), "C.D".into()],
        ..Options::default()
    };
    assert_eq!(parsed.options, expected);
    assert_eq!(Gen::try_parse_from(["gen"]).expect("no flags").options, Options::default());
    assert!(Gen::try_parse_from(["gen", "--api-keys", "x"]).is_err());
}
