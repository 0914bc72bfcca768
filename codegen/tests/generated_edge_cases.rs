//! Generated code for edge-case schemas compiles without warnings and
//! round-trips: field names that are also the names generated code uses for
//! its own locals and parameters (`version`, `r`, `tag`, `buf`, `size`,
//! `count`, ...), and structs none of whose fields exist in any of their
//! versions. Each case compiles a tiny schema into a scratch crate under the
//! target directory and runs a round trip there with `cargo test` (the
//! kwire build is shared with `corpus.rs`'s scratch crate).

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn scratch_root() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("target"),
    };
    let target = if target.is_absolute() { target } else { workspace_root().join(target) };
    target.join("corpus-check")
}

/// Generates `schema` into a crate named `case`, with `test` as its test
/// module body, runs `cargo test` there and fails with its output unless it passes.
fn round_trip(case: &str, schema: &str, test: &str) {
    round_trip_with(case, schema, test, kwire_codegen::Options::default());
}

/// As [`round_trip`], with the `extras` asked for.
fn round_trip_with(case: &str, schema: &str, test: &str, extras: kwire_codegen::Options) {
    // The cases share one target directory: one cargo at a time.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = kwire_codegen::generate_with(&[(format!("{case}.json"), schema.to_string())], "::kwire", extras)
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    let root = scratch_root();
    let dir = root.join(format!("names-{}", case.to_lowercase()));
    let generated = dir.join("src/generated");
    std::fs::create_dir_all(&generated).unwrap();
    for f in &out.files {
        std::fs::write(generated.join(&f.name), &f.text).unwrap();
    }
    let manifest = format!(
        "[package]\nname = \"names-{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nkwire = {{ path = {:?}, default-features = false }}\n\n[workspace]\n",
        case.to_lowercase(),
        workspace_root().display().to_string()
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    if let Ok(lock) = std::fs::read(workspace_root().join("Cargo.lock")) {
        std::fs::write(dir.join("Cargo.lock"), lock).unwrap();
    }
    let lib = format!(
        "pub mod messages {{\n    include!(\"generated/mod.rs\");\n}}\n\n\
         #[cfg(test)]\nmod tests {{\n    use super::messages::*;\n    use kwire::message::Message;\n\n{test}\n}}\n"
    );
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["test", "--lib", "--quiet", "--message-format=short"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{case}: generated code fails:\n{stderr}\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let warnings: Vec<&str> =
        stderr.lines().filter(|l| l.contains("warning") && l.contains("src/generated/")).collect();
    assert!(warnings.is_empty(), "{case}: generated code warns:\n{}", warnings.join("\n"));
}

/// Kafka's LeaderChangeMessage, VotersRecord, KRaftVersionRecord,
/// SnapshotHeaderRecord and SnapshotFooterRecord all start with an int16
/// field named `Version`: decoding must keep reading the later fields at the
/// version asked for, not at the value of that field.
#[test]
fn field_named_version() {
    round_trip(
        "Shadow",
        r#"{"type": "data", "name": "Shadow", "validVersions": "0-1", "flexibleVersions": "none",
            "fields": [{"name": "Version", "type": "int16", "versions": "0+"},
                       {"name": "Extra", "type": "int32", "versions": "1+"}]}"#,
        r#"
    #[test]
    fn version_field_does_not_change_the_decode_version() {
        let m = Shadow { version: 0, extra: 7, ..Default::default() };
        let bytes = m.to_bytes(1).unwrap();
        assert_eq!(&bytes[..], [0, 0, 0, 0, 0, 7]);
        assert_eq!(Shadow::decode_exact(bytes, 1).unwrap(), m);
    }"#,
    );
}

/// Kafka's NullableStructMessage test schema (spec §4.5 and its §14
/// vectors): a struct's presence marker is written only at the versions
/// where the field is nullable, and a null cannot be written elsewhere.
#[test]
fn struct_nullable_at_some_versions() {
    let my_struct = |n: &str| {
        format!(
            r#""fields": [{{"name": "MyString{n}", "type": "string", "versions": "0+"}},
                             {{"name": "MyInt{n}", "type": "int32", "versions": "0+"}}]"#
        )
    };
    let schema = format!(
        r#"{{"type": "data", "name": "NullableStructMessage", "validVersions": "0-2", "flexibleVersions": "1+",
            "fields": [
              {{"name": "NullableStruct", "type": "MyStruct", "versions": "0+", "nullableVersions": "0+", "default": "null", {s1}}},
              {{"name": "NullableStruct2", "type": "MyStruct2", "versions": "0+", "nullableVersions": "1+", {s2}}},
              {{"name": "NullableStruct3", "type": "MyStruct3", "versions": "1+", "nullableVersions": "1+", "default": "null",
                "taggedVersions": "1+", "tag": 0, {s3}}},
              {{"name": "NullableStruct4", "type": "MyStruct4", "versions": "1+", "nullableVersions": "1+",
                "taggedVersions": "1+", "tag": 1, {s4}}}]}}"#,
        s1 = my_struct(""),
        s2 = my_struct("2"),
        s3 = my_struct("3"),
        s4 = my_struct("4"),
    );
    round_trip(
        "NullableStruct",
        &schema,
        r#"
    use kwire::error::EncodeErrorKind;
    use nullable_struct_message::*;

    fn hex(s: &str) -> Vec<u8> {
        let s: String = s.split_whitespace().collect();
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    fn check(m: &NullableStructMessage, version: i16, expected: &str) {
        let bytes = m.to_bytes(version).unwrap();
        assert_eq!(bytes.to_vec(), hex(expected), "v{version}");
        assert_eq!(m.encoded_size(version), bytes.len(), "v{version}");
        assert_eq!(&NullableStructMessage::decode_exact(bytes, version).unwrap(), m, "v{version}");
    }

    #[test]
    fn defaults() {
        let m = NullableStructMessage::default();
        assert!(m.nullable_struct.is_none() && m.nullable_struct3.is_none());
        assert_eq!(m.nullable_struct2, Some(MyStruct2::default()));
        // No marker for NullableStruct2 at v0, where it is not nullable.
        check(&m, 0, "ff 0000 00000000");
        check(&m, 1, "ff 01 01 00000000 00 00");
    }

    #[test]
    fn all_set() {
        let m = NullableStructMessage {
            nullable_struct: Some(MyStruct { my_string: "1".into(), my_int: 1, ..Default::default() }),
            nullable_struct2: Some(MyStruct2 { my_string2: "2".into(), my_int2: 2, ..Default::default() }),
            nullable_struct3: Some(MyStruct3 { my_string3: "3".into(), my_int3: 3, ..Default::default() }),
            nullable_struct4: Some(MyStruct4 { my_string4: "4".into(), my_int4: 4, ..Default::default() }),
            ..Default::default()
        };
        check(&m, 1, "01 0231 00000001 00  01 0232 00000002 00  02  00 08 01 0233 00000003 00  01 08 01 0234 00000004 00");
        // Without the fields v0 does not have (NullableStruct4 at its default, an empty struct).
        let v0 = NullableStructMessage {
            nullable_struct3: None,
            nullable_struct4: NullableStructMessage::default().nullable_struct4,
            ..m
        };
        check(&v0, 0, "01 0001 31 00000001  0001 32 00000002");
    }

    #[test]
    fn all_null() {
        let m = NullableStructMessage { nullable_struct2: None, nullable_struct4: None, ..Default::default() };
        check(&m, 1, "ff ff 01 01 01 00");
        // Not nullable at v0: refused, naming the field, rather than written as a marker.
        let m = NullableStructMessage { nullable_struct2: None, ..Default::default() };
        let err = m.to_bytes(0).unwrap_err();
        assert!(matches!(err.kind(), EncodeErrorKind::NullNotAllowed), "{err}");
        assert!(err.to_string().contains("nullable_struct2"), "{err}");
    }"#,
    );
}

/// A field named `R` is the decoder's reader.
#[test]
fn field_named_r() {
    round_trip(
        "Reader",
        r#"{"type": "data", "name": "Reader", "validVersions": "0-1", "flexibleVersions": "1+",
            "fields": [{"name": "R", "type": "int32", "versions": "0+"},
                       {"name": "Next", "type": "string", "versions": "0+"}]}"#,
        r#"
    #[test]
    fn reader_field_round_trips() {
        let m = Reader { r: 5, next: "n".into(), ..Default::default() };
        for v in 0..=1 {
            let bytes = m.to_bytes(v).unwrap();
            assert_eq!(Reader::decode_exact(bytes, v).unwrap(), m);
        }
    }"#,
    );
}

/// `tag` is the parameter of the tagged-field closure.
#[test]
fn tagged_field_named_tag() {
    round_trip(
        "Tags",
        r#"{"type": "data", "name": "Tags", "validVersions": "0-1", "flexibleVersions": "1+",
            "fields": [{"name": "Tag", "type": "int32", "versions": "1+", "tag": 0, "taggedVersions": "1+"},
                       {"name": "Other", "type": "string", "versions": "1+", "tag": 1, "taggedVersions": "1+"}]}"#,
        r#"
    #[test]
    fn tag_field_round_trips() {
        let m = Tags { tag: 9, other: "o".into(), ..Default::default() };
        let bytes = m.to_bytes(1).unwrap();
        assert_eq!(Tags::decode_exact(bytes, 1).unwrap(), m);
        assert_eq!(Tags::decode_exact(Tags::default().to_bytes(0).unwrap(), 0).unwrap(), Tags::default());
    }"#,
    );
}

/// The other names the generated code uses for itself: as fields they must
/// not interfere.
#[test]
fn fields_named_like_generated_locals() {
    round_trip(
        "Locals",
        r#"{"type": "data", "name": "Locals", "validVersions": "0-2", "flexibleVersions": "1+",
            "fields": [{"name": "Buf", "type": "int32", "versions": "0+"},
                       {"name": "Size", "type": "int32", "versions": "0+"},
                       {"name": "Count", "type": "string", "versions": "0+"},
                       {"name": "Flexible", "type": "bool", "versions": "0+"},
                       {"name": "Self", "type": "int8", "versions": "0+"},
                       {"name": "Type", "type": "int8", "versions": "0+"},
                       {"name": "WriteA", "type": "int8", "versions": "0+"},
                       {"name": "A", "type": "int32", "versions": "2+", "tag": 0, "taggedVersions": "2+"},
                       {"name": "V", "type": "int32", "versions": "2+"}]}"#,
        r#"
    #[test]
    fn round_trip_at_every_version() {
        for v in 0..=2 {
            let m = Locals {
                buf: 1, size: 2, count: "three".into(), flexible: true, self_: 5, r#type: 6,
                write_a: 7, a: if v >= 2 { 8 } else { 0 }, v: if v >= 2 { 9 } else { 0 },
                ..Default::default()
            };
            let bytes = m.to_bytes(v).unwrap();
            assert_eq!(bytes.len(), m.encoded_size(v));
            assert_eq!(Locals::decode_exact(bytes, v).unwrap(), m);
        }
    }"#,
    );
}

/// Kafka accepts field versions outside `validVersions` (spec §6, "not
/// checked"): a struct whose fields never exist encodes as nothing, and its
/// code must still build without warnings.
#[test]
fn struct_whose_fields_never_exist() {
    round_trip(
        "Never",
        r#"{"type": "data", "name": "Never", "validVersions": "0-1", "flexibleVersions": "none",
            "fields": [{"name": "Later", "type": "int32", "versions": "2+"},
                       {"name": "Inverted", "type": "string", "versions": "3-1"}]}"#,
        r#"
    #[test]
    fn encodes_as_nothing() {
        for v in 0..=1 {
            let bytes = Never::default().to_bytes(v).unwrap();
            assert!(bytes.is_empty());
            assert_eq!(Never::decode_exact(bytes, v).unwrap(), Never::default());
        }
    }"#,
    );
}

/// The same bug on a real schema of `schemas/`: LeaderChangeMessage v1 whose
/// `Version` field holds 0 decodes its voters at version 0 and loses their
/// VoterDirectoryId (the bytes are then left over).
#[test]
fn leader_change_message_v1_with_version_field_0() {
    let path = workspace_root().join("schemas/LeaderChangeMessage.json");
    let schema = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    round_trip(
        "LeaderChangeMessage",
        &schema,
        r#"
    #[test]
    fn v1_round_trips_whatever_the_version_field_says() {
        let voter = leader_change_message::Voter { voter_id: 1, voter_directory_id: kwire::primitives::Uuid::from_u128(7), ..Default::default() };
        let m = LeaderChangeMessage { version: 0, leader_id: 1, voters: vec![voter.clone()], granting_voters: vec![voter], ..Default::default() };
        let bytes = m.to_bytes(1).unwrap();
        assert_eq!(LeaderChangeMessage::decode_exact(bytes, 1).unwrap(), m);
    }"#,
    );
}

/// Adjacent fixed-width fields are written and read as one run while each is
/// present at the versions of the one before it or fewer (`0+`, `2+`, `3+`),
/// with one branch per tier; a field present at other versions (`0-1` after
/// `3+`) starts a new run. The bytes at each version are those of the fields
/// present, in order, and a short input names the field that is short.
#[test]
fn runs_over_nested_version_ranges() {
    round_trip(
        "Tiers",
        r#"{"type": "data", "name": "Tiers", "validVersions": "0-3", "flexibleVersions": "none",
            "fields": [{"name": "A", "type": "int16", "versions": "0+"},
                       {"name": "B", "type": "int32", "versions": "0+"},
                       {"name": "C", "type": "int8", "versions": "2+", "default": "-1"},
                       {"name": "D", "type": "bool", "versions": "3+"},
                       {"name": "E", "type": "int16", "versions": "0-1", "default": "7"},
                       {"name": "F", "type": "int8", "versions": "0+"}]}"#,
        r#"
    #[test]
    fn bytes_at_each_version() {
        let full = Tiers { a: 0x0102, b: 0x03040506, c: 8, d: true, e: 9, f: 10 };
        let expected: [(i16, &[u8]); 4] = [
            (0, &[1, 2, 3, 4, 5, 6, 0, 9, 10]),
            (1, &[1, 2, 3, 4, 5, 6, 0, 9, 10]),
            (2, &[1, 2, 3, 4, 5, 6, 8, 10]),
            (3, &[1, 2, 3, 4, 5, 6, 8, 1, 10]),
        ];
        for (v, bytes) in expected {
            let value = Tiers {
                c: if v >= 2 { full.c } else { -1 },
                d: v >= 3,
                e: if v <= 1 { full.e } else { 7 },
                ..full.clone()
            };
            assert_eq!(&value.to_bytes(v).unwrap()[..], bytes, "v{v}");
            // Decoding into a value that held other numbers resets the absent fields.
            let mut into = full.clone();
            into.decode_into(&mut kwire::Bytes::from_static(bytes), v).unwrap();
            assert_eq!(into, value, "v{v}");
        }
    }

    #[test]
    fn short_input_names_the_short_field() {
        // v3: A, B, C, D in one 8-byte run; cut inside D (7 bytes).
        let err = Tiers::decode_exact(kwire::Bytes::from_static(&[1, 2, 3, 4, 5, 6, 8]), 3).unwrap_err();
        assert_eq!(err.path(), vec![kwire::error::PathSegment::Field("d")], "{err}");
        assert_eq!(err.offset(), 7, "{err}");
        // v2: cut inside B.
        let err = Tiers::decode_exact(kwire::Bytes::from_static(&[1, 2, 3]), 2).unwrap_err();
        assert_eq!(err.path(), vec![kwire::error::PathSegment::Field("b")], "{err}");
        assert_eq!(err.offset(), 2, "{err}");
    }"#,
    );
}

/// Names Kafka's generator accepts that heck folds together: fields
/// `myURL` and `myUrl` (`my_url`, `my_url_2`), structs `TopicID` and
/// `TopicId` (`TopicId`, `TopicId2`), and a struct `TopicRef` beside
/// `Topic`, whose borrowed view is `TopicRef` (`TopicRef2`); each later
/// name takes a numeric suffix, in schema order. And a float64 default
/// written in hexadecimal, which Java's `Double.parseDouble` reads (`0x1p3`
/// is 8.0).
#[test]
fn names_kafka_tells_apart_by_case_and_a_hexadecimal_default() {
    round_trip_with(
        "Names",
        r#"{"type": "data", "name": "Names", "validVersions": "0", "flexibleVersions": "none",
            "fields": [{"name": "myURL", "type": "int32", "versions": "0+"},
                       {"name": "myUrl", "type": "int32", "versions": "0+"},
                       {"name": "Ids", "type": "[]TopicID", "versions": "0+",
                        "fields": [{"name": "A", "type": "int32", "versions": "0+"}]},
                       {"name": "OtherIds", "type": "[]TopicId", "versions": "0+",
                        "fields": [{"name": "B", "type": "int16", "versions": "0+"}]},
                       {"name": "Topics", "type": "[]Topic", "versions": "0+",
                        "fields": [{"name": "C", "type": "int8", "versions": "0+"}]},
                       {"name": "Refs", "type": "[]TopicRef", "versions": "0+",
                        "fields": [{"name": "D", "type": "int8", "versions": "0+"}]},
                       {"name": "Scale", "type": "float64", "versions": "0+", "default": "0x1p3"}]}"#,
        r#"
    use super::messages::names::*;
    use kwire::message::MessageView;
    use kwire::primitives::IntoOwned;

    #[test]
    fn each_name_is_its_own_field_and_type() {
        assert_eq!(Names::default().scale, 8.0);
        let m = Names {
            my_url: 1,
            my_url_2: 2,
            ids: vec![TopicId { a: 3 }],
            other_ids: vec![TopicId2 { b: 4 }],
            topics: vec![Topic { c: 5 }],
            refs: vec![TopicRef2 { d: 6 }],
            ..Default::default()
        };
        let bytes = m.to_bytes(0).unwrap();
        assert_eq!(
            &bytes[..],
            [0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 4, 0, 0, 0, 1, 5, 0, 0, 0, 1, 6,
             0x40, 0x20, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(Names::decode_exact(bytes.clone(), 0).unwrap(), m);
        // The borrowed views: `TopicRef` is the view of `Topic`, `TopicRef2Ref` that of `TopicRef2`.
        let view = NamesRef::decode_exact(&bytes, 0).unwrap();
        let topic: &TopicRef<'_> = &view.topics[0];
        let reference: &TopicRef2Ref<'_> = &view.refs[0];
        assert_eq!((topic.c, reference.d), (5, 6));
        assert_eq!(view.into_owned(), m);
    }"#,
        kwire_codegen::Options { views: true, ..Default::default() },
    );
}

/// Generates, with views, a data schema `case` of version 0 with the given
/// fields (JSON text), and asserts that its file has each of `expected`.
#[track_caller]
fn assert_generated(case: &str, fields: &str, expected: &[&str]) {
    let schema = format!(
        r#"{{"type": "data", "name": "{case}", "validVersions": "0", "flexibleVersions": "0+", "fields": [{fields}]}}"#
    );
    let extras = kwire_codegen::Options { views: true, ..Default::default() };
    let out = kwire_codegen::generate_with(&[(format!("{case}.json"), schema)], "crate", extras)
        .unwrap_or_else(|e| panic!("{case}: {e}"));
    let text = out.files.into_iter().find(|f| f.name != "mod.rs").map(|f| f.text).expect("a message file");
    for line in expected {
        assert!(text.contains(line), "{case}: no {line:?} in\n{text}");
    }
}

/// One case each of the names above, on the generated text alone.
#[test]
fn fields_differing_in_case_take_suffixes_in_schema_order() {
    assert_generated(
        "Fields",
        r#"{"name": "myUrl", "type": "int32", "versions": "0+"},
           {"name": "myURL", "type": "int64", "versions": "0+"},
           {"name": "UnknownTaggedFields", "type": "int8", "versions": "0+"}"#,
        &["pub my_url: i32,", "pub my_url_2: i64,", "pub unknown_tagged_fields_2: i8,"],
    );
}

#[test]
fn structs_differing_in_case_take_suffixes_in_schema_order() {
    assert_generated(
        "Structs",
        r#"{"name": "A", "type": "TopicID", "versions": "0+", "fields": []},
           {"name": "B", "type": "[]TopicId", "versions": "0+", "fields": []}"#,
        &["pub a: TopicId,", "pub b: Vec<TopicId2>,", "pub struct TopicId2Ref<'a>"],
    );
}

#[test]
fn a_struct_named_like_a_view_takes_a_suffix() {
    assert_generated(
        "Views",
        r#"{"name": "A", "type": "Topic", "versions": "0+", "fields": []},
           {"name": "B", "type": "TopicRef", "versions": "0+", "fields": []}"#,
        &["pub a: Topic,", "pub b: TopicRef2,", "pub a: TopicRef<'a>,", "pub b: TopicRef2Ref<'a>,"],
    );
}

#[test]
fn a_hexadecimal_float64_default_is_read_as_java_reads_it() {
    assert_generated(
        "Hex",
        r#"{"name": "A", "type": "float64", "versions": "0+", "default": "-0x1.8p1"}"#,
        &["a: -3.0,"],
    );
}

/// Names chosen to collide with the suffixes themselves, with keywords and
/// with the views: a field `MyUrl2` beside `myURL`/`myUrl` (whose second
/// takes `my_url_2`, not `my_url2`), fields `Self`/`SELF` and `Type`/`TYPE`,
/// structs `TopicId2` after `TopicID`/`TopicId` (it takes `TopicId22`), a
/// struct `Self` (`SelfStruct`, whose view is `SelfStructRef`) beside
/// `SelfRef`, and `TopicRefRef` beside `Topic` and `TopicRef`. The code
/// compiles without warnings (`Self_Ref` was one) and round-trips.
#[test]
fn names_colliding_with_suffixes_keywords_and_views() {
    let st = |field: &str, ty: &str, inner: &str| {
        format!(
            r#"{{"name": "{field}", "type": "{ty}", "versions": "0+", "fields": [{{"name": "{inner}", "type": "int8", "versions": "0+"}}]}}"#
        )
    };
    let schema = format!(
        r#"{{"type": "data", "name": "Clash", "validVersions": "0", "flexibleVersions": "none",
            "fields": [{{"name": "myURL", "type": "int8", "versions": "0+"}},
                       {{"name": "myUrl", "type": "int8", "versions": "0+"}},
                       {{"name": "MyUrl2", "type": "int8", "versions": "0+"}},
                       {{"name": "Self", "type": "int8", "versions": "0+"}},
                       {{"name": "SELF", "type": "int8", "versions": "0+"}},
                       {{"name": "Type", "type": "int8", "versions": "0+"}},
                       {{"name": "TYPE", "type": "int8", "versions": "0+"}},
                       {}, {}, {}, {}, {}, {}, {}, {}]}}"#,
        st("A", "TopicID", "X"),
        st("B", "TopicId", "X"),
        st("C", "TopicId2", "X"),
        st("D", "Self", "X"),
        st("E", "SelfRef", "X"),
        st("F", "Topic", "X"),
        st("G", "TopicRef", "X"),
        st("H", "TopicRefRef", "X"),
    );
    round_trip_with(
        "Clash",
        &schema,
        r#"
    use super::messages::clash::*;
    use kwire::message::MessageView;
    use kwire::primitives::IntoOwned;

    #[test]
    fn each_name_is_its_own_field_and_type() {
        let m = Clash {
            my_url: 1,
            my_url_2: 2,
            my_url2: 3,
            self_: 4,
            self_2: 5,
            r#type: 6,
            type_2: 7,
            a: TopicId { x: 8 },
            b: TopicId2 { x: 9 },
            c: TopicId22 { x: 10 },
            d: SelfStruct { x: 11 },
            e: SelfRef { x: 12 },
            f: Topic { x: 13 },
            g: TopicRef2 { x: 14 },
            h: TopicRefRef { x: 15 },
        };
        let bytes = m.to_bytes(0).unwrap();
        assert_eq!(&bytes[..], (1..=15).collect::<Vec<u8>>());
        assert_eq!(Clash::decode_exact(bytes.clone(), 0).unwrap(), m);
        let view = ClashRef::decode_exact(&bytes, 0).unwrap();
        let (d, e): (&SelfStructRef<'_>, &SelfRefRef<'_>) = (&view.d, &view.e);
        let (f, g, h): (&TopicRef<'_>, &TopicRef2Ref<'_>, &TopicRefRefRef<'_>) = (&view.f, &view.g, &view.h);
        assert_eq!((d.x, e.x, f.x, g.x, h.x), (11, 12, 13, 14, 15));
        assert_eq!(view.into_owned(), m);
    }"#,
        kwire_codegen::Options { views: true, ..Default::default() },
    );
}
