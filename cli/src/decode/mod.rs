//! `kwire decode`: captured Kafka traffic, one line per request and
//! response, then a table.
//!
//! | module | concern |
//! |---|---|
//! | [`input`] | the input: pcap/pcapng packets cut to TCP segments, size-prefixed frames, hex frames |
//! | [`tcp`] | each TCP direction put back in order (retransmissions, reordering, gaps) |
//! | [`conn`] | connections: client and broker sides, Kafka or not, frames cut from each direction |
//! | [`pair`] | requests paired with responses (kwire's `Correlator`), SASL tokens passed over |
//! | [`output`] | the printed lines and the record-set summaries |
//! | [`summary`] | the closing table |

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

mod conn;
mod input;
mod output;
mod pair;
mod summary;
mod tcp;

use input::Format;

/// Inputs at least this large get a progress bar (on a terminal).
const PROGRESS_MIN_BYTES: u64 = 64 << 20;

/// Arguments of `kwire decode`.
#[derive(clap::Args)]
pub struct Args {
    /// The capture or frame file; standard input when absent or `-`.
    input: Option<PathBuf>,
    /// The input's form.
    #[arg(long, value_enum, default_value = "auto")]
    format: Format,
    /// A port Kafka listens on (repeatable). Connections on other ports
    /// are taken as Kafka when their first request decodes.
    #[arg(long = "port", value_name = "PORT", default_values_t = [9092u16])]
    ports: Vec<u16>,
    /// Print only requests and responses of this api (Kafka's name, e.g.
    /// Produce; repeatable).
    #[arg(long = "api", value_name = "NAME")]
    apis: Vec<String>,
    /// Print only connections whose name (CLIENT>BROKER, e.g.
    /// 127.0.0.1:50312>127.0.0.1:9092) contains TEXT (repeatable).
    #[arg(long = "connection", value_name = "TEXT")]
    connections: Vec<String>,
    /// Print every record of a record set, not only its summary.
    #[arg(long)]
    records: bool,
    /// Print only the closing table.
    #[arg(long)]
    table_only: bool,
    /// The largest frame taken, in bytes (Kafka's socket.request.max.bytes
    /// is 100 MiB by default).
    #[arg(long, value_name = "BYTES", default_value_t = 100 << 20)]
    max_frame_size: usize,
}

/// Runs `kwire decode`: exit status 0 when everything decoded, 1 when
/// anything did not, 2 when the input could not be read.
pub fn run(args: Args) -> ExitCode {
    let (reader, name, size): (Box<dyn Read>, String, Option<u64>) = match &args.input {
        Some(path) if path.as_os_str() != "-" => match File::open(path) {
            Ok(file) => {
                let size = file.metadata().ok().map(|m| m.len());
                (Box::new(file), path.display().to_string(), size)
            }
            Err(e) => {
                eprintln!("kwire decode: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        },
        _ => (Box::new(io::stdin()), "stdin".to_string(), None),
    };
    let opened = match input::open(reader, args.format) {
        Ok(opened) => opened,
        Err(e) => {
            eprintln!("kwire decode: {name}: {e}");
            return ExitCode::from(2);
        }
    };
    let progress = match size {
        Some(len) if len >= PROGRESS_MIN_BYTES && io::stderr().is_terminal() => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
            {
                bar.set_style(style);
            }
            Some(bar)
        }
        _ => None,
    };
    let count = opened.count.clone();
    let tick = |n: u64| {
        if let Some(bar) = &progress {
            if n.is_multiple_of(1024) {
                bar.set_position(count.get());
            }
        }
    };
    let options = conn::Options {
        ports: args.ports,
        max_frame_size: args.max_frame_size,
        apis: args.apis,
        connections: args.connections,
        records: args.records,
        table_only: args.table_only,
    };
    let mut decoder = conn::Decoder::new(options, io::BufWriter::with_capacity(1 << 16, io::stdout().lock()));
    let mut n = 0u64;
    let read = match opened.format {
        Format::Pcap | Format::Auto => input::read_capture(opened.reader, |event| {
            n += 1;
            tick(n);
            decoder.capture(event);
        }),
        Format::Frames => input::read_frames(opened.reader, args.max_frame_size, |event| {
            n += 1;
            tick(n);
            decoder.frame(&name, false, event);
        }),
        Format::Hex => input::read_hex(opened.reader, |event| decoder.frame(&name, true, event)),
    };
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let (mut out, mut summary) = decoder.finish();
    let failed_to_read = match read {
        Ok(()) => false,
        Err(e) => {
            eprintln!("kwire decode: {name}: {e}");
            true
        }
    };
    use std::io::Write as _;
    let table = summary.table();
    let _ = writeln!(out);
    let _ = write!(out, "{table}");
    let _ = out.flush();
    if failed_to_read {
        ExitCode::from(2)
    } else if summary.failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
