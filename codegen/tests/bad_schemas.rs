//! Every validation check of the schema language (spec §6 #1-#47 and the
//! `default` rules of §5.1), each on a tiny schema under `tests/bad/` that is
//! broken in exactly one way, with the full text of every diagnostic:
//! `file: JSON path: message`.
//!
//! A case is `tests/bad/<case>.json`, or the directory `tests/bad/<case>/`
//! for checks that span several files (api keys) or need a given file name.
//! `every_bad_file_has_a_test` keeps the directory and this file in step.

use std::path::{Path, PathBuf};

use kwire_codegen::{generate, Error};

fn bad_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bad")
}

/// The `(file name, text)` pairs of a case, in directory order reversed, so
/// that the compiler's own sorting is what makes the output stable.
fn sources(case: &str) -> Vec<(String, String)> {
    let file = bad_dir().join(format!("{case}.json"));
    let mut paths = if file.is_file() {
        vec![file]
    } else {
        let dir = bad_dir().join(case);
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        paths
    };
    paths.reverse();
    paths
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(p).unwrap())
        })
        .collect()
}

/// The diagnostics of a case, one `Display` line each, in the order given.
fn diagnostics(case: &str) -> Vec<String> {
    match generate(&sources(case), "crate") {
        Err(Error::Schema(diags)) => {
            let lines: Vec<String> = diags.0.iter().map(ToString::to_string).collect();
            // The error's own Display is the same lines, one per line.
            assert_eq!(Error::Schema(diags).to_string(), lines.join("\n"));
            lines
        }
        Err(other) => panic!("{case}: expected schema diagnostics, got {other}"),
        Ok(out) => panic!("{case}: the bad schema was accepted ({} messages generated)", out.messages.len()),
    }
}

/// Exactly these diagnostics, in this order.
#[track_caller]
fn assert_diagnostics(case: &str, expected: &[&str]) {
    let got = diagnostics(case);
    assert_eq!(got, expected, "diagnostics of tests/bad/{case}");
}

/// At least these diagnostics (for cases where the compiler also reports
/// something spurious; the exact test is then marked as a bug).
#[track_caller]
fn assert_reports(case: &str, expected: &[&str]) {
    let got = diagnostics(case);
    for line in expected {
        assert!(got.iter().any(|g| g == line), "tests/bad/{case}: missing {line:?} in {got:#?}");
    }
}

macro_rules! bad {
    ($( $(#[$attr:meta])* $case:ident => [$($line:expr),* $(,)?]; )*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $case() {
                assert_diagnostics(stringify!($case), &[$($line),*]);
            }
        )*
    };
}

// §6 #1: what Jackson refuses while parsing. Syntax errors carry the line
// and column of the original text (comments included).
bad! {
    malformed_json => ["malformed_json.json: (root): line 5, column 20: expected value"];
    trailing_comma => ["trailing_comma.json: (root): line 9, column 3: trailing comma"];
    trailing_content => ["trailing_content.json: (root): line 9, column 1: trailing characters"];
    unterminated_comment => ["unterminated_comment.json: (root): line 5, column 3: unterminated /* comment"];
    hash_comment => ["hash_comment.json: (root): line 1, column 1: expected value"];
    root_not_object => ["root_not_object.json: (root): expected an object"];
    unknown_key_top_level => [r#"unknown_key_top_level.json: about: unknown key "about""#];
    unknown_key_in_field => [r#"unknown_key_in_field.json: fields[0] (F).doc: unknown key "doc""#];
    unknown_key_in_common_struct => [
        r#"unknown_key_in_common_struct.json: commonStructs[0] (C).about: unknown key "about""#,
    ];
    unknown_message_type => [
        r#"unknown_message_type.json: type: unknown type "Data"; expected request, response, header, data, metadata, coordinator-key or coordinator-value"#,
    ];
    unknown_listener => [
        r#"FooRequest.json: listeners[1]: unknown listener "kraft"; expected zkBroker, broker or controller"#,
    ];
    unknown_entity_type => [r#"unknown_entity_type.json: fields[0] (F).entityType: unknown entityType "topic""#];
    api_key_not_a_number => ["api_key_not_a_number.json: apiKey: expected an integer"];
    api_key_out_of_range => ["api_key_out_of_range.json: apiKey: 40000 is out of range -32768 to 32767"];
    boolean_key_bad_string => ["boolean_key_bad_string.json: fields[0] (F).ignorable: expected true or false"];
}

// §6 #2-#9: the top level.
bad! {
    missing_type => [r#"missing_type.json: (root): missing "type""#];
    missing_name => [r#"missing_name.json: (root): missing "name""#];
    missing_field_name => [r#"missing_field_name.json: fields[0]: missing "name""#];
    missing_field_type => [r#"missing_field_type.json: fields[0] (F): missing "type""#];
    missing_valid_versions => [
        "missing_valid_versions.json: validVersions: You must specify the version of the Bad structure.",
    ];
    empty_valid_versions => [
        "empty_valid_versions.json: validVersions: You must specify the version of the Bad structure.",
    ];
    versions_inner_spaces => [
        r#"versions_inner_spaces.json: validVersions: invalid version range "0 - 2": expected none, N, A-B or N+ with versions 0 to 32767"#,
    ];
    versions_bad_nullable => [
        r#"versions_bad_nullable.json: fields[0] (F).nullableVersions: invalid version range "1-": expected none, N, A-B or N+ with versions 0 to 32767"#,
    ];
    missing_flexible_versions => [
        "missing_flexible_versions.json: flexibleVersions: You must specify a value for flexibleVersions. Please use 0+ for all new messages.",
    ];
    null_flexible_versions => [
        "null_flexible_versions.json: flexibleVersions: You must specify a value for flexibleVersions. Please use 0+ for all new messages.",
    ];
    bounded_flexible_versions => [
        "bounded_flexible_versions.json: flexibleVersions: flexibleVersions 0-1 is not open-ended: it must be none, or N+",
    ];
    listeners_on_data => [
        "listeners_on_data.json: listeners: listeners are only valid for messages with type request",
    ];
    latest_version_unstable_on_data => [
        "latest_version_unstable_on_data.json: latestVersionUnstable: latestVersionUnstable is only valid for messages with type request",
    ];
}

// §6 #5 on a field's `versions`: the parse error is reported, and (bug) a
// second, wrong "You must specify the version" as if the key were absent.
const VERSIONS_NEGATIVE: &str = r#"versions_negative.json: fields[0] (F).versions: invalid version range "-1": expected none, N, A-B or N+ with versions 0 to 32767"#;
const VERSIONS_NOT_NUMERIC: &str = r#"versions_not_numeric.json: fields[0] (F).versions: invalid version range "x+": expected none, N, A-B or N+ with versions 0 to 32767"#;
const VERSIONS_TOO_BIG: &str = r#"versions_too_big.json: fields[0] (F).versions: invalid version range "0-40000": expected none, N, A-B or N+ with versions 0 to 32767"#;

#[test]
fn versions_malformed_on_a_field_are_reported() {
    assert_reports("versions_negative", &[VERSIONS_NEGATIVE]);
    assert_reports("versions_not_numeric", &[VERSIONS_NOT_NUMERIC]);
    assert_reports("versions_too_big", &[VERSIONS_TOO_BIG]);
}

bad! {
    versions_negative => [VERSIONS_NEGATIVE];
    versions_not_numeric => [VERSIONS_NOT_NUMERIC];
    versions_too_big => [VERSIONS_TOO_BIG];
}

// §6 #10-#25: one field at a time.
bad! {
    field_name_underscore => ["field_name_underscore.json: fields[0] (Foo_Bar).name: Invalid field name Foo_Bar"];
    field_name_leading_digit => ["field_name_leading_digit.json: fields[0] (1Foo).name: Invalid field name 1Foo"];
    missing_field_versions => [
        "missing_field_versions.json: fields[0] (F).versions: You must specify the version of the F structure.",
    ];
    type_empty_array => ["type_empty_array.json: fields[0] (F).type: Can't parse array type []. No element type found."];
    type_array_of_arrays => [
        "type_array_of_arrays.json: fields[0] (F).type: Can't parse array type [][]int8: can't have an array of arrays; use an array of structs containing an array instead.",
    ];
    type_unknown => ["type_unknown.json: fields[0] (F).type: Can't parse type int"];
    nullable_int32 => ["nullable_int32.json: fields[0] (F).nullableVersions: Type int32 cannot be nullable."];
    nullable_uuid => ["nullable_uuid.json: fields[0] (F).nullableVersions: Type uuid cannot be nullable."];
    entity_type_mismatch => [
        "entity_type_mismatch.json: fields[0] (F).entityType: Field F has entity type topicName, but field type int32, which does not match.",
    ];
    entity_type_array_mismatch => [
        "entity_type_array_mismatch.json: fields[0] (F).entityType: Field F has entity type producerId, but field type []int32, which does not match.",
    ];
    fields_on_int32 => ["fields_on_int32.json: fields[0] (F).fields: Non-array or Struct field F cannot have fields"];
    struct_without_versions => [
        "struct_without_versions.json: fields[0] (S).versions: You must specify the version of the S structure.",
    ];
    flexible_override_on_int32 => [
        "flexible_override_on_int32.json: fields[0] (F).flexibleVersions: Invalid flexibleVersions override for F. Only fields of type string or bytes can specify a flexibleVersions override.",
    ];
    tag_with_map_key => [
        "tag_with_map_key.json: fields[0] (S).fields[0] (K).mapKey: Tagged fields cannot be used as keys.",
    ];
    tag_without_tagged_versions => [
        "tag_without_tagged_versions.json: fields[0] (F).tag: Field F has a tag but no taggedVersions. If a tag is specified, taggedVersions must be specified as well.",
    ];
    nullable_in_some_tagged_versions => [
        "nullable_in_some_tagged_versions.json: fields[0] (F).nullableVersions: Field F is nullable in only some of its tagged versions. Either all tagged versions must be nullable, or none must be.",
    ];
    bounded_tagged_versions => [
        "bounded_tagged_versions.json: fields[0] (F).taggedVersions: Field F specifies taggedVersions 0-1, which is not open-ended: it must be none, or N+",
    ];
    tagged_versions_not_in_versions => [
        "tagged_versions_not_in_versions.json: fields[0] (F).taggedVersions: Field F specifies taggedVersions 0+, which is not a subset of its versions 1+",
    ];
    tagged_versions_without_tag => [
        "tagged_versions_without_tag.json: fields[0] (F).taggedVersions: Field F has taggedVersions but no tag. Please specify a tag, or remove the taggedVersions.",
    ];
    zero_copy_on_string => [
        "zero_copy_on_string.json: fields[0] (F).zeroCopy: Invalid zeroCopy value for F. Only fields of type bytes can use zeroCopy flag.",
    ];
}

// §6 #19 and #1 on `tag`: the bad tag is reported, and (bug) also "has
// taggedVersions but no tag", because the refused tag is then treated as absent.
const NEGATIVE_TAG: &str =
    "negative_tag.json: fields[0] (F).tag: Field F specifies a tag of -1. Tags cannot be negative.";
const TAG_NOT_A_NUMBER: &str = "tag_not_a_number.json: fields[0] (F).tag: expected an integer";

#[test]
fn bad_tags_are_reported() {
    assert_reports("negative_tag", &[NEGATIVE_TAG]);
    assert_reports("tag_not_a_number", &[TAG_NOT_A_NUMBER]);
}

bad! {
    negative_tag => [NEGATIVE_TAG];
    tag_not_a_number => [TAG_NOT_A_NUMBER];
}

// §6 #26-#28: within one struct. The KIP-590 case is the request header with
// both forwarding fields on tag 0.
bad! {
    kip590_duplicate_tag => [
        "RequestHeader.json: fields[5] (InitialClientId): tag 0 is already used by InitialPrincipalName",
    ];
    duplicate_tag_nested => ["duplicate_tag_nested.json: fields[0] (S).fields[1] (B): tag 0 is already used by A"];
    non_contiguous_tags => [
        "non_contiguous_tags.json: fields[1] (B): In Bad, the tag IDs are not contiguous. Make use of tag 1 before using any higher tag IDs.",
    ];
    tags_not_from_zero => [
        "tags_not_from_zero.json: fields[0] (S).fields[0] (A): In S, the tag IDs are not contiguous. Make use of tag 0 before using any higher tag IDs.",
    ];
}

const DUPLICATE_FIELD_NAME: &str =
    "duplicate_field_name.json: fields[1] (F): In Bad, field F has a duplicate name F. All field names must be unique.";

#[test]
fn duplicate_field_name_is_reported() {
    assert_reports("duplicate_field_name", &[DUPLICATE_FIELD_NAME]);
}

bad! {
    duplicate_field_name => [DUPLICATE_FIELD_NAME];
}

// §6 #29-#43: structs, versions and generation-time checks.
bad! {
    common_struct_without_versions => [
        "common_struct_without_versions.json: commonStructs[0] (C).versions: You must specify the version of the C structure.",
    ];
    common_struct_lowercase => [
        "common_struct_lowercase.json: commonStructs[0] (c).name: Can't process structure c: the first letter of structure names must be capitalized.",
    ];
    common_struct_twice => ["common_struct_twice.json: commonStructs[1] (C): Common struct C was specified twice."];
    common_struct_inline => [
        "common_struct_inline.json: fields[0] (C): Can't re-specify the common struct C as an inline struct.",
    ];
    struct_twice => ["struct_twice.json: fields[1] (B): Struct S was specified twice (first at fields[0] (A))."];
    common_struct_defines_inline => [
        "common_struct_defines_inline.json: commonStructs[0] (C).fields[0] (Inner): field Inner of common struct C holds struct Inner, which is not a common struct; structs used inside a common struct must be declared in commonStructs",
    ];
    metadata_without_api_key => ["metadata_without_api_key.json: (root): metadata record BadRecord needs an apiKey"];
    open_valid_versions => ["open_valid_versions.json: validVersions: Message Bad does not specify a maximum version."];
    map_key_top_level => ["map_key_top_level.json: fields[0] (F).mapKey: Cannot set mapKey on top level fields."];
    tagged_outside_flexible => [
        "tagged_outside_flexible.json: fields[0] (F).taggedVersions: Field F specifies tagged versions 0+ that are not a subset of the flexible versions none",
    ];
    tagged_below_flexible => [
        "tagged_below_flexible.json: fields[0] (F).taggedVersions: Field F specifies tagged versions 1+ that are not a subset of the flexible versions 2+",
    ];
    flexible_override_too_wide => [
        "flexible_override_too_wide.json: fields[0] (F).flexibleVersions: The flexible versions for field F are 1+, which are not a subset of the flexible versions for the message as a whole, which are 2+",
    ];
    records_tagged => ["records_tagged.json: fields[0] (F): Field F of type records cannot be a tagged field."];
    array_of_records => ["array_of_records.json: fields[0] (F).type: arrays of records are not supported"];
    struct_versions_disjoint => [
        "struct_versions_disjoint.json: fields[0] (S).versions: Version ranges 0-1 and 5+ have no versions in common.",
    ];
    // Within the message's versions (0-3) but not its parent's (0-1): Kafka
    // generates each inline struct for its parent's versions.
    struct_versions_disjoint_nested => [
        "struct_versions_disjoint_nested.json: fields[0] (A).fields[0] (B).versions: Version ranges 0-1 and 2+ have no versions in common.",
    ];
    // `"validVersions": "none"` (a removed api, as Kafka 4.0+ keeps
    // LeaderAndIsr and others) is accepted without flexibleVersions; the
    // other checks still run.
    valid_versions_none => ["valid_versions_none.json: fields[0] (Foo_Bar).name: Invalid field name Foo_Bar"];
    valid_versions_none_common_struct_twice => [
        "valid_versions_none_common_struct_twice.json: commonStructs[1] (C): Common struct C was specified twice.",
    ];
    valid_versions_inverted => ["valid_versions_inverted.json: validVersions: Message Bad has no valid versions."];
    common_struct_not_covering => [
        "common_struct_not_covering.json: fields[0] (C).versions: field C uses common struct C in versions 0-1, but the struct only covers 1+",
    ];
    struct_named_like_message => ["struct_named_like_message.json: (root): struct Bad has the name of its message"];
}

// §6 #38 and §5.1: every kind of invalid default.
bad! {
    default_null_partly_nullable => [
        "default_null_partly_nullable.json: fields[0] (F).default: null cannot be the default for field F, because not all versions of this field are nullable.",
    ];
    default_null_int32 => ["default_null_int32.json: fields[0] (F).default: Invalid default for int32 field F: null"];
    default_int8_out_of_range => [
        "default_int8_out_of_range.json: fields[0] (F).default: Invalid default for int8 field F: 128 is out of range.",
    ];
    default_int32_hex_overflow => [
        "default_int32_hex_overflow.json: fields[0] (F).default: Invalid default for int32 field F: 0x80000000 is out of range.",
    ];
    default_int16_negative_hex => [
        "default_int16_negative_hex.json: fields[0] (F).default: Invalid default for int16 field F: -0x1",
    ];
    default_int32_leading_zero => [
        "default_int32_leading_zero.json: fields[0] (F).default: Invalid default for int32 field F: 010",
    ];
    default_int64_suffix => ["default_int64_suffix.json: fields[0] (F).default: Invalid default for int64 field F: 5L"];
    default_uint16_out_of_range => [
        "default_uint16_out_of_range.json: fields[0] (F).default: Invalid default for uint16 field F: 65536 is out of range.",
    ];
    default_uint32_negative => [
        "default_uint32_negative.json: fields[0] (F).default: Invalid default for uint32 field F: -1 is out of range.",
    ];
    default_float64_bad => ["default_float64_bad.json: fields[0] (F).default: Invalid default for float64 field F: one"];
    default_bool_bad => ["default_bool_bad.json: fields[0] (F).default: Invalid default for bool field F: 1"];
    default_bytes_non_empty => [
        "default_bytes_non_empty.json: fields[0] (F).default: Invalid default for bytes field F. The only valid default for a bytes field is empty or null.",
    ];
    default_array_non_empty => [
        "default_array_non_empty.json: fields[0] (F).default: Invalid default for array field F. The only valid default for an array field is the empty array or null.",
    ];
    default_struct_non_empty => [
        "default_struct_non_empty.json: fields[0] (S).default: Invalid default for struct field S. The only valid default for a struct field is the empty struct or null.",
    ];
    default_uuid_bad => ["default_uuid_bad.json: fields[0] (F).default: Invalid default for uuid field F: not-a-uuid"];
    default_uuid_short => [
        "default_uuid_short.json: fields[0] (F).default: Invalid default for uuid field F: H3KKO4NTRPaCWtEmm3vW",
    ];
}

// §6 #44-#47: across the files of one run (each case is a directory).
bad! {
    duplicate_api_key => ["FooRequest.json: apiKey: Found more than one request with API key 1 (also BarRequest.json)"];
    request_without_api_key => ["FooRequest.json: (root): a request needs an apiKey"];
    bad_request_suffix => ["Foo.json: name: Foo does not end with the expected suffix Request"];
    bad_response_suffix => ["FooReply.json: name: FooReply does not end with the expected suffix Response"];
    request_without_response => ["FooRequest.json: apiKey: failed to find response for API key 7"];
    response_without_request => ["FooResponse.json: apiKey: failed to find request for API key 7"];
    duplicate_metadata_key => [
        "SecondRecord.json: apiKey: metadata record SecondRecord has the api key 5 of metadata record FirstRecord in FirstRecord.json",
    ];
}

/// Kafka's generator refuses a field outside its parent's versions only
/// when the field holds an inline struct (above): a field of any other type
/// is kept, absent at every version, as in Kafka 4.4's own
/// ShareFetchRequest (PartitionMaxBytes, versions 0, in validVersions 1-2).
/// The same struct with an int32 in place of the inline struct compiles.
#[test]
fn a_field_of_another_type_outside_the_valid_versions_is_accepted() {
    let (name, text) = sources("struct_versions_disjoint").remove(0);
    let scalar = text.replacen(
        r#"{"name": "S", "type": "S", "fields": [{"name": "F", "type": "int32", "versions": "0+"}], "versions": "5+"}"#,
        r#"{"name": "S", "type": "int32", "versions": "5+"}"#,
        1,
    );
    assert_ne!(scalar, text);
    let out = generate(&[(name, scalar)], "crate").unwrap();
    assert_eq!(out.messages.len(), 1);
}

/// Two schemas with one message name would both become `mod foo` in
/// `mod.rs` and the same `foo.rs`; the run must refuse them.
#[test]
fn duplicate_message_name() {
    let got = diagnostics("duplicate_message_name");
    assert!(got.iter().any(|d| d.starts_with("FooB.json: ") && d.contains("Foo")), "{got:#?}");
}

// Several errors in one file: all reported (collect, don't stop), sorted.
const SEVERAL: [&str; 6] = [
    r#"several_errors.json: about: unknown key "about""#,
    "several_errors.json: fields[1] (F1).type: Can't parse type int",
    "several_errors.json: fields[2] (F2).nullableVersions: Type int32 cannot be nullable.",
    "several_errors.json: fields[4] (F4).mapKey: Cannot set mapKey on top level fields.",
    "several_errors.json: fields[10] (F_10).name: Invalid field name F_10",
    "several_errors.json: fields[11] (F11).zeroCopy: Invalid zeroCopy value for F11. Only fields of type bytes can use zeroCopy flag.",
];

#[test]
fn several_errors_are_all_reported_and_sorted() {
    let got = diagnostics("several_errors");
    let mut want: Vec<String> = SEVERAL.iter().map(|s| s.to_string()).collect();
    let mut sorted_got = got.clone();
    sorted_got.sort();
    want.sort();
    assert_eq!(sorted_got, want, "every error is reported, and nothing else");
    // Sorted: the order does not depend on where checks run, and repeats.
    let Err(Error::Schema(diags)) = generate(&sources("several_errors"), "crate") else {
        panic!("several_errors compiled");
    };
    let mut resorted = diags.0.clone();
    resorted.sort();
    assert_eq!(diags.0, resorted, "diagnostics come sorted by file and path");
}

#[test]
fn several_errors_in_document_order() {
    assert_diagnostics("several_errors", &SEVERAL);
}

/// Errors of several files come sorted by file name whatever the input order.
#[test]
fn errors_of_several_files_are_sorted_by_file() {
    let mut inputs: Vec<(String, String)> =
        ["type_unknown", "nullable_int32", "missing_type"].iter().flat_map(|c| sources(c)).collect();
    let expected = [
        r#"missing_type.json: (root): missing "type""#,
        "nullable_int32.json: fields[0] (F).nullableVersions: Type int32 cannot be nullable.",
        "type_unknown.json: fields[0] (F).type: Can't parse type int",
        // All three fixtures name their message Bad: the later ones clash.
        "type_unknown.json: name: message Bad has the same Rust module as Bad in nullable_int32.json",
    ];
    for _ in 0..2 {
        let Err(Error::Schema(diags)) = generate(&inputs, "crate") else {
            panic!("bad schemas compiled");
        };
        let got: Vec<String> = diags.0.iter().map(ToString::to_string).collect();
        assert_eq!(got, expected);
        inputs.reverse();
    }
}

/// The fields of a diagnostic are the file, the path and the message, as displayed.
#[test]
fn diagnostic_parts() {
    let Err(Error::Schema(diags)) = generate(&sources("kip590_duplicate_tag"), "::kwire") else {
        panic!("duplicate tags compiled");
    };
    let [d] = diags.0.as_slice() else {
        panic!("{diags}");
    };
    assert_eq!(d.file, "RequestHeader.json");
    assert_eq!(d.path.to_string(), "fields[5] (InitialClientId)");
    assert_eq!(d.message, "tag 0 is already used by InitialPrincipalName");
}

/// The schema the KIP-590 case breaks is itself valid with tags 0 and 1.
#[test]
fn kip590_header_is_valid_with_distinct_tags() {
    let (name, text) = sources("kip590_duplicate_tag").remove(0);
    let fixed = text.replacen(
        r#""name": "InitialClientId", "type": "string", "tag": 0"#,
        r#""name": "InitialClientId", "type": "string", "tag": 1"#,
        1,
    );
    assert_ne!(fixed, text);
    generate(&[(name, fixed)], "crate").unwrap();
}

/// Every case under tests/bad/ has a test here, and every test's case exists.
#[test]
fn every_bad_file_has_a_test() {
    let this = include_str!("bad_schemas.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(bad_dir()).unwrap() {
        let path = entry.unwrap().path();
        let case = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !this.contains(&format!("\"{case}\"")) && !this.contains(&format!("    {case} =>")) {
            missing.push(case);
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "cases without a test: {missing:?}");
}

/// Each diagnostic also names the line where its JSON path starts.
#[test]
fn diagnostics_name_their_line() {
    let Err(Error::Schema(diags)) = generate(&sources("kip590_duplicate_tag"), "::kwire") else {
        panic!("duplicate tags compiled");
    };
    assert_eq!(diags.0[0].line, Some(15));
    assert_eq!(
        diags.0[0].located(),
        "RequestHeader.json:15: fields[5] (InitialClientId): tag 0 is already used by InitialPrincipalName"
    );
}
