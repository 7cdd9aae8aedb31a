//! A level of the search waiting to be expanded: its states packed in
//! blocks (or whole, for a world that does not pack), the earlier blocks
//! written to a temporary file past [`super::FRONTIER_MEMORY`], and taken
//! back a chunk at a time.

use super::CHUNK;

/// Bytes per block of a packed level.
const LEVEL_BLOCK: usize = 1 << 20;

/// The states of one level waiting to be expanded, in the order they were
/// found: packed in blocks of bytes (each `number, length, bytes`), or
/// whole for a world that does not pack.
pub(super) struct Level<S> {
    /// The latest blocks, in memory.
    blocks: Vec<Vec<u8>>,
    /// The earlier blocks, written to a temporary file once the blocks in
    /// memory pass `spill_after` bytes.
    spill: Option<Spill>,
    /// Writing failed once: the rest of the level stays in memory.
    spill_failed: bool,
    spill_after: usize,
    whole: Vec<(u32, S)>,
    pub(super) len: usize,
}

/// A temporary file holding a level's earlier blocks. It has no name (on
/// Unix it is unlinked as soon as it is made; elsewhere the system deletes
/// it on close), so nothing is left behind however the search ends.
struct Spill {
    file: std::fs::File,
    /// The length of each block written, in order.
    lens: Vec<usize>,
    written: u64,
}

impl Spill {
    /// A new spill file in the system's temporary folder (`$TMPDIR`).
    fn create() -> std::io::Result<Spill> {
        Ok(Spill {
            file: tempfile::tempfile()?,
            lens: Vec::new(),
            written: 0,
        })
    }

    /// Writes `block` at the end; on failure the file is cut back to the
    /// blocks written whole.
    fn write(&mut self, block: &[u8]) -> bool {
        use std::io::Write;
        if self.file.write_all(block).is_err() {
            let _ = self.file.set_len(self.written);
            return false;
        }
        self.written += block.len() as u64;
        self.lens.push(block.len());
        true
    }
}

impl<S> Level<S> {
    pub(super) fn new(spill_after: usize) -> Self {
        Level {
            blocks: Vec::new(),
            spill: None,
            spill_failed: false,
            spill_after,
            whole: Vec::new(),
            len: 0,
        }
    }

    /// Writes the blocks in memory to the level's file, as far as it can.
    fn spill(&mut self) {
        if self.spill_failed {
            return;
        }
        let spill = match &mut self.spill {
            Some(spill) => spill,
            None => match Spill::create() {
                Ok(spill) => self.spill.insert(spill),
                Err(_) => {
                    self.spill_failed = true;
                    return;
                }
            },
        };
        let mut done = 0;
        for block in &self.blocks {
            if !spill.write(block) {
                self.spill_failed = true;
                break;
            }
            done += 1;
        }
        self.blocks.drain(..done);
    }

    pub(super) fn push_packed(&mut self, id: u32, bytes: &[u8]) {
        let need = 4 + 10 + bytes.len();
        let fits = self
            .blocks
            .last()
            .is_some_and(|b| b.capacity() - b.len() >= need);
        if !fits {
            if self.bytes() >= self.spill_after {
                self.spill();
            }
            // Small blocks under a small budget, so it is kept.
            let size = (self.spill_after / 4).clamp(4096, LEVEL_BLOCK);
            self.blocks.push(Vec::with_capacity(size.max(need)));
        }
        if let Some(block) = self.blocks.last_mut() {
            block.extend_from_slice(&id.to_le_bytes());
            crate::put_var(block, bytes.len());
            block.extend_from_slice(bytes);
            self.len += 1;
        }
    }

    pub(super) fn push_whole(&mut self, id: u32, state: S) {
        self.whole.push((id, state));
        self.len += 1;
    }

    pub(super) fn bytes(&self) -> usize {
        self.blocks.iter().map(Vec::capacity).sum::<usize>()
            + self.whole.capacity() * std::mem::size_of::<(u32, S)>()
    }
}

/// A state of a chunk being expanded: packed (its bytes' range in the
/// chunk's buffer) or whole.
pub(super) enum Held<S> {
    Packed(std::ops::Range<usize>),
    Whole(S),
}

/// Takes a level's states a chunk at a time, freeing each block of bytes
/// once read, so the level being left and the next are not both held
/// whole.
pub(super) struct Drain<S> {
    /// The level's file, read first, and how many of its blocks were read.
    spill: Option<Spill>,
    read: usize,
    /// A block could not be read back from the file.
    pub(super) failed: bool,
    blocks: std::vec::IntoIter<Vec<u8>>,
    block: Vec<u8>,
    at: usize,
    whole: std::vec::IntoIter<(u32, S)>,
    /// Bytes of the level not yet freed.
    pub(super) bytes: usize,
}

impl<S> Drain<S> {
    pub(super) fn new(level: Level<S>) -> Self {
        let bytes = level.bytes();
        let mut spill = level.spill;
        #[cfg(test)]
        if let Some(s) = &mut spill {
            tests::cut_short(s);
        }
        // A file that cannot be rewound cannot be read back: the level is
        // unreadable from its first block, not silently shorter.
        let failed = spill.as_mut().is_some_and(|s| {
            use std::io::Seek;
            s.file.rewind().is_err()
        });
        Drain {
            spill,
            read: 0,
            failed,
            blocks: level.blocks.into_iter(),
            block: Vec::new(),
            at: 0,
            whole: level.whole.into_iter(),
            bytes,
        }
    }

    /// The next packed record: number and bytes' range in `self.block`.
    fn next_packed(&mut self) -> Option<(u32, std::ops::Range<usize>)> {
        while self.at >= self.block.len() {
            self.bytes = self.bytes.saturating_sub(self.block.capacity());
            self.block = match self.next_spilled() {
                Some(block) => block,
                None if self.failed => return None,
                None => self.blocks.next()?,
            };
            self.at = 0;
        }
        let b = &self.block;
        let id = u32::from_le_bytes(b.get(self.at..self.at + 4)?.try_into().ok()?);
        let mut at = self.at + 4;
        let n = crate::get_var(b, &mut at)?;
        let end = at.checked_add(n).filter(|&e| e <= b.len())?;
        self.at = end;
        Some((id, at..end))
    }

    /// The next block of the level's file, if any is left.
    fn next_spilled(&mut self) -> Option<Vec<u8>> {
        use std::io::Read;
        if self.failed {
            return None;
        }
        let spill = self.spill.as_mut()?;
        let len = *spill.lens.get(self.read)?;
        self.read += 1;
        let mut block = vec![0u8; len];
        if spill.file.read_exact(&mut block).is_err() {
            self.failed = true;
            return None;
        }
        self.bytes += block.capacity();
        Some(block)
    }

    /// Fills `chunk` with up to [`CHUNK`] states, packed ones copied into
    /// `buf`.
    pub(super) fn fill(&mut self, chunk: &mut Vec<(u32, Held<S>)>, buf: &mut Vec<u8>) {
        chunk.clear();
        buf.clear();
        while chunk.len() < CHUNK {
            if let Some((id, state)) = self.whole.next() {
                chunk.push((id, Held::Whole(state)));
                continue;
            }
            let Some((id, range)) = self.next_packed() else {
                break;
            };
            let start = buf.len();
            buf.extend_from_slice(&self.block[range]);
            chunk.push((id, Held::Packed(start..buf.len())));
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::cell::Cell;

    thread_local! {
        /// Set by a test: a level's file read back is cut after this many
        /// blocks, so the block after them cannot be read.
        static READABLE_BLOCKS: Cell<Option<usize>> = const { Cell::new(None) };
    }

    /// Levels drained on this thread from now on lose their file's blocks
    /// past the first `blocks`.
    pub(in crate::search) fn cut_files_after(blocks: Option<usize>) {
        READABLE_BLOCKS.set(blocks);
    }

    pub(super) fn cut_short(spill: &mut Spill) {
        if let Some(n) = READABLE_BLOCKS.get()
            && spill.lens.len() > n
        {
            let keep: usize = spill.lens[..n].iter().sum();
            spill.file.set_len(keep as u64).unwrap();
        }
    }

    #[test]
    fn a_level_past_its_budget_goes_to_a_file_and_comes_back_in_order() {
        let mut level: Level<u32> = Level::new(0);
        for id in 0..5_000u32 {
            level.push_packed(id, &id.to_le_bytes()[..(id % 4) as usize]);
        }
        assert!(level.spill.is_some() && level.blocks.len() == 1);
        let mut drain = Drain::new(level);
        let (mut chunk, mut buf) = (Vec::new(), Vec::new());
        let mut next = 0u32;
        loop {
            drain.fill(&mut chunk, &mut buf);
            if chunk.is_empty() {
                break;
            }
            for (id, held) in &chunk {
                let Held::Packed(r) = held else { panic!() };
                assert_eq!(
                    (*id, &buf[r.clone()]),
                    (next, &next.to_le_bytes()[..(next % 4) as usize])
                );
                next += 1;
            }
        }
        assert!(!drain.failed && next == 5_000);
    }

    #[test]
    fn a_file_cut_short_stops_the_drain_at_the_missing_block() {
        let mut level: Level<u32> = Level::new(0);
        for id in 0..5_000u32 {
            level.push_packed(id, &id.to_le_bytes());
        }
        let first_block = level
            .spill
            .as_ref()
            .map_or(0, |s| s.lens.first().copied().unwrap_or(0));
        cut_files_after(Some(1));
        let mut drain = Drain::new(level);
        cut_files_after(None);
        let (mut chunk, mut buf) = (Vec::new(), Vec::new());
        let mut read = 0;
        loop {
            drain.fill(&mut chunk, &mut buf);
            if chunk.is_empty() {
                break;
            }
            read += chunk.len();
        }
        // The first block's records (4 + 1 + 4 bytes each), then nothing.
        assert!(drain.failed);
        assert_eq!(read, first_block / 9);
    }
}
