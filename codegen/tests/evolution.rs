//! The evolution check (`kwire_codegen::evolution`): each rule on a
//! small pair of schemas, with the exact lines it prints.

use kwire_codegen::evolution::{compare_sources, Report, Rule};

fn schema(name: &str, versions: &str, extra: &str, fields: &str) -> (String, String) {
    let text = format!(
        r#"{{ "type": "data", "name": "{name}", "validVersions": "{versions}", "flexibleVersions": "1+"{extra},
  "fields": [
{fields}
  ] }}"#
    );
    (format!("{name}.json"), text)
}

fn report(old: &[(String, String)], new: &[(String, String)]) -> Report {
    compare_sources(old, new).expect("both sets compile")
}

fn lines(report: &Report) -> Vec<String> {
    report.findings.iter().filter(|f| f.rule != Rule::Documentation).map(|f| f.to_string()).collect()
}

const A: &str = r#"    { "name": "A", "type": "int32", "versions": "0+", "about": "a" },"#;
const B: &str = r#"    { "name": "B", "type": "string", "versions": "0+", "about": "b" }"#;

#[test]
fn identical_sets_have_no_finding() {
    let set = [schema("M", "0-2", "", &format!("{A}\n{B}"))];
    let r = report(&set, &set);
    assert_eq!(r.findings, vec![]);
    assert!(!r.is_breaking());
    assert_eq!(r.to_string(), "compatible: 0 finding(s)");
}

#[test]
fn a_field_added_to_a_released_version_breaks() {
    let old = [schema("M", "0-2", "", &format!("{A}\n{B}"))];
    let c = r#"    { "name": "C", "type": "int8", "versions": "1+", "about": "c" },"#;
    let new = [schema("M", "0-2", "", &format!("{A}\n{c}\n{B}"))];
    let r = report(&old, &new);
    assert_eq!(lines(&r), ["M.json:4: fields[1] (C): v1-2: layout-changed: field C added"]);
    assert!(r.is_breaking());
    assert!(r.to_string().ends_with("breaking: 1 finding(s) (layout-changed: 1)"));
}

#[test]
fn removed_reordered_and_retyped_fields_break() {
    let old = [schema("M", "0", "", &format!("{A}\n{B}"))];
    let b_first = [schema("M", "0", "", &format!("{},\n{}", B.trim_end(), A.trim_end_matches(',')))];
    assert_eq!(lines(&report(&old, &b_first)), ["M.json:3: fields[0] (B): v0: layout-changed: fields reordered: B, A"]);
    let only_a = [schema("M", "0", "", A.trim_end_matches(','))];
    assert_eq!(lines(&report(&old, &only_a)), ["M.json:4: fields[1] (B): v0: layout-changed: field B removed"]);
    let a64 = A.replace("int32", "int64");
    let retyped = [schema("M", "0", "", &format!("{a64}\n{B}"))];
    assert_eq!(
        lines(&report(&old, &retyped)),
        ["M.json:3: fields[0] (A): v0: layout-changed: type int32 became int64"]
    );
}

#[test]
fn flexibility_nullability_and_versions_removed_break() {
    let old = [schema("M", "0-2", "", &format!("{A}\n{B}"))];
    let new = [(
        "M.json".to_string(),
        r#"{ "type": "data", "name": "M", "validVersions": "1-2", "flexibleVersions": "2+",
  "fields": [
    { "name": "A", "type": "int32", "versions": "0+", "about": "a" },
    { "name": "B", "type": "string", "versions": "0+", "nullableVersions": "2+", "about": "b" }
  ] }"#
            .to_string(),
    )];
    assert_eq!(
        lines(&report(&old, &new)),
        [
            "M.json:1: flexibleVersions: v1: layout-changed: flexible yes became no",
            "M.json:1: validVersions: v0: versions-removed: versions removed",
            "M.json:4: fields[1] (B): v1: layout-changed: compact length yes became no",
            "M.json:4: fields[1] (B): v2: layout-changed: nullable no became yes",
        ]
    );
}

#[test]
fn tagged_fields_added_are_compatible_and_removed_break() {
    let t =
        r#"    { "name": "T", "type": "int32", "versions": "1+", "taggedVersions": "1+", "tag": 0, "about": "t" },"#;
    let old = [schema("M", "0-2", "", &format!("{A}\n{B}"))];
    let new = [schema("M", "0-3", "", &format!("{A}\n{t}\n{B}"))];
    let r = report(&old, &new);
    assert_eq!(
        lines(&r),
        [
            "M.json:1: validVersions: v3: versions-added: versions added",
            "M.json:4: fields[1] (T): v1-2: tagged-field-added: tagged field T (tag 0) added",
        ]
    );
    assert!(!r.is_breaking());
    let back = report(&new, &old);
    assert!(back.is_breaking());
    assert!(lines(&back)
        .contains(&"M.json:4: fields[1] (T): v1-2: layout-changed: tagged field T (tag 0) removed".to_string()));
}

#[test]
fn the_default_of_a_tagged_field_is_wire_but_of_an_untagged_one_is_not() {
    let t = |d: &str| {
        format!(
            r#"    {{ "name": "T", "type": "int32", "versions": "1+", "taggedVersions": "1+", "tag": 0, "default": "{d}", "about": "t" }},"#
        )
    };
    let old = [schema("M", "0-1", "", &format!("{}\n{B}", t("-1")))];
    let new = [schema("M", "0-1", "", &format!("{}\n{B}", t("5")))];
    assert_eq!(lines(&report(&old, &new)), ["M.json:3: fields[0] (T): v1: layout-changed: default -1 became 5"]);
    let a = |d: &str| {
        format!(r#"    {{ "name": "A", "type": "int32", "versions": "0+", "default": "{d}", "about": "a" }},"#)
    };
    let old = [schema("M", "0", "", &format!("{}\n{B}", a("0")))];
    let new = [schema("M", "0", "", &format!("{}\n{B}", a("7")))];
    let r = report(&old, &new);
    assert_eq!(lines(&r), ["M.json:3: fields[0] (A): v0: no-wire-effect: default 0 became 7"]);
    assert!(!r.is_breaking());
}

#[test]
fn renames_touch_no_byte() {
    let old = [schema("M", "0", "", &format!("{A}\n{B}"))];
    let new = [schema("M", "0", "", &format!("{}\n{B}", A.replace("\"A\"", "\"Alpha\"")))];
    let r = report(&old, &new);
    assert_eq!(lines(&r), ["M.json:3: fields[0] (Alpha): v0: no-wire-effect: field A renamed Alpha"]);
    assert!(!r.is_breaking());
}

#[test]
fn changes_to_an_unstable_latest_version_do_not_break() {
    let api = |unstable: &str, extra_field: &str| {
        [
            (
                "XRequest.json".to_string(),
                format!(
                    r#"{{ "apiKey": 9, "type": "request", "name": "XRequest", "validVersions": "0-1", "flexibleVersions": "0+"{unstable},
  "fields": [ {{ "name": "X", "type": "int32", "versions": "0+", "about": "x" }}{extra_field} ] }}"#
                ),
            ),
            (
                "XResponse.json".to_string(),
                r#"{ "apiKey": 9, "type": "response", "name": "XResponse", "validVersions": "0-1", "flexibleVersions": "0+",
  "fields": [ { "name": "Y", "type": "int32", "versions": "0+", "about": "y" } ] }"#
                    .to_string(),
            ),
        ]
    };
    let c = r#", { "name": "C", "type": "int8", "versions": "1+", "about": "c" }"#;
    let r = report(&api(r#", "latestVersionUnstable": true"#, ""), &api("", c));
    assert_eq!(lines(&r), ["XRequest.json:2: fields[1] (C): v1: unstable-changed: field C added"]);
    assert!(!r.is_breaking());
    // Once released, the same change breaks.
    let r = report(&api("", ""), &api("", c));
    assert_eq!(lines(&r), ["XRequest.json:2: fields[1] (C): v1: layout-changed: field C added"]);
}

#[test]
fn messages_added_removed_and_renamed_by_api_key() {
    let req = |name: &str| {
        (
            format!("{name}Request.json"),
            format!(
                r#"{{ "apiKey": 74, "type": "request", "name": "{name}Request", "validVersions": "0", "flexibleVersions": "0+",
  "fields": [ {{ "name": "X", "type": "int32", "versions": "0+", "about": "x" }} ] }}"#
            ),
        )
    };
    let resp = |name: &str| {
        (
            format!("{name}Response.json"),
            format!(
                r#"{{ "apiKey": 74, "type": "response", "name": "{name}Response", "validVersions": "0", "flexibleVersions": "0+",
  "fields": [ {{ "name": "Y", "type": "int32", "versions": "0+", "about": "y" }} ] }}"#
            ),
        )
    };
    let other = schema("Other", "0", "", A.trim_end_matches(','));
    let old = [req("Old"), resp("Old"), other.clone()];
    let new = [req("New"), resp("New")];
    let r = report(&old, &new);
    assert_eq!(
        lines(&r),
        [
            "NewRequest.json:1: name: v0: no-wire-effect: renamed from OldRequest",
            "NewResponse.json:1: name: v0: no-wire-effect: renamed from OldResponse",
            "Other.json:1: (root): v0: message-removed: message removed",
        ]
    );
    assert!(r.is_breaking());
    let back = report(&new, &[req("New"), resp("New"), other]);
    assert_eq!(lines(&back), ["Other.json:1: (root): v0: message-added: message added"]);
}

#[test]
fn the_command_line_prints_findings_and_exits_by_compatibility() {
    let dir = std::env::temp_dir().join(format!("kwire-codegen-evolution-{}", std::process::id()));
    let (old, new) = (dir.join("old"), dir.join("new"));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    let (name, text) = schema("M", "0-1", "", &format!("{A}\n{B}"));
    std::fs::write(old.join(&name), &text).unwrap();
    std::fs::write(new.join(&name), text.replace("0-1", "0-2")).unwrap();
    let run = |a: &std::path::Path, b: &std::path::Path, extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_kwire-codegen"))
            .arg("diff")
            .args(extra)
            .arg(a)
            .arg(b)
            .output()
            .unwrap()
    };
    let out = run(&old, &new, &[]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("M.json:1: validVersions: v2: versions-added: versions added"), "{stdout}");
    assert!(stdout.ends_with("compatible: 1 finding(s) (versions-added: 1)\n"), "{stdout}");
    let out = run(&new, &old, &["--breaking"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with(&format!("{}:1: validVersions: v2: versions-removed", new.join("M.json").display())),
        "{stdout}"
    );
    let out = run(&old, &dir.join("missing"), &[]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_builder_refuses_a_breaking_edit_against_its_base() {
    let dir = std::env::temp_dir().join(format!("kwire-codegen-evolution-builder-{}", std::process::id()));
    let (base, now) = (dir.join("base"), dir.join("now"));
    std::fs::create_dir_all(&base).unwrap();
    std::fs::create_dir_all(&now).unwrap();
    let (name, text) = schema("M", "0-1", "", &format!("{A}\n{B}"));
    std::fs::write(base.join(&name), &text).unwrap();
    let mut builder = kwire_codegen::Builder::new();
    builder.input_dir(&now).check_evolution(&base).rerun_if_changed(false);
    // Compatible: a version added.
    std::fs::write(now.join(&name), text.replace("0-1", "0-2")).unwrap();
    assert!(builder.generate().is_ok());
    // Breaking: a field retyped.
    std::fs::write(now.join(&name), text.replace("int32", "int64")).unwrap();
    let err = builder.generate().unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, kwire_codegen::Error::Breaking { .. }), "{message}");
    assert!(
        message.ends_with(&format!(
            "{}:3: fields[0] (A): v0-1: layout-changed: type int32 became int64",
            now.join(&name).display()
        )),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schemas_are_read_as_the_release_that_shipped_them() {
    // No flexibleVersions (before Kafka required it), a stray bracket after the
    // root object (Kafka 2.8's DescribeProducersRequest.json), and an inline
    // struct with taggedVersions but no versions (Kafka 3.5's FetchRequest.json).
    let old = (
        "M.json".to_string(),
        r#"{ "type": "data", "name": "M", "validVersions": "0-1",
  "fields": [ { "name": "A", "type": "int32", "versions": "0+", "about": "a" } ] }
]}"#
        .to_string(),
    );
    let new = (
        "M.json".to_string(),
        r#"{ "type": "data", "name": "M", "validVersions": "0-2", "flexibleVersions": "2+",
  "fields": [ { "name": "A", "type": "int32", "versions": "0+", "about": "a" },
    { "name": "S", "type": "S", "taggedVersions": "2+", "tag": 0, "about": "s", "fields": [
      { "name": "B", "type": "int8", "versions": "2+", "about": "b" } ] } ] }"#
            .to_string(),
    );
    let r = report(std::slice::from_ref(&old), std::slice::from_ref(&new));
    assert_eq!(lines(&r), ["M.json:1: validVersions: v2: versions-added: versions added"]);
    // The compiler itself refuses all three.
    let err = kwire_codegen::generate(&[old], "::kwire").unwrap_err().to_string();
    assert!(err.contains("trailing characters"), "{err}");
    let err = kwire_codegen::generate(&[new], "::kwire").unwrap_err().to_string();
    assert!(err.contains("You must specify the version of the S structure"), "{err}");
}

#[test]
fn a_key_version_that_became_a_coordinator_key_moved() {
    let data = (
        "K.json".to_string(),
        r#"{ "type": "data", "name": "K", "validVersions": "0-1", "flexibleVersions": "none",
  "fields": [ { "name": "G", "type": "string", "versions": "0-1", "about": "g" } ] }"#
            .to_string(),
    );
    let key = |name: &str, api_key: i16| {
        (
            format!("{name}.json"),
            format!(
                r#"{{ "type": "coordinator-key", "name": "{name}", "apiKey": {api_key}, "validVersions": "0", "flexibleVersions": "none",
  "fields": [ {{ "name": "G", "type": "string", "versions": "0", "about": "g" }} ] }}"#
            ),
        )
    };
    let r = report(&[data], &[key("K", 1), key("LegacyK", 0)]);
    assert_eq!(
        lines(&r),
        [
            "LegacyK.json:1: (root): v0: message-added: message added",
            "LegacyK.json:1: apiKey: v0: no-wire-effect: version 0 moved to LegacyK",
        ]
    );
    assert!(!r.is_breaking());
}

/// A data schema with the given body fields and common structs (JSON text).
fn with_commons(name: &str, fields: &str, commons: &str) -> (String, String) {
    let text = format!(
        r#"{{ "type": "data", "name": "{name}", "validVersions": "0-1", "flexibleVersions": "1+",
  "fields": [ {fields} ],
  "commonStructs": [
{commons}
  ] }}"#
    );
    (format!("{name}.json"), text)
}

/// `old` compares with itself without finding, and `new` with `old` with
/// the one breaking finding `expected`.
#[track_caller]
fn assert_one_breaking_change(old: &[(String, String)], new: &[(String, String)], expected: &str) {
    assert_eq!(report(old, old).findings, vec![]);
    let r = report(old, new);
    assert_eq!(lines(&r), [expected]);
    assert!(r.is_breaking());
}

/// A common struct holding an array of itself: each of its fields is
/// compared once per version, with itself and against a retyped copy.
#[test]
fn a_struct_holding_an_array_of_itself_is_compared_once() {
    let node = |value: &str| {
        format!(
            r#"    {{ "name": "Node", "versions": "0+", "fields": [
      {{ "name": "Value", "type": "{value}", "versions": "0+", "about": "v" }},
      {{ "name": "Children", "type": "[]Node", "versions": "0+", "about": "c" }} ] }}"#
        )
    };
    let root = r#"{ "name": "Root", "type": "Node", "versions": "0+", "about": "r" }"#;
    let old = [with_commons("Tree", root, &node("int32"))];
    let new = [with_commons("Tree", root, &node("int64"))];
    assert_one_breaking_change(
        &old,
        &new,
        "Tree.json:5: commonStructs[0] (Node).fields[0] (Value): v0-1: layout-changed: type int32 became int64",
    );
    // The builder's check of a base set takes the same path.
    let dir = std::env::temp_dir().join(format!("kwire-codegen-evolution-recursive-{}", std::process::id()));
    let (base, now) = (dir.join("base"), dir.join("now"));
    std::fs::create_dir_all(&base).unwrap();
    std::fs::create_dir_all(&now).unwrap();
    std::fs::write(base.join(&old[0].0), &old[0].1).unwrap();
    std::fs::write(now.join(&old[0].0), &old[0].1).unwrap();
    let mut builder = kwire_codegen::Builder::new();
    builder.input_dir(&now).check_evolution(&base).rerun_if_changed(false);
    assert!(builder.generate().is_ok());
    std::fs::write(now.join(&new[0].0), &new[0].1).unwrap();
    assert!(matches!(builder.generate(), Err(kwire_codegen::Error::Breaking { .. })));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two common structs holding arrays of each other.
#[test]
fn structs_holding_arrays_of_each_other_are_compared_once() {
    let commons = |b_value: &str| {
        format!(
            r#"    {{ "name": "A", "versions": "0+", "fields": [
      {{ "name": "Bs", "type": "[]B", "versions": "0+", "about": "b" }} ] }},
    {{ "name": "B", "versions": "0+", "fields": [
      {{ "name": "Value", "type": "{b_value}", "versions": "0+", "about": "v" }},
      {{ "name": "As", "type": "[]A", "versions": "0+", "about": "a" }} ] }}"#
        )
    };
    let root = r#"{ "name": "Root", "type": "A", "versions": "0+", "about": "r" }"#;
    let old = [with_commons("Pair", root, &commons("int32"))];
    let new = [with_commons("Pair", root, &commons("string"))];
    assert_one_breaking_change(
        &old,
        &new,
        "Pair.json:7: commonStructs[1] (B).fields[0] (Value): v0-1: layout-changed: type int32 became string",
    );
}

/// Common structs `L0` to `L{levels - 1}`, one a line: each but the last
/// has the fields `to_next(next)`, and the last one field `Value` of type
/// `last`.
fn levels(levels: usize, last: &str, to_next: impl Fn(usize) -> String) -> String {
    let mut out = Vec::new();
    for i in 0..levels {
        let fields = if i + 1 == levels {
            format!(r#"{{ "name": "Value", "type": "{last}", "versions": "0+", "about": "v" }}"#)
        } else {
            to_next(i + 1)
        };
        out.push(format!(r#"    {{ "name": "L{i}", "versions": "0+", "fields": [ {fields} ] }}"#));
    }
    out.join(",\n")
}

/// Thirty levels of common structs, each holding two of the next: 2^30
/// routes to the last level, thirty structs to compare.
#[test]
fn shared_nested_structs_are_compared_once_each() {
    const LEVELS: usize = 30;
    let commons = |last: &str| {
        levels(LEVELS, last, |next| {
            format!(
                r#"{{ "name": "X", "type": "L{next}", "versions": "0+", "about": "x" }},
      {{ "name": "Y", "type": "L{next}", "versions": "0+", "about": "y" }}"#
            )
        })
    };
    let root = r#"{ "name": "Root", "type": "L0", "versions": "0+", "about": "r" }"#;
    let old = [with_commons("Deep", root, &commons("int32"))];
    let new = [with_commons("Deep", root, &commons("float64"))];
    // The body is on line 2, the common structs from line 4, two lines a level but the last.
    let (line, last) = (4 + 2 * (LEVELS - 1), LEVELS - 1);
    assert_one_breaking_change(
        &old,
        &new,
        &format!(
            "Deep.json:{line}: commonStructs[{last}] (L{last}).fields[0] (Value): v0-1: layout-changed: type int32 became float64"
        ),
    );
}

/// A chain of 1,000 common structs, each holding an array of the next,
/// checked on a thread with a small stack: the check's stack does not grow
/// with the depth, and the change at the bottom is found.
#[test]
fn a_chain_of_a_thousand_structs_is_checked_in_a_small_stack() {
    const LEVELS: usize = 1_000;
    let commons = |last: &str| {
        levels(LEVELS, last, |next| {
            format!(r#"{{ "name": "Next", "type": "[]L{next}", "versions": "0+", "about": "n" }}"#)
        })
    };
    let root = r#"{ "name": "Root", "type": "L0", "versions": "0+", "about": "r" }"#;
    let old = [with_commons("Chain", root, &commons("int32"))];
    let new = [with_commons("Chain", root, &commons("int64"))];
    let last = LEVELS - 1;
    let expected = format!(
        "Chain.json:{}: commonStructs[{last}] (L{last}).fields[0] (Value): v0-1: layout-changed: type int32 became int64",
        4 + last
    );
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || assert_one_breaking_change(&old, &new, &expected))
        .unwrap()
        .join()
        .unwrap();
}
