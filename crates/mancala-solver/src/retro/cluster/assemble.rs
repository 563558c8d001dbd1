//! The database file, written by process 0 from every process's slices without holding
//! the database: class by class (one timely epoch each), every other process sends its
//! slice in pieces of [`PIECE`] bytes to worker 0, which writes each piece where it
//! belongs in the file. The header goes first with placeholder checksums (their width is
//! fixed, so the header's length is known before the values); once every class is in
//! place process 0 reads the file back class by class, computes the checksums as the
//! single-machine build does, and writes the real header over the placeholder. Memory:
//! a sender queues at most its slice of one class; the writer, a piece at a time.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

use super::super::db::{Checksum, DbError, Header, bytes, head_bytes, io};
use super::held::Slice;

/// Bytes of the values of one record.
const PIECE: usize = 1 << 16;

/// Bytes of a [`Piece`] record besides its values (bincode: class 4, offset 8, length 8).
pub(super) const PIECE_OVERHEAD: u64 = 20;

/// A run of values of a class, from index `offset`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Piece {
    class: u32,
    offset: u64,
    values: Vec<u8>,
}

/// The file being written: its header (checksums to come) and where its values start.
pub(super) struct Writer {
    tmp: PathBuf,
    file: File,
    header: Header,
    head: u64,
}

impl Writer {
    /// Starts the file `path` (through a temporary file) for the classes `header` lists,
    /// their checksums not known yet.
    pub fn create(path: &Path, header: Header) -> Result<Self, DbError> {
        let tmp = path.with_extension("tmp");
        let mut file = File::create(&tmp).map_err(io(&tmp))?;
        let head = head_bytes(&header);
        file.write_all(&head).map_err(io(&tmp))?;
        let values: u64 = header.classes.iter().map(|c| c.positions).sum();
        file.set_len(head.len() as u64 + values).map_err(io(&tmp))?;
        Ok(Writer {
            tmp,
            file,
            header,
            head: head.len() as u64,
        })
    }

    /// Values of class number `k` from index `offset`.
    fn put(&mut self, k: usize, offset: u64, values: &[u8]) -> Result<(), DbError> {
        let at = self.head + self.header.classes[k].offset + offset;
        self.file.seek(SeekFrom::Start(at)).map_err(io(&self.tmp))?;
        self.file.write_all(values).map_err(io(&self.tmp))
    }

    /// Every class's checksum from the file, the real header over the placeholder, and
    /// the file renamed to `path`.
    pub fn finish(mut self, path: &Path) -> Result<(), DbError> {
        let placeholder = self.head;
        self.file.flush().map_err(io(&self.tmp))?;
        let mut r =
            BufReader::with_capacity(1 << 20, File::open(&self.tmp).map_err(io(&self.tmp))?);
        r.seek(SeekFrom::Start(self.head)).map_err(io(&self.tmp))?;
        let mut buf = vec![0u8; 1 << 20];
        for info in &mut self.header.classes {
            let mut sum = Checksum::new(info.positions);
            let mut left = info.positions;
            while left > 0 {
                let take = left.min(buf.len() as u64) as usize;
                r.read_exact(&mut buf[..take]).map_err(io(&self.tmp))?;
                sum.update(&buf[..take]);
                left -= take as u64;
            }
            info.checksum = format!("{:016x}", sum.finish());
        }
        let head = head_bytes(&self.header);
        if head.len() as u64 != placeholder {
            return Err(DbError::Format {
                path: self.tmp.display().to_string(),
                what: "the header changed length when its checksums were filled in".into(),
            });
        }
        self.file.seek(SeekFrom::Start(0)).map_err(io(&self.tmp))?;
        self.file.write_all(&head).map_err(io(&self.tmp))?;
        self.file.sync_all().map_err(io(&self.tmp))?;
        std::fs::rename(&self.tmp, path).map_err(io(path))
    }
}

/// Every process's slices of the `classes` classes to worker 0, which writes them with
/// `writer` (worker 0 only); `slices` is this process's (its first worker only). Returns
/// the bytes this worker sent and the writer's first error.
pub(super) fn gather(
    worker: &mut Worker,
    classes: usize,
    slices: Option<&[Arc<Slice>]>,
    writer: Option<Writer>,
) -> (u64, Option<Writer>, Option<DbError>) {
    let state = Rc::new(RefCell::new((writer, None::<DbError>)));
    let mut input = InputHandle::<u64, CapacityContainerBuilder<Vec<Piece>>>::new();
    let probe = ProbeHandle::new();
    let s = Rc::clone(&state);
    worker.dataflow::<u64, _, _>(|scope| {
        scope
            .input_from(&mut input)
            .exchange(|_: &Piece| 0)
            .inspect(move |p: &Piece| put(&s, p.class as usize, p.offset, &p.values))
            .probe_with(&probe);
    });
    let mut sent = 0u64;
    for k in 0..classes {
        if let Some(slice) = slices.map(|s| &s[k]) {
            let values = bytes(&slice.values);
            for (i, piece) in values.chunks(PIECE).enumerate() {
                let offset = (slice.start + i * PIECE) as u64;
                if worker.index() == 0 {
                    put(&state, k, offset, piece);
                } else {
                    input.send(Piece {
                        class: k as u32,
                        offset,
                        values: piece.to_vec(),
                    });
                    sent += PIECE_OVERHEAD + piece.len() as u64;
                }
            }
        }
        input.advance_to(k as u64 + 1);
        while probe.less_than(input.time()) {
            worker.step();
        }
    }
    let mut s = state.borrow_mut();
    (sent, s.0.take(), s.1.take())
}

/// Writes a piece with the writer, if this worker has it; keeps the first error.
fn put(state: &RefCell<(Option<Writer>, Option<DbError>)>, k: usize, offset: u64, values: &[u8]) {
    let mut s = state.borrow_mut();
    let (writer, error) = &mut *s;
    if let (Some(w), None) = (writer.as_mut(), &*error)
        && let Err(e) = w.put(k, offset, values)
    {
        *error = Some(e);
    }
}
