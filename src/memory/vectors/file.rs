//! `.self/semantic.vectors` on disk: the header, the records, reading the whole file
//! (a torn last record ignored) and appending to it (see the format in [`super`]).

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::VectorError;

pub(super) const MAGIC: [u8; 8] = *b"DWVECTOR";
pub(super) const VERSION: u32 = 1;
/// Bytes of the model name field of the header.
pub(super) const MODEL_BYTES: usize = 112;
/// magic, version, dims, model.
pub(super) const HEADER_BYTES: usize = 8 + 4 + 4 + MODEL_BYTES;
/// Bytes of the id field of a record.
pub const ID_BYTES: usize = 16;
/// The most dimensions a file may declare (OpenAI's largest model has 3,072).
pub(super) const MAX_DIMS: usize = 16_384;

/// The largest file read: 2.8 million vectors of 768 dimensions, far past what exact
/// search serves (see docs/memory.md), and a bound on what a hostile (sparse) file costs.
pub(super) const MAX_FILE_BYTES: u64 = 8 << 30;

pub(super) const OP_VECTOR: u32 = 1;
pub(super) const OP_FORGET: u32 = 2;

/// What a file's header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub model: String,
    pub dims: usize,
}

impl Header {
    pub(super) fn new(model: &str, dims: usize) -> Result<Self, VectorError> {
        if model.is_empty() || model.len() > MODEL_BYTES || model.contains('\0') {
            return Err(VectorError::BadModel(model.to_owned()));
        }
        if dims == 0 || dims > MAX_DIMS {
            return Err(VectorError::BadDims(dims));
        }
        Ok(Self {
            model: model.to_owned(),
            dims,
        })
    }

    fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES);
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&u32::try_from(self.dims).unwrap_or(0).to_le_bytes());
        bytes.extend_from_slice(self.model.as_bytes());
        bytes.resize(HEADER_BYTES, 0);
        bytes
    }

    /// The header of the file at `path`, or why it is not one.
    fn decode(path: &Path, bytes: &[u8; HEADER_BYTES]) -> Result<Self, VectorError> {
        let bad = |why: String| VectorError::BadHeader {
            path: path.to_path_buf(),
            why,
        };
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        if bytes[..8] != MAGIC {
            return Err(bad("not a dreamwatch vector file".into()));
        }
        let version = word(8);
        if version != VERSION {
            return Err(bad(format!(
                "version {version}, this dreamwatch reads version {VERSION}"
            )));
        }
        let model =
            padded_text(&bytes[16..]).ok_or_else(|| bad("the model name is not UTF-8".into()))?;
        Self::new(&model, word(12) as usize).map_err(|e| bad(e.to_string()))
    }

    /// Bytes of one record.
    pub fn record_bytes(&self) -> usize {
        ID_BYTES + 4 + 4 * self.dims
    }
}

/// Accepts a file shorter than a header only as a header cut short by a crash (its
/// bytes begin like one): an empty file then, never someone else's file overwritten.
fn check_torn_header(path: &Path, bytes: &[u8]) -> Result<(), VectorError> {
    let n = bytes.len().min(MAGIC.len());
    if bytes[..n] == MAGIC[..n] {
        return Ok(());
    }
    Err(VectorError::BadHeader {
        path: path.to_path_buf(),
        why: "not a dreamwatch vector file".into(),
    })
}

/// The text of a NUL-padded field; `None` when it is not UTF-8.
fn padded_text(field: &[u8]) -> Option<String> {
    let end = field.iter().position(|b| *b == 0).unwrap_or(field.len());
    std::str::from_utf8(&field[..end]).ok().map(str::to_owned)
}

/// Checks an id fits a record: 1 to [`ID_BYTES`] bytes of UTF-8 without NUL.
pub(super) fn check_id(id: &str) -> Result<(), VectorError> {
    if id.is_empty() || id.len() > ID_BYTES || id.contains('\0') {
        return Err(VectorError::BadId(id.to_owned()));
    }
    Ok(())
}

/// One record read back.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Record {
    Vector { id: String, values: Vec<f32> },
    Forget { id: String },
}

/// What a read found besides the records.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// Records read (vectors and forgets).
    pub records: usize,
    /// Whole records left out: an unknown kind, a bad id, a value that is not finite.
    pub skipped: usize,
    /// Bytes of a last record cut short (a writer killed mid-append), ignored.
    pub torn_bytes: u64,
}

/// Reads the whole file: its header (`None` for an empty file) and its records, in order,
/// each handed to `each` with the header and the number of whole records in the file.
/// A regular file only (see [`crate::tail::open_regular`]).
pub(super) fn read(
    path: &Path,
    mut each: impl FnMut(&Header, u64, Record),
) -> Result<(Option<Header>, LoadReport), VectorError> {
    let io = VectorError::io(path);
    let file = crate::tail::open_regular(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut report = LoadReport::default();
    if len > MAX_FILE_BYTES {
        return Err(VectorError::TooLarge {
            path: path.to_path_buf(),
            bytes: len,
        });
    }
    if len == 0 {
        return Ok((None, report));
    }
    // Read no more than the length seen now, even if a writer appends meanwhile.
    let mut reader = BufReader::with_capacity(1 << 20, file.take(len));
    if len < HEADER_BYTES as u64 {
        let mut short = Vec::new();
        reader.read_to_end(&mut short).map_err(io)?;
        check_torn_header(path, &short)?;
        report.torn_bytes = len;
        return Ok((None, report));
    }
    let mut head = [0u8; HEADER_BYTES];
    reader.read_exact(&mut head).map_err(io)?;
    let header = Header::decode(path, &head)?;
    let record_bytes = header.record_bytes();
    let body = len - HEADER_BYTES as u64;
    let whole = body / record_bytes as u64;
    report.torn_bytes = body % record_bytes as u64;
    let mut record = vec![0u8; record_bytes];
    for _ in 0..whole {
        reader.read_exact(&mut record).map_err(io)?;
        match decode_record(&record) {
            Some(r) => {
                report.records += 1;
                each(&header, whole, r);
            }
            None => report.skipped += 1,
        }
    }
    Ok((Some(header), report))
}

fn decode_record(bytes: &[u8]) -> Option<Record> {
    let id = padded_text(&bytes[..ID_BYTES]).filter(|id| check_id(id).is_ok())?;
    let op = u32::from_le_bytes(bytes[ID_BYTES..ID_BYTES + 4].try_into().ok()?);
    match op {
        OP_VECTOR => {
            let values: Vec<f32> = bytes[ID_BYTES + 4..]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            // Not finite, or a length that overflows: a bad record, skipped and counted.
            (values.iter().all(|x| x.is_finite())
                && super::kernel::dot(&values, &values).is_finite())
            .then_some(Record::Vector { id, values })
        }
        OP_FORGET => Some(Record::Forget { id }),
        _ => None,
    }
}

/// Appends records to a vector file, one `write` call each on an `O_APPEND` file.
#[derive(Debug)]
pub(super) struct Appender {
    path: PathBuf,
    file: File,
    header: Header,
}

impl Appender {
    /// Opens `path` to append records under `header`: writes the header into a new or
    /// empty file, checks an existing one's, and cuts a torn last record off first (or
    /// the next record would be misaligned). Never follows a symlink: the creature owns
    /// its directory, and a link could point the runner's writes anywhere.
    pub fn open(path: &Path, header: Header) -> Result<Self, VectorError> {
        let io = VectorError::io(path);
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)
            .map_err(io)?;
        crate::tail::ensure_regular(&file).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len < HEADER_BYTES as u64 {
            let mut short = Vec::new();
            file.read_to_end(&mut short).map_err(io)?;
            check_torn_header(path, &short)?;
            file.set_len(0).map_err(io)?;
            file.write_all(&header.encode()).map_err(io)?;
        } else {
            let mut head = [0u8; HEADER_BYTES];
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.read_exact(&mut head).map_err(io)?;
            let found = Header::decode(path, &head)?;
            if found != header {
                return Err(VectorError::Mismatch {
                    file: found,
                    asked: header,
                });
            }
            let torn = (len - HEADER_BYTES as u64) % header.record_bytes() as u64;
            if torn > 0 {
                file.set_len(len - torn).map_err(io)?;
            }
        }
        Ok(Self {
            path: path.to_path_buf(),
            file,
            header,
        })
    }

    /// Appends a vector record (`values` already checked: finite, `dims` long).
    pub fn vector(&mut self, id: &str, values: &[f32]) -> Result<(), VectorError> {
        let mut bytes = Vec::with_capacity(self.header.record_bytes());
        encode_record(&mut bytes, id, OP_VECTOR, values);
        self.write(&bytes)
    }

    /// Appends a forget record (its values all zero, so every record has one size).
    pub fn forget(&mut self, id: &str) -> Result<(), VectorError> {
        let mut bytes = Vec::with_capacity(self.header.record_bytes());
        encode_record(&mut bytes, id, OP_FORGET, &[]);
        bytes.resize(self.header.record_bytes(), 0);
        self.write(&bytes)
    }

    /// One write; a short one (disk full) is undone, so no torn record stays behind.
    fn write(&mut self, bytes: &[u8]) -> Result<(), VectorError> {
        let io = VectorError::io(&self.path);
        let before = self.file.metadata().map_err(io)?.len();
        let written = self.file.write(bytes).map_err(io)?;
        if written != bytes.len() {
            let _ = self.file.set_len(before);
            return Err(io(io::Error::new(
                io::ErrorKind::WriteZero,
                "short write (disk full?)",
            )));
        }
        Ok(())
    }
}

/// Appends one record's bytes to `out`: the id NUL-padded, the kind, the values.
fn encode_record(out: &mut Vec<u8>, id: &str, op: u32, values: &[f32]) {
    let start = out.len();
    out.extend_from_slice(id.as_bytes());
    out.resize(start + ID_BYTES, 0);
    out.extend_from_slice(&op.to_le_bytes());
    for x in values {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

/// The bytes of a whole file: `header` and one vector record per entry.
pub(super) fn encode_file<'a>(
    header: &Header,
    entries: impl Iterator<Item = (&'a str, &'a [f32])>,
) -> Vec<u8> {
    let mut bytes = header.encode();
    for (id, values) in entries {
        encode_record(&mut bytes, id, OP_VECTOR, values);
    }
    bytes
}
