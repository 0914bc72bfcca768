//! Command-line front of kwire-codegen: arguments, summary, exit codes.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: kwire-codegen [--out DIR] [--runtime PATH] [--facts FILE] [--views] [--json] [--samples]
                          [--api-keys K,K...] [--sensitive-fields M.F,M.F...] [--quiet] SCHEMA...
       kwire-codegen diff [--breaking] OLD NEW
       kwire-codegen facts FILE KEY...

Compiles Kafka JSON message schemas (files, or directories of *.json) into Rust. With --facts
and --out and no SCHEMA, compiles everything the facts file names (its schemas, each
internal-record family into DIR/internal/MODULE) and writes the sources' fingerprint to
DIR/FINGERPRINT.
  --out DIR       write one .rs file per schema and mod.rs into DIR
                  (without it, the schemas are only checked)
  --runtime PATH  path of the runtime crate in generated code (default ::kwire)
  --facts FILE    the facts the schemas do not carry (sensitive fields, forwardable and
                  cluster-action apis), from a JSON file such as kafka-facts.json
  --views         also emit borrowed views (XRef<'a>, decoded from &'a [u8] without copying)
  --json          also emit Kafka's JSON form (ToJson/FromJson impls, as Kafka's JSON converters)
  --samples       also emit Sample impls (random values shaped to a version, for property tests)
  --api-keys LIST compile the requests and responses of these api keys only (e.g. 0,1,18);
                  the api-key table still lists every api key
  --sensitive-fields LIST
                  the fields that carry secrets, as Message.Field (e.g. SaslAuthenticateRequest.AuthBytes),
                  shown as <redacted N bytes> by Debug and the JSON form (default: none,
                  or the facts' list)
  --quiet         print only the total
Exit status: 0 on success, 1 for invalid schemas (each error names file and JSON path),
2 for bad arguments or I/O errors.

diff compares two schema sets (directories or files) version by version and prints one
line per change (file:line: JSON path: versions: rule: what changed), then a summary.
  --breaking      print only the changes that break peers running OLD
Exit status: 0 compatible, 1 breaking, 2 for bad arguments, I/O errors or invalid schemas.

facts prints facts of a facts file (such as kafka-facts.json), one value a line, for scripts:
  release, releases.NAME (a list of releases), api_groups.NAME (its apis), forwardable,
  cluster_action, sensitive_fields, families (the internal-record directories).
Exit status: 0 printed, 2 for bad arguments, an unreadable file or an unknown key.";

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("diff") => return diff(std::env::args().skip(2).collect()),
        Some("facts") => return facts(std::env::args().skip(2).collect()),
        _ => {}
    }
    let mut builder = kwire_codegen::Builder::new();
    builder.rerun_if_changed(false);
    let (mut out, mut quiet, mut inputs, mut facts_file) = (None::<PathBuf>, false, 0, None::<PathBuf>);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--out" | "-o" => match args.next() {
                Some(dir) => out = Some(dir.into()),
                None => return usage_error("--out needs a directory"),
            },
            "--runtime" => match args.next() {
                Some(path) => {
                    builder.runtime_path(&path);
                }
                None => return usage_error("--runtime needs a path"),
            },
            "--api-keys" => match args
                .next()
                .map(|list| list.split(',').map(|k| k.trim().parse()).collect::<Result<Vec<i16>, _>>())
            {
                Some(Ok(keys)) => {
                    builder.api_keys(keys);
                }
                Some(Err(_)) => return usage_error("--api-keys needs a comma-separated list of api keys (0 to 32767)"),
                None => return usage_error("--api-keys needs a list of api keys"),
            },
            "--sensitive-fields" => match args.next() {
                Some(list) => {
                    builder.sensitive_fields(list.split(',').map(str::trim).filter(|f| !f.is_empty()));
                }
                None => return usage_error("--sensitive-fields needs a list of Message.Field (\"\" for none)"),
            },
            "--quiet" | "-q" => quiet = true,
            "--views" => {
                builder.views(true);
            }
            "--json" => {
                builder.json(true);
            }
            "--samples" => {
                builder.samples(true);
            }
            "--facts" => match args.next() {
                Some(file) => match kwire_codegen::Facts::read(&file) {
                    Ok(facts) => {
                        builder.facts(&facts);
                        facts_file = Some(file.into());
                    }
                    Err(e) => return failure(e, 2),
                },
                None => return usage_error("--facts needs a file"),
            },
            flag if flag.starts_with('-') => return usage_error(&format!("unknown option {flag}")),
            input => {
                builder.input(input);
                inputs += 1;
            }
        }
    }
    if inputs == 0 {
        return match (&facts_file, &out) {
            (Some(facts), Some(dir)) => {
                match kwire_codegen::regenerate(facts, builder.options(), builder.runtime(), dir) {
                    Ok(()) => {
                        println!("generated everything {} names into {}", facts.display(), dir.display());
                        ExitCode::SUCCESS
                    }
                    Err(e) => failure(e, 1),
                }
            }
            _ => usage_error("no schemas given (or --facts FILE and --out DIR, to compile all the facts name)"),
        };
    }
    match builder.schema_files() {
        Ok(files) if files.is_empty() => {
            eprintln!("error: no *.json schema files in the inputs given");
            return ExitCode::from(2);
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    }
    let result = match &out {
        Some(dir) => builder.out_dir(dir).compile(),
        None => builder.generate(),
    };
    match result {
        Ok(generated) => {
            let (mut structs, mut fields) = (0, 0);
            // One row per message under a header, the name column as wide as the longest name.
            let width = generated.messages.iter().map(|m| m.name.len()).max().unwrap_or(0).max("message".len());
            if !quiet && !generated.messages.is_empty() {
                println!("{:<width$}  api key  versions  flexible  structs  fields", "message");
            }
            for m in &generated.messages {
                structs += m.structs;
                fields += m.fields;
                if !quiet {
                    let api = m.api_key.map(|k| k.to_string()).unwrap_or_default();
                    println!(
                        "{:<width$}  {api:>7}  {:<8}  {:<8}  {:>7}  {:>6}",
                        m.name, m.versions, m.flexible_versions, m.structs, m.fields
                    );
                }
            }
            match out {
                Some(dir) => println!(
                    "generated {} messages, {structs} structs, {fields} fields, {} files into {}",
                    generated.messages.len(),
                    generated.files.len(),
                    dir.display()
                ),
                None => println!(
                    "generated {} messages, {structs} structs, {fields} fields, {} files; checked only, nothing written (use --out DIR)",
                    generated.messages.len(),
                    generated.files.len()
                ),
            }
            ExitCode::SUCCESS
        }
        Err(e) => failure(e, 1),
    }
}

/// `diff [--breaking] OLD NEW`.
fn diff(args: Vec<String>) -> ExitCode {
    let mut breaking_only = false;
    let mut dirs = Vec::new();
    for arg in args {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--breaking" => breaking_only = true,
            flag if flag.starts_with('-') => return usage_error(&format!("unknown option {flag}")),
            dir => dirs.push(PathBuf::from(dir)),
        }
    }
    let [old, new] = dirs.as_slice() else { return usage_error("diff needs OLD and NEW") };
    match kwire_codegen::diff(old, new) {
        Ok(mut report) => {
            if breaking_only {
                report.findings.retain(|f| f.rule.is_breaking());
            }
            println!("{report}");
            ExitCode::from(u8::from(report.is_breaking()))
        }
        Err(e) => failure(e, 2),
    }
}

/// `facts FILE KEY...`: the values of each key in turn.
fn facts(args: Vec<String>) -> ExitCode {
    let [file, keys @ ..] = args.as_slice() else { return usage_error("facts needs FILE and KEY") };
    if keys.is_empty() {
        return usage_error("facts needs FILE and KEY");
    }
    let facts = match kwire_codegen::Facts::read(file) {
        Ok(facts) => facts,
        Err(e) => return failure(e, 2),
    };
    let group = |name: &str| facts.api_groups.iter().find(|g| g.name == name).map(|g| g.apis.clone());
    let mut lines = Vec::new();
    for key in keys {
        let values: Option<Vec<String>> = match key.split_once('.') {
            None if key == "release" => Some(vec![facts.release.clone()]),
            None if key == "forwardable" => Some(facts.forwardable.clone()),
            None if key == "cluster_action" => Some(facts.cluster_action.clone()),
            None if key == "sensitive_fields" => Some(facts.sensitive_fields.clone()),
            None if key == "families" => Some(facts.families.iter().map(|f| f.dir.clone()).collect()),
            Some(("releases", name)) => facts.release_list(name).map(<[String]>::to_vec),
            Some(("api_groups", name)) => group(name),
            _ => None,
        };
        match values {
            Some(values) => lines.extend(values),
            None => return usage_error(&format!("{file} has no fact {key}")),
        }
    }
    for line in lines {
        println!("{line}");
    }
    ExitCode::SUCCESS
}

/// Prints an error, each schema diagnostic on its own line with its place,
/// and gives the exit status: `schema_status` for invalid schemas, 2 for
/// anything else.
fn failure(e: kwire_codegen::Error, schema_status: u8) -> ExitCode {
    match e {
        kwire_codegen::Error::Schema(diags) => {
            for d in &diags.0 {
                eprintln!("{}", d.located());
            }
            eprintln!("{} error(s)", diags.0.len());
            ExitCode::from(schema_status)
        }
        e => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage_error(message: &str) -> ExitCode {
    eprintln!("error: {message}\n\n{USAGE}");
    ExitCode::from(2)
}
