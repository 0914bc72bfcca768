//! `kwire decode` run on small captures built from real clients' frames
//! (kafka-python and confluent-kafka against a broker, recorded on
//! loopback): segments reordered, retransmitted, lost and cut; the output
//! compared line by line.

use std::io::Write;
use std::process::{Command, Stdio};

use etherparse::PacketBuilder;

/// kafka-python's ApiVersions v4 (correlation id 1), which a broker that
/// knows v0-v3 answers with UNSUPPORTED_VERSION in a v0 body.
const API_VERSIONS_V4: &str =
    "00000033001200040000000100136b61666b612d707974686f6e2d332e302e3132000d6b61666b612d707974686f6e07332e302e313200";
const API_VERSIONS_V4_ERR35: &str = "0000001000000001002300000001001200000003";
/// kafka-python's ApiVersions v3 (correlation id 2) and its answer.
const API_VERSIONS_V3: &str =
    "00000033001200030000000200136b61666b612d707974686f6e2d332e302e3132000d6b61666b612d707974686f6e07332e302e313200";
const API_VERSIONS_V3_RESP: &str = "0000001a000000020000030012000000030000030000000c000000000000";
/// confluent-kafka's Produce v10 of 3 records (keys k0..k2, values
/// hello-0..2, header h=v), correlation id 3, acks set to 0: no response.
const PRODUCE_ACKS0: &str = "000000af0000000a00000003000772646b61666b61000000000000753002\
13742d636f6e666c75656e742d39626465363702000000007a00000000000000000000006d00000000021a7fa0b5000000000002000001a22ad28033000001a22ad28033ffffffffffffffffffffffffffff0000000326000000046b300e68656c6c6f2d30020268027626000002046b310e68656c6c6f2d31020268027626000004046b320e68656c6c6f2d320202680276000000";
/// confluent-kafka's Metadata v12 (correlation id 4) and tansu's answer.
const METADATA: &str = "000000160003000c00000004000772646b61666b610001000000";
const METADATA_RESP: &str =
    "00000032000000040000000000020000006f0a3132372e302e302e31000071a500000e74616e73755f636c75737465720000006f0100";
/// kafka-python's Fetch v12 (correlation id 6) and tansu's answer: one
/// batch of 3 records at offsets 0 to 2.
const FETCH: &str = "000000740001000c0000000600136b61666b612d707974686f6e2d332e302e313200ffffffff000001f400000001032000000000000000000000000216742d6b61666b612d707974686f6e2d3361643833660200000000000000000000000000000000ffffffffffffffffffffffff001000000000010100";
const FETCH_RESP: &str = "000000c70000000600000000000000000000000216742d6b61666b612d707974686f6e2d3361643833660200000000000000000000000000030000000000000003000000000000000001ffffffff7a00000000000000000000006d000000000240632234000000000002000001a22ad32426000001a22ad3242600000000000000010000000000000000000326000000046b300e68656c6c6f2d30020268027626000002046b310e68656c6c6f2d31020268027626000004046b320e68656c6c6f2d320202680276000000";

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// A pcap file (Ethernet, microseconds) of TCP segments between a client
/// at 127.0.0.1:`client_port` and a broker at 127.0.0.1:9092.
struct Pcap {
    bytes: Vec<u8>,
    client_port: u16,
    /// Next sequence number of the client and of the broker.
    seq: [u32; 2],
    /// Microseconds since 2023-11-14T22:13:20Z.
    micros: u64,
}

const CLIENT: usize = 0;
const BROKER: usize = 1;

impl Pcap {
    fn new(client_port: u16) -> Self {
        Self::with_seq(client_port, [1000, 5000])
    }

    fn with_seq(client_port: u16, seq: [u32; 2]) -> Self {
        let mut bytes = Vec::new();
        for field in
            [0xa1b2_c3d4u32.to_le_bytes(), [2, 0, 4, 0], [0; 4], [0; 4], 65535u32.to_le_bytes(), 1u32.to_le_bytes()]
        {
            bytes.extend_from_slice(&field);
        }
        let mut pcap = Pcap { bytes, client_port, seq, micros: 0 };
        let (c, b) = (seq[0] - 1, seq[1] - 1);
        pcap.packet(CLIENT, c, true, false, b"");
        pcap.packet(BROKER, b, true, true, b"");
        pcap
    }

    /// One packet from `from` with sequence number `seq`, at the current time.
    fn packet(&mut self, from: usize, seq: u32, syn: bool, ack: bool, payload: &[u8]) {
        let ports = if from == CLIENT { (self.client_port, 9092) } else { (9092, self.client_port) };
        let builder = PacketBuilder::ethernet2([1; 6], [2; 6])
            .ipv4([127, 0, 0, 1], [127, 0, 0, 1], 64)
            .tcp(ports.0, ports.1, seq, 65535);
        let builder = if syn { builder.syn() } else { builder };
        let builder = if ack { builder.ack(1) } else { builder };
        let mut data = Vec::new();
        builder.write(&mut data, payload).unwrap();
        let ts = 1_700_000_000 * 1_000_000 + self.micros;
        self.bytes.extend_from_slice(&((ts / 1_000_000) as u32).to_le_bytes());
        self.bytes.extend_from_slice(&((ts % 1_000_000) as u32).to_le_bytes());
        self.bytes.extend_from_slice(&(data.len() as u32).to_le_bytes());
        self.bytes.extend_from_slice(&(data.len() as u32).to_le_bytes());
        self.bytes.extend_from_slice(&data);
    }

    /// Sends `hex` from `from` in order, in segments of at most `mss` bytes,
    /// `later` microseconds after the previous packet.
    fn send(&mut self, from: usize, later: u64, hex_frame: &str, mss: usize) {
        self.micros += later;
        let bytes = hex(hex_frame);
        for chunk in bytes.chunks(mss) {
            let seq = self.seq[from];
            self.packet(from, seq, false, true, chunk);
            self.seq[from] += chunk.len() as u32;
        }
    }

    /// Sends `hex` from `from` as two segments, the second first, then the
    /// first twice (a retransmission).
    fn send_reordered(&mut self, from: usize, later: u64, hex_frame: &str) {
        self.micros += later;
        let bytes = hex(hex_frame);
        let (a, b) = bytes.split_at(bytes.len() / 2);
        let seq = self.seq[from];
        self.packet(from, seq + a.len() as u32, false, true, b);
        self.packet(from, seq, false, true, a);
        self.packet(from, seq, false, true, a);
        self.seq[from] += bytes.len() as u32;
    }

    /// The same packets as a pcapng file: section header, one Ethernet
    /// interface (microseconds), an enhanced packet block each.
    fn to_pcapng(&self) -> Vec<u8> {
        let mut out = Vec::new();
        let block = |out: &mut Vec<u8>, kind: u32, body: &[u8]| {
            let len = 12 + body.len().div_ceil(4) * 4;
            out.extend_from_slice(&kind.to_le_bytes());
            out.extend_from_slice(&(len as u32).to_le_bytes());
            out.extend_from_slice(body);
            out.resize(out.len() + (len - 12 - body.len()), 0);
            out.extend_from_slice(&(len as u32).to_le_bytes());
        };
        block(
            &mut out,
            0x0a0d_0d0a,
            &[0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        );
        block(&mut out, 1, &[1, 0, 0, 0, 0xff, 0xff, 0, 0]);
        let mut at = 24;
        while at < self.bytes.len() {
            let field = |i: usize| u32::from_le_bytes(self.bytes[at + i..at + i + 4].try_into().unwrap());
            let micros = u64::from(field(0)) * 1_000_000 + u64::from(field(4));
            let len = field(8) as usize;
            let mut body = vec![0, 0, 0, 0];
            body.extend_from_slice(&((micros >> 32) as u32).to_le_bytes());
            body.extend_from_slice(&(micros as u32).to_le_bytes());
            body.extend_from_slice(&(len as u32).to_le_bytes());
            body.extend_from_slice(&(len as u32).to_le_bytes());
            body.extend_from_slice(&self.bytes[at + 16..at + 16 + len]);
            block(&mut out, 6, &body);
            at += 16 + len;
        }
        out
    }

    fn file(&self, name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("kwire-decode-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, &self.bytes).unwrap();
        path
    }
}

/// Runs `kwire decode ARGS` with `stdin`; its output lines and exit code.
fn decode(args: &[&str], stdin: &[u8]) -> (Vec<String>, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kwire"))
        .arg("decode")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    (text.lines().map(str::to_string).collect(), out.status.code().unwrap())
}

const TABLE_HEAD: &str =
    "api                          ver  requests responses errors failed     p50 ms     p99 ms     max ms";

#[test]
fn reordered_and_retransmitted_segments_pair_with_fallback_and_acks_zero() {
    let mut pcap = Pcap::new(50000);
    pcap.send_reordered(CLIENT, 1000, API_VERSIONS_V4);
    pcap.send(BROKER, 250, API_VERSIONS_V4_ERR35, 1460);
    pcap.send(CLIENT, 100, API_VERSIONS_V3, 20);
    pcap.send_reordered(BROKER, 1500, API_VERSIONS_V3_RESP);
    pcap.send(CLIENT, 100, PRODUCE_ACKS0, 64);
    pcap.send(CLIENT, 100, METADATA, 1460);
    pcap.send(BROKER, 2000, METADATA_RESP, 1460);
    let path = pcap.file("fallback.pcap");
    let (lines, code) = decode(&[path.to_str().unwrap()], b"");
    let conn = "127.0.0.1:50000>127.0.0.1:9092";
    let expected = vec![
        format!("2023-11-14T22:13:20.001000Z {conn} request ApiVersions v4 corr 1 {{\"clientSoftwareName\":\"kafka-python\",\"clientSoftwareVersion\":\"3.0.12\"}}"),
        format!("2023-11-14T22:13:20.001250Z {conn} response ApiVersions v4 (body v0) corr 1 0.250ms {{\"errorCode\":35,\"apiKeys\":[{{\"apiKey\":18,\"minVersion\":0,\"maxVersion\":3}}]}}"),
        format!("2023-11-14T22:13:20.001350Z {conn} request ApiVersions v3 corr 2 {{\"clientSoftwareName\":\"kafka-python\",\"clientSoftwareVersion\":\"3.0.12\"}}"),
        format!("2023-11-14T22:13:20.002850Z {conn} response ApiVersions v3 corr 2 1.500ms {{\"errorCode\":0,\"apiKeys\":[{{\"apiKey\":18,\"minVersion\":0,\"maxVersion\":3}},{{\"apiKey\":3,\"minVersion\":0,\"maxVersion\":12}}],\"throttleTimeMs\":0}}"),
        format!("2023-11-14T22:13:20.002950Z {conn} request Produce v10 corr 3 {{\"transactionalId\":null,\"acks\":0,\"timeoutMs\":30000,\"topicData\":[{{\"name\":\"t-confluent-9bde67\",\"partitionData\":[{{\"index\":0,\"records\":{{\"bytes\":121,\"batches\":1,\"records\":3,\"codec\":\"none\",\"offsets\":[0,2]}}}}]}}]}}"),
        format!("2023-11-14T22:13:20.003050Z {conn} request Metadata v12 corr 4 {{\"topics\":[],\"allowAutoTopicCreation\":false,\"includeTopicAuthorizedOperations\":false}}"),
        format!("2023-11-14T22:13:20.005050Z {conn} response Metadata v12 corr 4 2.000ms {{\"throttleTimeMs\":0,\"brokers\":[{{\"nodeId\":111,\"host\":\"127.0.0.1\",\"port\":29093,\"rack\":null}}],\"clusterId\":\"tansu_cluster\",\"controllerId\":111,\"topics\":[]}}"),
        String::new(),
        TABLE_HEAD.to_string(),
        "Produce                       10         1         0      0      0          -          -          -".to_string(),
        "Metadata                      12         1         1      0      0      2.000      2.000      2.000".to_string(),
        "ApiVersions                    3         1         1      0      0      1.500      1.500      1.500".to_string(),
        "ApiVersions                    4         1         1      1      0      0.250      0.250      0.250".to_string(),
        "1 connections, 4 requests, 3 responses, 0 unanswered, 0 SASL tokens passed over, 0 problems; TCP: 2 retransmitted and 2 out-of-order segments, 0 bytes before the first frame of connections caught mid-stream".to_string(),
    ];
    assert_eq!(lines, expected);
    assert_eq!(code, 0);
    // The same capture as pcapng, from standard input.
    let (lines, code) = decode(&[], &pcap.to_pcapng());
    assert_eq!((lines, code), (expected.clone(), 0));
    // The table alone, which builds no JSON, counts the same errors.
    let (lines, code) = decode(&[path.to_str().unwrap(), "--table-only"], b"");
    assert_eq!((&lines[..], code), (&expected[7..], 0));
}

#[test]
fn lost_cut_and_non_kafka_streams_get_a_line_each_and_decoding_goes_on() {
    let mut pcap = Pcap::new(50001);
    pcap.send(CLIENT, 1000, METADATA, 1460);
    // The broker's answer loses its middle segment.
    pcap.micros += 500;
    let resp = hex(METADATA_RESP);
    let seq = pcap.seq[BROKER];
    pcap.packet(BROKER, seq, false, true, &resp[..10]);
    pcap.packet(BROKER, seq + 20, false, true, &resp[20..]);
    // Another connection on the Kafka port speaks HTTP.
    let mut http = Pcap::new(50002);
    http.send(CLIENT, 2000, &"GET / HTTP/1.1\r\n\r\n".bytes().map(|b| format!("{b:02x}")).collect::<String>(), 1460);
    pcap.bytes.extend_from_slice(&http.bytes[24..]);
    // A third connection is cut inside its first request.
    let mut cut = Pcap::new(50003);
    cut.micros = 3000;
    let fetch = hex(FETCH);
    let seq = cut.seq[CLIENT];
    cut.packet(CLIENT, seq, false, true, &fetch[..50]);
    pcap.bytes.extend_from_slice(&cut.bytes[24..]);
    let path = pcap.file("broken.pcap");
    let (lines, code) = decode(&[path.to_str().unwrap()], b"");
    assert_eq!(
        lines[..4],
        [
            "2023-11-14T22:13:20.001000Z 127.0.0.1:50001>127.0.0.1:9092 request Metadata v12 corr 4 {\"topics\":[],\"allowAutoTopicCreation\":false,\"includeTopicAuthorizedOperations\":false}",
            "2023-11-14T22:13:20.002000Z 127.0.0.1:50002>127.0.0.1:9092 error client offset 0: not Kafka: frame of 1195725856 bytes is over the limit of 104857600",
            "- 127.0.0.1:50001>127.0.0.1:9092 error broker offset 10: 10 bytes missing from the capture; the rest of this direction is not read",
            "- 127.0.0.1:50003>127.0.0.1:9092 error client offset 0: capture ends inside a frame: stream ended inside a frame: 46 of 116 bytes received",
        ]
    );
    assert_eq!(lines.last().unwrap(), "3 connections, 1 requests, 0 responses, 1 unanswered, 0 SASL tokens passed over, 3 problems; TCP: 0 retransmitted and 1 out-of-order segments, 0 bytes before the first frame of connections caught mid-stream");
    assert_eq!(code, 1);

    // A capture file cut inside a packet record.
    let mut whole = Pcap::new(50004);
    whole.send(CLIENT, 1000, METADATA, 1460);
    let cut_file = &whole.bytes[..whole.bytes.len() - 5];
    let (lines, code) = decode(&[], cut_file);
    // Global header (24 bytes), then SYN and SYN-ACK (16-byte record headers, 54-byte packets).
    assert_eq!(
        lines[0],
        "- - error capture: capture truncated: the block at byte 164 ends before its length (after packet 2)"
    );
    assert_eq!(code, 1);
}

#[test]
fn sasl_tokens_after_handshake_v0_are_passed_over_and_auth_bytes_redacted() {
    let mut pcap = Pcap::new(50010);
    // SaslHandshake v0, correlation id 5, client id "c", mechanism PLAIN; answered with error 0.
    pcap.send(CLIENT, 10, "000000120011000000000005000163000550 4c41494e".replace(' ', "").as_str(), 1460);
    pcap.send(BROKER, 10, "00000011000000050000000000010005504c41494e", 1460);
    // The PLAIN token "\0alice\0secret" as bare bytes, and the broker's empty answer.
    pcap.send(CLIENT, 10, "0000000d00616c69636500736563726574", 1460);
    pcap.send(BROKER, 10, "00000000", 1460);
    pcap.send(CLIENT, 10, METADATA, 1460);
    // SaslAuthenticate v2 (correlation id 6, client id "c") with the same token: redacted.
    pcap.send(CLIENT, 10, "0000001b0024000200000006000163000e00616c6963650073656372657400", 1460);
    let path = pcap.file("sasl.pcap");
    let (lines, code) = decode(&[path.to_str().unwrap(), "--table-only"], b"");
    assert_eq!(lines[lines.len() - 1], "1 connections, 3 requests, 1 responses, 2 unanswered, 2 SASL tokens passed over, 0 problems; TCP: 0 retransmitted and 0 out-of-order segments, 0 bytes before the first frame of connections caught mid-stream");
    let (lines, code2) = decode(&[path.to_str().unwrap()], b"");
    let conn = "127.0.0.1:50010>127.0.0.1:9092";
    assert_eq!(
        lines[..6],
        [
            format!("2023-11-14T22:13:20.000010Z {conn} request SaslHandshake v0 corr 5 {{\"mechanism\":\"PLAIN\"}}"),
            format!("2023-11-14T22:13:20.000020Z {conn} response SaslHandshake v0 corr 5 0.010ms {{\"errorCode\":0,\"mechanisms\":[\"PLAIN\"]}}"),
            format!("2023-11-14T22:13:20.000030Z {conn} sasl-token client 13 bytes, not read"),
            format!("2023-11-14T22:13:20.000040Z {conn} sasl-token broker 0 bytes, not read"),
            format!("2023-11-14T22:13:20.000050Z {conn} request Metadata v12 corr 4 {{\"topics\":[],\"allowAutoTopicCreation\":false,\"includeTopicAuthorizedOperations\":false}}"),
            format!("2023-11-14T22:13:20.000060Z {conn} request SaslAuthenticate v2 corr 6 {{\"authBytes\":\"<redacted 13 bytes>\"}}"),
        ]
    );
    assert_eq!((code, code2), (0, 0));
}

#[test]
fn hex_and_size_prefixed_frames_with_records_and_filters() {
    let hex_input = format!("# kafka-python against tansu\n{FETCH}\n{FETCH_RESP}\n{METADATA}\n{METADATA_RESP}\n");
    let (lines, code) = decode(&["--records", "--api", "fetch"], hex_input.as_bytes());
    assert_eq!(lines[1], "- stdin response Fetch v12 corr 6 - {\"throttleTimeMs\":0,\"errorCode\":0,\"sessionId\":0,\"responses\":[{\"topic\":\"t-kafka-python-3ad83f\",\"partitions\":[{\"partitionIndex\":0,\"errorCode\":0,\"highWatermark\":3,\"lastStableOffset\":3,\"logStartOffset\":0,\"abortedTransactions\":[],\"preferredReadReplica\":-1,\"records\":{\"bytes\":121,\"batches\":1,\"records\":3,\"codec\":\"none\",\"offsets\":[0,2],\"list\":[{\"offset\":0,\"timestamp\":1796014810150,\"key\":\"k0\",\"value\":\"hello-0\",\"headers\":[{\"key\":\"h\",\"value\":\"v\"}]},{\"offset\":1,\"timestamp\":1796014810150,\"key\":\"k1\",\"value\":\"hello-1\",\"headers\":[{\"key\":\"h\",\"value\":\"v\"}]},{\"offset\":2,\"timestamp\":1796014810150,\"key\":\"k2\",\"value\":\"hello-2\",\"headers\":[{\"key\":\"h\",\"value\":\"v\"}]}]}}]}]}");
    assert!(lines[0].starts_with("- stdin request Fetch v12 corr 6 {\"replicaId\":-1,"));
    assert_eq!(lines[2], "");
    assert_eq!(code, 0);

    // The same frames back to back, size-prefixed, with one cut at the end.
    let mut frames: Vec<u8> = [METADATA, METADATA_RESP].iter().flat_map(|h| hex(h)).collect();
    frames.extend_from_slice(&hex(FETCH)[..30]);
    let (lines, code) = decode(&["--format", "frames"], &frames);
    assert_eq!(lines[0], "- stdin request Metadata v12 corr 4 {\"topics\":[],\"allowAutoTopicCreation\":false,\"includeTopicAuthorizedOperations\":false}");
    assert!(lines[1].starts_with("- stdin response Metadata v12 corr 4 - {\"throttleTimeMs\":0,"));
    assert_eq!(
        lines[2],
        "- stdin error offset 80: input ends inside a frame: stream ended inside a frame: 26 of 116 bytes received"
    );
    assert_eq!(code, 1);
}

#[test]
fn a_client_port_used_again_is_a_new_connection() {
    let mut pcap = Pcap::new(50020);
    pcap.send(CLIENT, 10, METADATA, 1460);
    pcap.send(BROKER, 10, METADATA_RESP, 1460);
    let mut again = Pcap::with_seq(50020, [70000, 90000]);
    again.micros = 1000;
    again.send(CLIENT, 10, METADATA, 1460);
    again.send(BROKER, 10, METADATA_RESP, 1460);
    pcap.bytes.extend_from_slice(&again.bytes[24..]);
    let path = pcap.file("reused.pcap");
    let (lines, code) = decode(&[path.to_str().unwrap(), "--table-only"], b"");
    assert_eq!(lines[lines.len() - 1], "2 connections, 2 requests, 2 responses, 0 unanswered, 0 SASL tokens passed over, 0 problems; TCP: 0 retransmitted and 0 out-of-order segments, 0 bytes before the first frame of connections caught mid-stream");
    assert_eq!(code, 0);
}

#[test]
fn connections_off_the_kafka_ports_are_kafka_when_their_first_request_decodes_and_filters_apply() {
    let mut pcap = Pcap::new(50030);
    pcap.send(CLIENT, 10, METADATA, 1460);
    pcap.send(BROKER, 10, METADATA_RESP, 1460);
    let mut http = Pcap::new(50031);
    http.send(CLIENT, 20, &"GET / HTTP/1.1\r\n\r\n".bytes().map(|b| format!("{b:02x}")).collect::<String>(), 1460);
    pcap.bytes.extend_from_slice(&http.bytes[24..]);
    let path = pcap.file("ports.pcap");
    let path = path.to_str().unwrap();
    // 9092 is not named a Kafka port: the Metadata connection is recognised, the HTTP one passed over.
    let (lines, code) = decode(&[path, "--port", "1"], b"");
    assert_eq!(lines[0], "2023-11-14T22:13:20.000010Z 127.0.0.1:50030>127.0.0.1:9092 request Metadata v12 corr 4 {\"topics\":[],\"allowAutoTopicCreation\":false,\"includeTopicAuthorizedOperations\":false}");
    assert!(lines[1].starts_with(
        "2023-11-14T22:13:20.000020Z 127.0.0.1:50030>127.0.0.1:9092 response Metadata v12 corr 4 0.010ms {"
    ));
    assert_eq!(lines.last().unwrap(), "1 connections, 1 requests, 1 responses, 0 unanswered, 0 SASL tokens passed over, 0 problems; TCP: 0 retransmitted and 0 out-of-order segments, 0 bytes before the first frame of connections caught mid-stream");
    assert_eq!(code, 0);
    // On the Kafka port, only the HTTP connection chosen: its error line alone.
    let (lines, code) = decode(&[path, "--connection", ":50031>"], b"");
    assert_eq!(lines[0], "2023-11-14T22:13:20.000020Z 127.0.0.1:50031>127.0.0.1:9092 error client offset 0: not Kafka: frame of 1195725856 bytes is over the limit of 104857600");
    assert_eq!(lines[1], "");
    assert_eq!(code, 1);
    // Only Produce wanted: nothing printed, nothing counted.
    let (lines, code) = decode(&[path, "--connection", ":50030>", "--api", "Produce"], b"");
    assert_eq!(lines[..2], ["", TABLE_HEAD]);
    assert_eq!(code, 0);
}

/// AddPartitionsToTxn before v4 has no top-level error code: a partition's
/// `PartitionErrorCode` is the response's error, counted in the table with
/// and without the lines; ShareFetch's `AcknowledgeErrorCode` likewise.
#[test]
fn error_codes_of_fields_named_other_than_error_code_count() {
    use kwire::frame::{RequestFrame, ResponseFrame};
    use kwire::messages::add_partitions_to_txn_response::{
        AddPartitionsToTxnPartitionResult, AddPartitionsToTxnTopicResult,
    };
    use kwire::messages::share_fetch_response::{PartitionData, ShareFetchableTopicResponse};
    use kwire::messages::{
        AddPartitionsToTxnRequest, AddPartitionsToTxnResponse, RequestHeader, ResponseHeader, ShareFetchRequest,
        ShareFetchResponse,
    };
    let mut frames = kwire::BytesMut::new();
    let request =
        |frames: &mut kwire::BytesMut, api_key: i16, version: i16, corr: i32, body: kwire::messages::RequestBody| {
            let header = RequestHeader {
                request_api_key: api_key,
                request_api_version: version,
                correlation_id: corr,
                ..Default::default()
            };
            RequestFrame { header, body }.encode_sized(frames).unwrap();
        };
    let response = |frames: &mut kwire::BytesMut, version: i16, corr: i32, body: kwire::messages::ResponseBody| {
        let header = ResponseHeader { correlation_id: corr, ..Default::default() };
        ResponseFrame { header, body, version }.encode_sized(frames).unwrap();
    };
    request(&mut frames, 24, 3, 1, AddPartitionsToTxnRequest::default().into());
    let partitions = vec![
        AddPartitionsToTxnPartitionResult { partition_index: 0, partition_error_code: 0, ..Default::default() },
        AddPartitionsToTxnPartitionResult { partition_index: 1, partition_error_code: 53, ..Default::default() },
    ];
    let topic =
        AddPartitionsToTxnTopicResult { name: "orders".into(), results_by_partition: partitions, ..Default::default() };
    let body = AddPartitionsToTxnResponse { results_by_topic_v3_and_below: vec![topic], ..Default::default() };
    response(&mut frames, 3, 1, body.into());
    request(&mut frames, 78, 1, 2, ShareFetchRequest::default().into());
    let partition = PartitionData {
        partition_index: 0,
        acknowledge_error_code: 87,
        records: Some(kwire::Bytes::new()),
        ..Default::default()
    };
    let topic = ShareFetchableTopicResponse { partitions: vec![partition], ..Default::default() };
    let body = ShareFetchResponse { responses: vec![topic], ..Default::default() };
    response(&mut frames, 1, 2, body.into());
    let rows = [
        "AddPartitionsToTxn             3         1         1      1      0          -          -          -",
        "ShareFetch                     1         1         1      1      0          -          -          -",
    ];
    let expected = [TABLE_HEAD.to_string(), rows[0].into(), rows[1].into()];
    let (lines, code) = decode(&["--format", "frames"], &frames);
    assert_eq!((&lines[5..8], code), (&expected[..], 0), "{lines:#?}");
    let (lines, code) = decode(&["--format", "frames", "--table-only"], &frames);
    assert_eq!((&lines[1..4], code), (&expected[..], 0), "{lines:#?}");
}
