//! Connections of a capture: which side is the client, whether it speaks
//! Kafka, each direction reassembled and cut into frames, and every frame
//! handed to the connection's [`Pairing`] and printed.

use std::collections::HashMap;
use std::io::Write;
use std::net::SocketAddr;
use std::time::SystemTime;

use kwire::codec::FrameCodec;
use kwire::frame::RequestHead;
use kwire::{Bytes, BytesMut};
use tokio_util::codec::Decoder as _;

use super::input::{CaptureEvent, FrameEvent, Segment};
use super::output;
use super::pair::{api_name, Api, Event, Kept, Pairing};
use super::summary::Summary;
use super::tcp::Reassembler;

/// What to print, and how to tell Kafka connections.
pub struct Options {
    /// Ports Kafka listens on: the side on one of them is the broker.
    pub ports: Vec<u16>,
    /// Largest frame taken, in bytes (size prefix not counted).
    pub max_frame_size: usize,
    /// Api names to print (Kafka's names, any case); empty: all.
    pub apis: Vec<String>,
    /// Texts one of which a connection's name must contain; empty: all.
    pub connections: Vec<String>,
    /// Print each record of a record set, not only its summary.
    pub records: bool,
    /// Print only the closing table.
    pub table_only: bool,
}

/// Whether a connection speaks Kafka.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// On a Kafka port, or its first request decoded.
    Kafka,
    /// Not on a Kafka port: Kafka if its first client frame decodes as a request.
    Probing,
    /// Its first bytes are not a Kafka request: passed over.
    Other,
}

/// One direction of a connection.
#[derive(Default)]
struct Side {
    tcp: Reassembler,
    frames: FrameCodec,
    buf: BytesMut,
    /// Stream offset of the first byte of `buf`.
    offset: u64,
    /// After bytes that cannot be framed, or a gap: nothing more is read.
    broken: bool,
    /// Whether the stream's first byte, or a frame's first byte, was found:
    /// a connection caught mid-stream is read from its first segment that
    /// starts a frame.
    synced: bool,
}

struct Conn {
    label: String,
    client: SocketAddr,
    kind: Kind,
    shown: bool,
    sides: [Side; 2],
    pairing: Pairing,
}

/// Whether a segment of a connection caught mid-stream starts a frame: a
/// size within bounds, then from the client a request head of a known api
/// key at one of its versions, from the broker the correlation id of the
/// oldest request in flight.
fn starts_frame(side: usize, payload: &[u8], pairing: &Pairing, max: usize) -> bool {
    let Some((size, frame)) = payload.split_first_chunk::<4>() else {
        return false;
    };
    let size = i32::from_be_bytes(*size);
    if size < 4 || size as usize > max {
        return false;
    }
    if side == 1 {
        return pairing.is_response(frame);
    }
    RequestHead::parse(frame)
        .ok()
        .and_then(|head| head.info().ok().map(|info| info.valid_versions.contains(head.api_version)))
        .unwrap_or(false)
}

/// Writes `text` and a newline to `out`, unless only the table is printed.
fn line(out: &mut impl Write, table_only: bool, text: std::fmt::Arguments<'_>) {
    if !table_only {
        let _ = writeln!(out, "{text}");
    }
}

/// Where a frame starts, as problem lines name it: a side of a connection
/// and its stream offset, or a place in a frame file.
#[derive(Clone, Copy)]
enum At {
    /// Stream offset of one side (0: client, 1: broker).
    Side(usize, u64),
    /// `offset N` of a frame file, or `line N` of a hex file.
    Input(&'static str, u64),
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Side(side, offset) => write!(f, "{} offset {offset}", SIDES[*side]),
            At::Input(what, at) => write!(f, "{what} {at}"),
        }
    }
}

/// The side names in problem lines.
const SIDES: [&str; 2] = ["client", "broker"];

/// Decodes a whole input, printing to `out`.
pub struct Decoder<W: Write> {
    options: Options,
    out: W,
    conns: Vec<Conn>,
    /// Each connection by its pair of addresses, hashed with foldhash
    /// (randomly seeded, several times faster than the standard SipHash
    /// on these small keys: one look-up per segment).
    by_addr: HashMap<(SocketAddr, SocketAddr), usize, foldhash::fast::RandomState>,
    /// The last connection looked up, and its index: segments come in
    /// runs of one connection, which then skip the map.
    last: Option<((SocketAddr, SocketAddr), usize)>,
    /// Delivered bytes of the segment at hand (reused).
    scratch: Vec<u8>,
    /// The frames decoded last, decoded into again.
    kept: Kept,
    /// The JSON text of the body at hand (reused).
    body: Vec<u8>,
    /// The counts for the closing table.
    pub summary: Summary,
}

impl<W: Write> Decoder<W> {
    /// A decoder with nothing seen yet.
    pub fn new(options: Options, out: W) -> Self {
        let mut options = options;
        for api in &mut options.apis {
            api.make_ascii_lowercase();
        }
        Self {
            options,
            out,
            conns: Vec::new(),
            by_addr: HashMap::default(),
            last: None,
            scratch: Vec::new(),
            kept: Kept::default(),
            body: Vec::new(),
            summary: Summary::default(),
        }
    }

    /// One event of a capture.
    pub fn capture(&mut self, event: CaptureEvent<'_>) {
        match event {
            CaptureEvent::Segment(segment) => self.segment(&segment),
            CaptureEvent::Problem(cause) => {
                self.summary.problems += 1;
                self.print(format_args!("- - error capture: {cause}"));
            }
        }
    }

    /// One event of a frame file: a single stream of requests and
    /// responses named `label`, in the order they were written.
    pub fn frame(&mut self, label: &str, hex: bool, event: FrameEvent) {
        if self.conns.is_empty() {
            let shown = self.shown(label);
            let client = SocketAddr::from(([0, 0, 0, 0], 0));
            self.conns.push(Conn {
                label: label.to_string(),
                client,
                kind: Kind::Kafka,
                shown,
                sides: Default::default(),
                pairing: Pairing::default(),
            });
            self.summary.connections += u64::from(shown);
        }
        let at = if hex { "line" } else { "offset" };
        match event {
            FrameEvent::Frame(offset, frame) => {
                let side = usize::from(self.conns[0].pairing.is_response(&frame));
                self.handle(0, side, At::Input(at, offset), frame, None);
            }
            FrameEvent::Problem(offset, cause) => self.problem(0, None, format_args!("{at} {offset}: {cause}")),
        }
    }

    fn shown(&self, label: &str) -> bool {
        self.options.connections.is_empty() || self.options.connections.iter().any(|c| label.contains(c.as_str()))
    }

    fn segment(&mut self, s: &Segment<'_>) {
        let key = if s.src <= s.dst { (s.src, s.dst) } else { (s.dst, s.src) };
        // A SYN on a known pair of addresses opens a new connection (the
        // client's port used again): the old one ends there.
        let known = match self.last {
            Some((last, index)) if last == key => Some(index),
            _ => self.by_addr.get(&key).copied(),
        };
        let reused = s.syn && !s.ack && known.is_some_and(|i| self.conns[i].sides[0].tcp.offset() > 0);
        let index = match known {
            Some(index) if !reused => index,
            _ => {
                if !s.syn && s.payload.is_empty() {
                    return; // a bare ACK or FIN of a connection not seen: nothing to learn
                }
                let ports = &self.options.ports;
                let (client, kind) = if ports.contains(&s.dst.port()) {
                    (s.src, Kind::Kafka)
                } else if ports.contains(&s.src.port()) {
                    (s.dst, Kind::Kafka)
                } else if s.syn && s.ack {
                    (s.dst, Kind::Probing)
                } else {
                    (s.src, Kind::Probing)
                };
                let server = if client == s.src { s.dst } else { s.src };
                // With only the table printed and no connection chosen, no
                // line names the connection: its name is not written.
                let named = !self.options.table_only || !self.options.connections.is_empty();
                let label = if named { format!("{client}>{server}") } else { String::new() };
                let shown = self.shown(&label);
                self.conns.push(Conn {
                    label,
                    client,
                    kind,
                    shown,
                    sides: Default::default(),
                    pairing: Pairing::default(),
                });
                self.by_addr.insert(key, self.conns.len() - 1);
                if kind == Kind::Kafka && shown {
                    self.summary.connections += 1;
                }
                self.conns.len() - 1
            }
        };
        self.last = Some((key, index));
        let conn = &mut self.conns[index];
        if conn.kind == Kind::Other || !conn.shown {
            return;
        }
        let side = usize::from(s.src != conn.client);
        let sd = &mut conn.sides[side];
        if !sd.synced {
            if s.syn {
                sd.synced = true;
            } else if s.payload.is_empty() {
                return;
            } else if starts_frame(side, s.payload, &conn.pairing, self.options.max_frame_size) {
                sd.synced = true;
                sd.tcp = Reassembler::default();
            } else {
                self.summary.skipped += s.payload.len() as u64;
                return;
            }
        }
        let mut delivered = std::mem::take(&mut self.scratch);
        delivered.clear();
        let gap = conn.sides[side].tcp.push(s.seq, s.syn, s.payload, &mut delivered);
        self.take_bytes(index, side, &delivered, Some(s.time));
        if let Some(gap) = gap {
            self.gap(index, side, gap.at, gap.missing, Some(s.time));
        }
        self.scratch = delivered;
    }

    fn gap(&mut self, index: usize, side: usize, at: u64, missing: u64, time: Option<SystemTime>) {
        let conn = &mut self.conns[index];
        if conn.sides[side].broken || conn.kind != Kind::Kafka {
            conn.sides[side].broken = true;
            return;
        }
        conn.sides[side].broken = true;
        self.problem(
            index,
            time,
            format_args!(
                "{} offset {at}: {missing} bytes missing from the capture; the rest of this direction is not read",
                SIDES[side]
            ),
        );
    }

    /// Bytes of one direction, in order: cut into frames and handled.
    fn take_bytes(&mut self, index: usize, side: usize, bytes: &[u8], time: Option<SystemTime>) {
        if bytes.is_empty() || self.conns[index].sides[side].broken {
            return;
        }
        self.conns[index].sides[side].buf.extend_from_slice(bytes);
        loop {
            let max = self.options.max_frame_size;
            let s = &mut self.conns[index].sides[side];
            s.frames.set_max_frame_size(max);
            let offset = s.offset;
            match s.frames.decode(&mut s.buf) {
                Ok(Some(frame)) => {
                    s.offset += 4 + frame.len() as u64;
                    self.handle(index, side, At::Side(side, offset), frame, time);
                    if self.conns[index].kind == Kind::Other {
                        return;
                    }
                }
                Ok(None) => return,
                Err(e) => {
                    s.broken = true;
                    s.buf = BytesMut::new();
                    if self.conns[index].kind == Kind::Probing {
                        self.conns[index].kind = Kind::Other;
                    } else {
                        let cause = format!("{} offset {offset}: not Kafka: {e}", SIDES[side]);
                        self.problem(index, time, format_args!("{cause}"));
                    }
                    return;
                }
            }
        }
    }

    /// One frame of connection `index`, from the client (`side` 0) or the
    /// broker. The lines of decoded frames are written straight to the
    /// output; with `--table-only` no JSON is built at all.
    fn handle(&mut self, index: usize, side: usize, at: At, frame: Bytes, time: Option<SystemTime>) {
        let mut kept = std::mem::take(&mut self.kept);
        self.handle_into(&mut kept, index, side, at, frame, time);
        self.kept = kept;
    }

    /// [`Self::handle`], the frame decoded into `kept`.
    fn handle_into(
        &mut self,
        kept: &mut Kept,
        index: usize,
        side: usize,
        at: At,
        frame: Bytes,
        time: Option<SystemTime>,
    ) {
        let conn = &mut self.conns[index];
        let event =
            if side == 0 { conn.pairing.request(frame, time, kept) } else { conn.pairing.response(frame, time, kept) };
        if conn.kind == Kind::Probing {
            if matches!(&event, Event::Request { decoded: Ok(_), .. }) {
                conn.kind = Kind::Kafka;
                self.summary.connections += 1;
            } else {
                conn.kind = Kind::Other;
                return;
            }
        }
        let records = self.options.records;
        let table_only = self.options.table_only;
        let t = output::Time(time);
        match event {
            Event::Request { head, decoded } => {
                if !self.wants(head.api_key) {
                    return;
                }
                let api = Api(head.api_key, head.api_version);
                let corr = head.correlation_id;
                // A decoded message holds every field its version lacks at
                // the default, so its JSON form cannot fail: the table alone
                // needs only whether it decoded.
                let json = match decoded {
                    Ok(_) if table_only => Ok(None),
                    Ok(frame) => output::request_json(frame, records, &mut self.body).map(Some),
                    Err(cause) => Err(cause),
                };
                self.summary.request(head.api_key, head.api_version, json.is_err());
                match json {
                    Ok(None) => {}
                    Ok(Some(())) => {
                        let label = &self.conns[index].label;
                        let _ = write!(self.out, "{t} {label} request {api} corr {corr} ");
                        self.body.push(b'\n');
                        let _ = self.out.write_all(&self.body);
                    }
                    Err(cause) => {
                        self.summary.problems += 1;
                        let label = &self.conns[index].label;
                        line(
                            &mut self.out,
                            table_only,
                            format_args!("{t} {label} error {at}: request {api} corr {corr}: {cause}"),
                        );
                    }
                }
            }
            Event::Response { correlation_id, api_key, api_version, latency, decoded } => {
                if !self.wants(api_key) {
                    return;
                }
                let read_at = decoded.as_ref().ok().map(|f| f.version).filter(|v| *v != api_version);
                let error = decoded.as_ref().is_ok_and(|frame| output::body_has_error(&frame.body, frame.version));
                let json = match decoded {
                    Ok(_) if table_only => Ok(None),
                    Ok(frame) => output::response_json(frame, records, &mut self.body).map(Some),
                    Err(cause) => Err(cause),
                };
                self.summary.response(api_key, api_version, latency, error, json.is_err());
                let api = Api(api_key, api_version);
                let body = output::BodyVersion(read_at);
                let lat = output::Latency(latency);
                match json {
                    Ok(None) => {}
                    Ok(Some(())) => {
                        let label = &self.conns[index].label;
                        let _ = write!(self.out, "{t} {label} response {api}{body} corr {correlation_id} {lat} ");
                        self.body.push(b'\n');
                        let _ = self.out.write_all(&self.body);
                    }
                    Err(cause) => {
                        self.summary.problems += 1;
                        let label = &self.conns[index].label;
                        line(
                            &mut self.out,
                            table_only,
                            format_args!("{t} {label} error {at}: response {api}{body} corr {correlation_id}: {cause}"),
                        );
                    }
                }
            }
            Event::SaslToken { from_client, len } => {
                self.summary.sasl_tokens += 1;
                let who = if from_client { "client" } else { "broker" };
                let label = &self.conns[index].label;
                line(&mut self.out, table_only, format_args!("{t} {label} sasl-token {who} {len} bytes, not read"));
            }
            Event::Failed(cause) => self.problem(index, time, format_args!("{at}: {cause}")),
        }
    }

    fn wants(&self, api_key: i16) -> bool {
        if self.options.apis.is_empty() {
            return true;
        }
        let name = api_name(api_key);
        self.options.apis.iter().any(|api| api.eq_ignore_ascii_case(&name))
    }

    fn problem(&mut self, index: usize, time: Option<SystemTime>, cause: std::fmt::Arguments<'_>) {
        self.summary.problems += 1;
        let t = output::Time(time);
        let label = &self.conns[index].label;
        line(&mut self.out, self.options.table_only, format_args!("{t} {label} error {cause}"));
    }

    fn print(&mut self, text: std::fmt::Arguments<'_>) {
        line(&mut self.out, self.options.table_only, text);
    }

    /// At the end of the input: gaps before segments still waiting, frames
    /// cut by the end, requests never answered; then the table.
    pub fn finish(mut self) -> (W, Summary) {
        for index in 0..self.conns.len() {
            if self.conns[index].kind != Kind::Kafka || !self.conns[index].shown {
                continue;
            }
            for (side, side_name) in SIDES.into_iter().enumerate() {
                let mut delivered = Vec::new();
                let s = &mut self.conns[index].sides[side];
                let gap = s.tcp.finish(&mut delivered);
                self.take_bytes(index, side, &delivered, None);
                if let Some(gap) = gap {
                    self.gap(index, side, gap.at, gap.missing, None);
                }
                let s = &mut self.conns[index].sides[side];
                if !s.broken && !s.buf.is_empty() {
                    let offset = s.offset;
                    let cause = match s.frames.decode_eof(&mut s.buf) {
                        Err(e) => e.to_string(),
                        Ok(_) => format!("{} bytes left over", s.buf.len()),
                    };
                    let cause = format!("{} offset {offset}: capture ends inside a frame: {cause}", side_name);
                    self.problem(index, None, format_args!("{cause}"));
                }
            }
            self.summary.unanswered += self.conns[index].pairing.in_flight() as u64;
        }
        for conn in &self.conns {
            for side in &conn.sides {
                self.summary.retransmitted += side.tcp.retransmitted;
                self.summary.out_of_order += side.tcp.out_of_order;
            }
        }
        let _ = self.out.flush();
        (self.out, self.summary)
    }
}
