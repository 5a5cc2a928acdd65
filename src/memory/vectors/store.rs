//! [`VectorStore`]: the vector file and its index kept in step (every change appended
//! to the file, then made in the index), and [`load`] for readers.

use std::io;
use std::path::{Path, PathBuf};

use super::VectorError;
use super::file::{self, Appender, Header, LoadReport, Record};
use super::index::VectorIndex;
use super::kernel::normalised;

/// A vector file read whole.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    /// `None` for a missing or empty file.
    pub header: Option<Header>,
    pub index: VectorIndex,
    pub report: LoadReport,
}

/// Reads the vector file at `path` into an index: records in order, a later vector for
/// an id replacing the earlier, a forget removing it. A missing file is an empty index;
/// a torn last record is left out (counted in the report); a bad header is an error.
pub fn load(path: &Path) -> Result<Loaded, VectorError> {
    let mut index: Option<VectorIndex> = None;
    let mut refused = 0;
    let read = file::read(path, |header, records, record| {
        let index = index.get_or_insert_with(|| {
            let mut index = VectorIndex::new(header.dims);
            index.reserve(usize::try_from(records).unwrap_or(0));
            index
        });
        match record {
            Record::Vector { id, values } => {
                if index.push(&id, &values).is_err() {
                    refused += 1;
                }
            }
            Record::Forget { id } => {
                index.remove(&id);
            }
        }
    });
    let (header, mut report) = match read {
        Ok(read) => read,
        Err(VectorError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(Loaded::default());
        }
        Err(e) => return Err(e),
    };
    report.skipped += refused;
    let index = index.unwrap_or_else(|| VectorIndex::new(header.as_ref().map_or(0, |h| h.dims)));
    Ok(Loaded {
        header,
        index,
        report,
    })
}

/// The vector side file of a semantic memory and its in-memory index.
#[derive(Debug)]
pub struct VectorStore {
    path: PathBuf,
    header: Option<Header>,
    index: VectorIndex,
    /// Opened at the first write.
    appender: Option<Appender>,
}

impl VectorStore {
    /// Reads `path` (see [`load`]); the file is created at the first [`add`](Self::add).
    pub fn open(path: impl Into<PathBuf>) -> Result<(Self, LoadReport), VectorError> {
        let path = path.into();
        let loaded = load(&path)?;
        let store = Self {
            path,
            header: loaded.header,
            index: loaded.index,
            appender: None,
        };
        Ok((store, loaded.report))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The embedding model of the vectors kept (`None` before the first).
    pub fn model(&self) -> Option<&str> {
        self.header.as_ref().map(|h| h.model.as_str())
    }

    /// The vectors, to search.
    pub fn index(&self) -> &VectorIndex {
        &self.index
    }

    /// Keeps `vector` for `id` (replacing the one it had): appended to the file, then
    /// indexed. Every vector of a store comes from one `model` with one length: another
    /// is [`VectorError::Mismatch`] (after a model change, [`clear`](Self::clear) and
    /// embed the memories again).
    pub fn add(&mut self, id: &str, model: &str, vector: &[f32]) -> Result<(), VectorError> {
        let asked = Header::new(model, vector.len())?;
        match &self.header {
            Some(header) if *header != asked => {
                return Err(VectorError::Mismatch {
                    file: header.clone(),
                    asked,
                });
            }
            Some(_) => {}
            None => self.index = VectorIndex::new(asked.dims),
        }
        file::check_id(id)?;
        if !vector.iter().all(|x| x.is_finite()) || !super::kernel::dot(vector, vector).is_finite()
        {
            return Err(VectorError::NotFinite);
        }
        let unit = normalised(vector);
        self.appender(asked)?.vector(id, &unit)?;
        self.index.push(id, &unit)
    }

    /// Forgets `id` (a tombstone appended); whether it was there.
    pub fn forget(&mut self, id: &str) -> Result<bool, VectorError> {
        let Some(header) = self.header.clone() else {
            return Ok(false);
        };
        if !self.index.contains(id) {
            return Ok(false);
        }
        self.appender(header)?.forget(id)?;
        Ok(self.index.remove(id))
    }

    /// Removes every vector and the file, for a change of embedding model.
    pub fn clear(&mut self) -> Result<(), VectorError> {
        self.appender = None;
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(VectorError::io(&self.path)(e));
            }
            _ => {}
        }
        self.header = None;
        self.index = VectorIndex::new(0);
        Ok(())
    }

    /// Rewrites the file with the live vectors only (atomically: a reader sees the old
    /// file or the new one), dropping tombstones and replaced vectors.
    pub fn compact(&mut self) -> Result<(), VectorError> {
        let Some(header) = &self.header else {
            return Ok(());
        };
        let entries = self
            .index
            .ids()
            .filter_map(|id| Some((id, self.index.get(id)?)));
        let bytes = file::encode_file(header, entries);
        crate::memory::write::atomic_write(&self.path, &bytes)
            .map_err(VectorError::io(&self.path))?;
        self.appender = None;
        Ok(())
    }

    /// The appender, opened (and the header written or checked) at the first write.
    fn appender(&mut self, header: Header) -> Result<&mut Appender, VectorError> {
        let appender = match self.appender.take() {
            Some(appender) => appender,
            None => {
                let appender = Appender::open(&self.path, header.clone())?;
                self.header = Some(header);
                appender
            }
        };
        Ok(self.appender.insert(appender))
    }
}
