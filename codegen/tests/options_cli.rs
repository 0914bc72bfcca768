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
    let args = ["gen", "--samples", "--json", "--entities", "--api-keys", "0,18", "--sensitive-fields", "A.B,C.D"];
    let parsed = Gen::try_parse_from(args).expect("the flags parse");
    let expected = Options {
        samples: true,
        json: true,
        entities: true,
        api_keys: Some(vec![0, 18]),
        sensitive_fields: vec!["A.B".into(), "C.D".into()],
        ..Options::default()
    };
    assert_eq!(parsed.options, expected);
    assert_eq!(Gen::try_parse_from(["gen"]).expect("no flags").options, Options::default());
    assert!(Gen::try_parse_from(["gen", "--api-keys", "x"]).is_err());
}

/// `gen` takes the options flattened beside its own flags.
#[test]
fn gen_args_take_the_options_and_the_facts() {
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: kwire_codegen::cli::GenArgs,
    }
    let cli = Cli::try_parse_from(["gen", "--facts", "kafka-facts.json", "--out", "generated", "--samples", "-q"])
        .expect("the flags parse");
    assert_eq!(cli.args.facts.as_deref(), Some(std::path::Path::new("kafka-facts.json")));
    assert_eq!(cli.args.out.as_deref(), Some(std::path::Path::new("generated")));
    assert!(cli.args.quiet && cli.args.inputs.is_empty());
    assert_eq!(cli.args.options, Options { samples: true, ..Options::default() });
    assert_eq!(cli.args.runtime, "::kwire");
}

/// `kwire-codegen facts FILE KEY...` prints the facts file's values, one a
/// line, key after key; an unknown key is exit 2 with nothing printed.
#[test]
fn the_facts_command_prints_one_value_a_line() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../kafka-facts.json");
    let facts = kwire_codegen::Facts::read(&file).expect("kafka-facts.json reads");
    let run = |keys: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_kwire-codegen"))
            .arg("facts")
            .arg(&file)
            .args(keys)
            .output()
            .expect("the CLI runs")
    };
    let out = run(&["release", "families", "forwardable"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let mut expected = vec![facts.release.clone()];
    expected.extend(facts.families.iter().map(|f| f.dir.clone()));
    expected.extend(facts.forwardable.iter().cloned());
    assert!(expected.len() > 3, "the file has families and forwardable apis");
    assert_eq!(String::from_utf8(out.stdout).expect("UTF-8").lines().collect::<Vec<_>>(), expected);
    let out = run(&["release", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no fact nope"));
    assert_eq!(run(&[]).status.code(), Some(2), "a key is needed");
}
