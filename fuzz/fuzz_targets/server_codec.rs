//! A byte stream from an unauthenticated peer through the server codec
//! (`kwire::codec::ServerCodec`), fed in chunks, with the connection
//! authenticated after some frame: the codec yields exactly the frames a
//! plain reading of the stream finds, refuses a size prefix over the limit
//! in force (the unauthenticated one until authentication) or a negative
//! one before any of that frame is read, reports a frame cut short at the
//! end of the stream, and never holds a buffer sized by a size prefix
//! rather than by the bytes that came.
//!
//! Input: byte 0, the number of frames after which the connection
//! authenticates (255: never); byte 1, the unauthenticated limit in units of
//! 16 bytes (plus 1); byte 2, the chunk size (1 to 64); then the stream.
#![no_main]

use kwire::codec::{CodecError, RawRequest, ServerCodec, DEFAULT_MAX_FRAME_SIZE};
use kwire::{Bytes, BytesMut};
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::Decoder;

/// What a plain reading of the stream finds next.
#[derive(Debug)]
enum Expected {
    Frame(Bytes),
    Short(usize),
    Negative(i32),
    TooLarge {
        size: usize,
        max: usize,
    },
    /// The stream ends inside a size prefix or a frame.
    Cut,
    End,
}

/// The frames of `stream` read one by one, with the limit of the moment.
fn expected(stream: &[u8], auth_after: usize, unauthenticated_max: usize) -> Vec<Expected> {
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        let max = if out.len() >= auth_after { DEFAULT_MAX_FRAME_SIZE } else { unauthenticated_max };
        let rest = &stream[at..];
        if rest.is_empty() {
            out.push(Expected::End);
            return out;
        }
        if rest.len() < 4 {
            out.push(Expected::Cut);
            return out;
        }
        let size = i32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let Ok(len) = usize::try_from(size) else {
            out.push(Expected::Negative(size));
            return out;
        };
        if len > max {
            out.push(Expected::TooLarge { size: len, max });
            return out;
        }
        if rest.len() - 4 < len {
            out.push(Expected::Cut);
            return out;
        }
        let frame = Bytes::copy_from_slice(&rest[4..4 + len]);
        out.push(if len < 8 { Expected::Short(len) } else { Expected::Frame(frame) });
        at += 4 + len;
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let auth_after = if data[0] == 255 { usize::MAX } else { usize::from(data[0]) };
    let unauthenticated_max = 1 + 16 * usize::from(data[1]);
    let chunk = 1 + usize::from(data[2] % 64);
    let stream = &data[3..];
    let want = expected(stream, auth_after, unauthenticated_max);

    let mut codec = ServerCodec::new();
    codec.set_max_unauthenticated_frame_size(unauthenticated_max);
    codec.set_authenticated(auth_after == 0);
    let mut buf = BytesMut::new();
    let mut got: Vec<Result<RawRequest, CodecError>> = Vec::new();
    let mut fed = 0;
    let mut failed = false;
    'feed: for piece in stream.chunks(chunk) {
        buf.extend_from_slice(piece);
        fed += piece.len();
        loop {
            let result = codec.decode(&mut buf);
            // No reservation sized by a size prefix: what the buffer holds
            // room for follows what came (a frame may announce 100 MiB once
            // authenticated; the input is at most 64 KiB). The slack covers
            // the buffer's own doubling and the capacity it keeps after a
            // frame is split off.
            assert!(buf.capacity() <= 8 * fed + 65_536, "capacity {} after {fed} bytes", buf.capacity());
            match result {
                Ok(None) => break,
                Ok(Some(request)) => got.push(Ok(request)),
                Err(e @ CodecError::ShortRequest(_)) => got.push(Err(e)),
                Err(e) => {
                    got.push(Err(e));
                    failed = true;
                    break 'feed;
                }
            }
            if got.len() == auth_after {
                codec.set_authenticated(true);
            }
        }
    }
    let end = if failed { None } else { Some(codec.decode_eof(&mut buf)) };

    for (i, want) in want.iter().enumerate() {
        match (want, got.get(i)) {
            (Expected::Frame(frame), Some(Ok(request))) => assert_eq!(request.as_bytes(), frame, "frame {i}"),
            (Expected::Short(len), Some(Err(CodecError::ShortRequest(n)))) => assert_eq!(n, len, "frame {i}"),
            (Expected::Negative(size), Some(Err(CodecError::NegativeSize(n)))) => assert_eq!(n, size, "frame {i}"),
            (Expected::TooLarge { size, max }, Some(Err(CodecError::FrameTooLarge { size: s, max: m }))) => {
                assert_eq!((s, m), (size, max), "frame {i}")
            }
            (Expected::Cut, None) => {
                assert!(matches!(end, Some(Err(CodecError::Truncated { .. }))), "frame {i}: {end:?}")
            }
            (Expected::End, None) => assert!(matches!(end, Some(Ok(None))), "frame {i}: {end:?}"),
            (want, got) => panic!("frame {i}: expected {want:?}, the codec gave {got:?}"),
        }
    }
    assert_eq!(got.len(), want.iter().filter(|w| !matches!(w, Expected::Cut | Expected::End)).count());
});
