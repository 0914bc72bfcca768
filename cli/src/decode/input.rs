//! What `kwire decode` reads: a capture (pcap or pcapng, as tcpdump writes
//! it) cut into TCP segments, or Kafka frames, size-prefixed back to back
//! or one hex frame a line.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::net::{IpAddr, SocketAddr};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use etherparse::{NetSlice, SlicedPacket, TransportSlice};
use kwire::codec::FrameCodec;
use kwire::{Bytes, BytesMut};
use pcap_parser::pcapng::Block;
use pcap_parser::{Linktype, PcapBlockOwned, PcapError};
use tokio_util::codec::Decoder;

/// The form of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Told from the first bytes: pcap or pcapng magic, else hex text, else frames.
    Auto,
    /// A pcap or pcapng capture.
    Pcap,
    /// Size-prefixed frames back to back (a 4-byte big-endian size, then the frame).
    Frames,
    /// One frame a line in hex, with or without its size prefix.
    Hex,
}

/// A reader that counts the bytes read through it (for the progress bar).
pub struct Counted<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}

/// The input opened, its form told, and a counter of the bytes read.
pub struct Opened {
    /// The form, never [`Format::Auto`].
    pub format: Format,
    /// The bytes, from the first.
    pub reader: Box<dyn Read>,
    /// Bytes read so far.
    pub count: Rc<Cell<u64>>,
}

/// Bytes read ahead to tell the input's form (hex text by its first line).
const SNIFF_BYTES: usize = 64 << 10;

/// The capture reader's buffer: a whole block must fit (a packet of up to
/// 256 KiB, tcpdump's largest snapshot length).
const CAPTURE_BUFFER: usize = 1 << 20;

const PCAP_MAGICS: [[u8; 4]; 5] = [
    [0xa1, 0xb2, 0xc3, 0xd4],
    [0xd4, 0xc3, 0xb2, 0xa1],
    [0xa1, 0xb2, 0x3c, 0x4d],
    [0x4d, 0x3c, 0xb2, 0xa1],
    [0x0a, 0x0d, 0x0d, 0x0a], // pcapng section header
];

/// Opens `reader` and tells its form from its first bytes when `format`
/// is [`Format::Auto`].
pub fn open(reader: Box<dyn Read>, format: Format) -> io::Result<Opened> {
    let count = Rc::new(Cell::new(0));
    // Enough to tell the form; the readers after it read in larger pieces,
    // which then go straight from the input into their own buffers.
    let mut reader = BufReader::with_capacity(SNIFF_BYTES, Counted { inner: reader, count: count.clone() });
    let format = match format {
        Format::Auto => {
            let head = reader.fill_buf()?;
            if head.len() >= 4 && PCAP_MAGICS.iter().any(|m| head[..4] == m[..]) {
                Format::Pcap
            } else if looks_like_hex(head) {
                Format::Hex
            } else {
                Format::Frames
            }
        }
        other => other,
    };
    Ok(Opened { format, reader: Box::new(reader), count })
}

/// Whether the first bytes are hex text: ASCII, and the first line that is
/// not blank or a `#` comment all hex digits.
fn looks_like_hex(head: &[u8]) -> bool {
    if head.is_empty() || !head.iter().all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace()) {
        return false;
    }
    let first = head.split(|b| *b == b'\n').map(|l| l.trim_ascii()).find(|l| !l.is_empty() && !l.starts_with(b"#"));
    first.is_some_and(|l| l.iter().all(|b| b.is_ascii_hexdigit() || b.is_ascii_whitespace()))
}

/// One TCP segment of a capture.
#[derive(Debug)]
pub struct Segment<'a> {
    /// When it was captured.
    pub time: SystemTime,
    /// Sender.
    pub src: SocketAddr,
    /// Receiver.
    pub dst: SocketAddr,
    /// Sequence number.
    pub seq: u32,
    /// SYN flag.
    pub syn: bool,
    /// ACK flag.
    pub ack: bool,
    /// TCP payload.
    pub payload: &'a [u8],
}

/// What a capture gives, packet by packet.
pub enum CaptureEvent<'a> {
    /// A TCP segment.
    Segment(Segment<'a>),
    /// A packet or block that could not be read; reading goes on.
    Problem(String),
}

/// Per-interface facts of a pcapng file (or the one interface of a pcap).
struct Interface {
    linktype: Linktype,
    /// Timestamp units per second.
    resolution: u64,
    offset: u64,
}

/// Reads every packet of a pcap or pcapng capture, calling `on` for each TCP
/// segment and each problem. Non-TCP packets are passed over.
///
/// # Errors
/// An I/O error reading the input, or input that is not a capture.
pub fn read_capture(reader: Box<dyn Read>, mut on: impl FnMut(CaptureEvent<'_>)) -> Result<(), String> {
    let mut capture = match pcap_parser::create_reader(CAPTURE_BUFFER, reader) {
        Ok(capture) => capture,
        Err(PcapError::Eof) => return Ok(()),
        Err(e) => return Err(format!("not a pcap or pcapng capture: {e}")),
    };
    let mut interfaces: Vec<Interface> = Vec::new();
    let mut packet_no: u64 = 0;
    loop {
        let at = capture.consumed();
        match capture.next() {
            Ok((offset, block)) => {
                match block {
                    PcapBlockOwned::LegacyHeader(header) => {
                        let resolution = if header.is_nanosecond_precision() { 1_000_000_000 } else { 1_000_000 };
                        interfaces = vec![Interface { linktype: header.network, resolution, offset: 0 }];
                    }
                    PcapBlockOwned::Legacy(packet) => {
                        packet_no += 1;
                        let Some(interface) = interfaces.first() else {
                            on(CaptureEvent::Problem(format!(
                                "packet {packet_no} (byte {at}): no pcap header before it"
                            )));
                            capture.consume_noshift(offset);
                            continue;
                        };
                        let frac = u64::from(packet.ts_usec) * (1_000_000_000 / interface.resolution);
                        let time = SystemTime::UNIX_EPOCH
                            + Duration::new(u64::from(packet.ts_sec), 0)
                            + Duration::from_nanos(frac);
                        packet_event(
                            interface.linktype,
                            time,
                            packet.data,
                            packet_no,
                            packet.caplen < packet.origlen,
                            &mut on,
                        );
                    }
                    PcapBlockOwned::NG(Block::SectionHeader(_)) => interfaces.clear(),
                    PcapBlockOwned::NG(Block::InterfaceDescription(idb)) => interfaces.push(Interface {
                        linktype: idb.linktype,
                        resolution: idb.ts_resolution().unwrap_or(1_000_000),
                        offset: idb.ts_offset().max(0) as u64,
                    }),
                    PcapBlockOwned::NG(Block::EnhancedPacket(epb)) => {
                        packet_no += 1;
                        match interfaces.get(epb.if_id as usize) {
                            Some(interface) => {
                                let (secs, frac) = epb.decode_ts(interface.offset, interface.resolution);
                                let nanos = u128::from(frac) * 1_000_000_000 / u128::from(interface.resolution.max(1));
                                let time = SystemTime::UNIX_EPOCH
                                    + Duration::new(u64::from(secs), 0)
                                    + Duration::from_nanos(nanos.min(999_999_999) as u64);
                                packet_event(
                                    interface.linktype,
                                    time,
                                    epb.data,
                                    packet_no,
                                    epb.caplen < epb.origlen,
                                    &mut on,
                                );
                            }
                            None => on(CaptureEvent::Problem(format!(
                                "packet {packet_no} (byte {at}): interface {} is not described",
                                epb.if_id
                            ))),
                        }
                    }
                    PcapBlockOwned::NG(Block::SimplePacket(spb)) => {
                        packet_no += 1;
                        if let Some(interface) = interfaces.first() {
                            // A simple packet block has no timestamp.
                            packet_event(
                                interface.linktype,
                                SystemTime::UNIX_EPOCH,
                                spb.data,
                                packet_no,
                                false,
                                &mut on,
                            );
                        }
                    }
                    PcapBlockOwned::NG(_) => {}
                }
                // The rest is moved to the buffer's start once, when it is refilled.
                capture.consume_noshift(offset);
            }
            Err(PcapError::Eof) => return Ok(()),
            Err(PcapError::Incomplete(_)) => {
                capture.refill().map_err(|e| format!("reading the capture: {e}"))?;
            }
            Err(PcapError::UnexpectedEof) => {
                on(CaptureEvent::Problem(format!(
                    "capture truncated: the block at byte {at} ends before its length (after packet {packet_no})"
                )));
                return Ok(());
            }
            Err(e) => {
                on(CaptureEvent::Problem(format!("capture unreadable at byte {at} (after packet {packet_no}): {e}")));
                return Ok(());
            }
        }
    }
}

/// Cuts one packet down to its TCP segment, by the interface's link type.
fn packet_event(
    linktype: Linktype,
    time: SystemTime,
    data: &[u8],
    packet_no: u64,
    cut: bool,
    on: &mut impl FnMut(CaptureEvent<'_>),
) {
    if linktype == Linktype::ETHERNET {
        if let Some(segment) = plain_ipv4_tcp(time, data) {
            on(CaptureEvent::Segment(segment));
            return;
        }
    }
    let sliced = match linktype {
        Linktype::ETHERNET => SlicedPacket::from_ethernet(data),
        Linktype::LINUX_SLL => SlicedPacket::from_linux_sll(data),
        // BSD loopback: a 4-byte address family, then IP.
        Linktype::NULL | Linktype::LOOP => SlicedPacket::from_ip(data.get(4..).unwrap_or_default()),
        Linktype::RAW | Linktype::IPV4 | Linktype::IPV6 => SlicedPacket::from_ip(data),
        // Linux cooked capture v2: a 20-byte header, then IP.
        Linktype::LINUX_SLL2 => SlicedPacket::from_ip(data.get(20..).unwrap_or_default()),
        other => {
            on(CaptureEvent::Problem(format!("packet {packet_no}: link type {} is not read", other.0)));
            return;
        }
    };
    let packet = match sliced {
        Ok(packet) => packet,
        Err(e) if cut => {
            on(CaptureEvent::Problem(format!("packet {packet_no}: cut short by the capture's snapshot length ({e})")));
            return;
        }
        Err(e) => {
            on(CaptureEvent::Problem(format!("packet {packet_no}: {e}")));
            return;
        }
    };
    let (src_ip, dst_ip): (IpAddr, IpAddr) = match &packet.net {
        Some(NetSlice::Ipv4(ip)) => (ip.header().source_addr().into(), ip.header().destination_addr().into()),
        Some(NetSlice::Ipv6(ip)) => (ip.header().source_addr().into(), ip.header().destination_addr().into()),
        None => return,
    };
    let Some(TransportSlice::Tcp(tcp)) = &packet.transport else {
        return;
    };
    on(CaptureEvent::Segment(Segment {
        time,
        src: SocketAddr::new(src_ip, tcp.source_port()),
        dst: SocketAddr::new(dst_ip, tcp.destination_port()),
        seq: tcp.sequence_number(),
        syn: tcp.syn(),
        ack: tcp.ack(),
        payload: tcp.payload(),
    }));
}

/// The TCP segment of the common Ethernet packet, read directly: Ethernet
/// II without VLAN tag, IPv4 not fragmented, lengths that agree, TCP. Any
/// other packet gives `None` and goes to etherparse, which reads and
/// checks every form (the same segment for these; the test below compares).
fn plain_ipv4_tcp(time: SystemTime, data: &[u8]) -> Option<Segment<'_>> {
    let be16 = |b: &[u8], at: usize| Some(u16::from_be_bytes([*b.get(at)?, *b.get(at + 1)?]));
    if be16(data, 12)? != 0x0800 {
        return None;
    }
    let ip = data.get(14..)?;
    let (version, ihl) = (ip.first()? >> 4, usize::from(ip.first()? & 0x0f) * 4);
    let total = usize::from(be16(ip, 2)?);
    // Version 4, a whole header, no fragment (more-fragments flag or offset), TCP.
    if version != 4 || ihl < 20 || total < ihl || total > ip.len() || be16(ip, 6)? & 0x3fff != 0 || ip[9] != 6 {
        return None;
    }
    let tcp = ip.get(ihl..total)?;
    let offset = usize::from(tcp.get(12)? >> 4) * 4;
    if offset < 20 || offset > tcp.len() {
        return None;
    }
    let addr = |at: usize| Some(std::net::Ipv4Addr::from(<[u8; 4]>::try_from(ip.get(at..at + 4)?).ok()?));
    let flags = tcp[13];
    Some(Segment {
        time,
        src: SocketAddr::new(addr(12)?.into(), be16(tcp, 0)?),
        dst: SocketAddr::new(addr(16)?.into(), be16(tcp, 2)?),
        seq: u32::from_be_bytes(<[u8; 4]>::try_from(tcp.get(4..8)?).ok()?),
        syn: flags & 0x02 != 0,
        ack: flags & 0x10 != 0,
        payload: &tcp[offset..],
    })
}

/// One frame of a frame file, without its size prefix, and where it starts.
pub enum FrameEvent {
    /// A frame and the input offset of its size prefix (hex: its line number).
    Frame(u64, Bytes),
    /// Input that is not a frame; `u64` says where.
    Problem(u64, String),
}

/// Reads size-prefixed frames back to back with kwire's [`FrameCodec`]. A
/// frame whose size is negative or over `max` stops the reading (the rest
/// cannot be framed), as does a frame cut by the end of the input.
///
/// # Errors
/// An I/O error reading the input.
pub fn read_frames(mut reader: Box<dyn Read>, max: usize, mut on: impl FnMut(FrameEvent)) -> Result<(), String> {
    let mut codec = FrameCodec::with_max_frame_size(max);
    let mut buf = BytesMut::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut offset: u64 = 0;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("reading: {e}")),
        };
        buf.extend_from_slice(&chunk[..n]);
        loop {
            let next = if n == 0 { codec.decode_eof(&mut buf) } else { codec.decode(&mut buf) };
            match next {
                Ok(Some(frame)) => {
                    let len = frame.len() as u64;
                    on(FrameEvent::Frame(offset, frame));
                    offset += 4 + len;
                }
                Ok(None) if n == 0 => return Ok(()),
                Ok(None) => break,
                Err(e) => {
                    let what = if n == 0 { "input ends inside a frame" } else { "not Kafka" };
                    on(FrameEvent::Problem(offset, format!("{what}: {e}")));
                    return Ok(());
                }
            }
        }
    }
}

/// Reads one frame a line in hex (blank lines and `#` comments passed
/// over). A line whose first 4 bytes give the length of the rest is taken
/// with a size prefix, which is dropped.
///
/// # Errors
/// An I/O error reading the input.
pub fn read_hex(reader: Box<dyn Read>, mut on: impl FnMut(FrameEvent)) -> Result<(), String> {
    for (index, line) in BufReader::new(reader).lines().enumerate() {
        let line_no = index as u64 + 1;
        let line = line.map_err(|e| format!("reading line {line_no}: {e}"))?;
        let text: String = line.split('#').next().unwrap_or_default().split_whitespace().collect();
        if text.is_empty() {
            continue;
        }
        match hex_bytes(&text) {
            Ok(bytes) => {
                let prefixed = bytes.len() >= 4
                    && u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize == bytes.len() - 4;
                let frame = if prefixed { bytes[4..].to_vec() } else { bytes };
                on(FrameEvent::Frame(line_no, Bytes::from(frame)));
            }
            Err(e) => on(FrameEvent::Problem(line_no, e)),
        }
    }
    Ok(())
}

fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    if !text.len().is_multiple_of(2) {
        return Err(format!("odd number of hex digits ({})", text.len()));
    }
    text.as_bytes()
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .ok_or_else(|| format!("not hex at character {}", i * 2 + 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use etherparse::PacketBuilder;

    /// The segment etherparse reads, as the fields compared.
    fn by_etherparse(data: &[u8]) -> Option<(SocketAddr, SocketAddr, u32, bool, bool, Vec<u8>)> {
        let packet = SlicedPacket::from_ethernet(data).ok()?;
        let (Some(NetSlice::Ipv4(ip)), Some(TransportSlice::Tcp(tcp))) = (&packet.net, &packet.transport) else {
            return None;
        };
        Some((
            SocketAddr::new(ip.header().source_addr().into(), tcp.source_port()),
            SocketAddr::new(ip.header().destination_addr().into(), tcp.destination_port()),
            tcp.sequence_number(),
            tcp.syn(),
            tcp.ack(),
            tcp.payload().to_vec(),
        ))
    }

    /// Packets the direct reading takes give the segment etherparse gives;
    /// those it leaves (fragments, VLAN tags, lengths that disagree, UDP)
    /// it does not take.
    #[test]
    fn the_direct_reading_agrees_with_etherparse() {
        let packet = |syn: bool, options: bool, payload: &[u8]| {
            let b = PacketBuilder::ethernet2([1; 6], [2; 6])
                .ipv4([10, 0, 0, 1], [10, 0, 0, 2], 64)
                .tcp(50000, 9092, 0xfffffff0, 65535);
            let b = if syn { b.syn() } else { b.ack(7) };
            let b =
                if options { b.options(&[etherparse::TcpOptionElement::MaximumSegmentSize(1460)]).unwrap() } else { b };
            let mut data = Vec::new();
            b.write(&mut data, payload).unwrap();
            data
        };
        let mut taken = 0;
        let mut cases = vec![packet(true, true, b""), packet(false, false, b"kafka"), packet(false, true, &[7; 300])];
        let mut padded = packet(false, false, b"ab");
        padded.extend_from_slice(&[0; 10]); // Ethernet padding after the IP packet
        cases.push(padded);
        let mut fragment = packet(false, false, b"abc");
        fragment[20] |= 0x20; // more fragments
        cases.push(fragment);
        let mut longer = packet(false, false, b"abc");
        longer[17] += 10; // IP total length past the data
        cases.push(longer);
        let mut vlan = packet(false, false, b"abc");
        vlan.splice(12..12, [0x81, 0x00, 0x00, 0x05]);
        cases.push(vlan);
        let mut udp = packet(false, false, b"abc");
        udp[23] = 17;
        cases.push(udp);
        cases.push(packet(false, false, b"abc")[..40].to_vec()); // cut inside the TCP header
        for data in &cases {
            let direct = plain_ipv4_tcp(SystemTime::UNIX_EPOCH, data)
                .map(|s| (s.src, s.dst, s.seq, s.syn, s.ack, s.payload.to_vec()));
            if direct.is_some() {
                taken += 1;
                assert_eq!(direct, by_etherparse(data), "{data:02x?}");
            }
        }
        assert_eq!(taken, 4);
    }
}
