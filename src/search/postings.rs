//! A term's chunk postings, compressed: sorted by chunk id, in blocks of at
//! most [`BLOCK`] postings, each block a 7-byte header (how many postings,
//! its payload's bytes, its first chunk id) and then, per posting, the gap
//! from the chunk before and the counts, as LEB128 varints, the commonest
//! counts (once in the text) folded into the gap's byte. A common word's
//! posting takes 1 byte instead of 8, about 2.4 on average at 10 000 notes,
//! which is what lets 100 000 notes fit the plugin's memory (BENCHMARKS.md,
//! issue 38 item 2).
//!
//! Blocks keep an edit local: a freed chunk id used again, or a note
//! dropped, re-encodes only the blocks that hold its chunks (found by
//! skipping headers), never a whole list that spans the vault. While a
//! vault is first indexed chunk ids only grow, and a posting is appended.

/// A chunk's own fields for one term: how often it is in the heading path
/// and in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Posting {
    pub chunk: u32,
    pub heading: u8,
    pub body: u16,
}

/// Postings per block: an edit decodes and re-encodes at most one block of
/// this many (twice that before it is split).
const BLOCK: usize = 128;
const HEADER: usize = 7;

#[derive(Clone, Debug, Default)]
pub(crate) struct PostingList {
    bytes: Vec<u8>,
    /// Where the last block's header starts.
    tail: u32,
    /// The last posting's chunk id.
    last: u32,
    len: u32,
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline]
fn get_varint(bytes: &[u8], at: &mut usize) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = bytes[*at];
        *at += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// One posting: the gap from the chunk before (0 for a block's first)
/// doubled, plus one when its counts are the commonest (once in the text,
/// not in the heading path: then the posting is that one byte); else the
/// body count doubled, plus one when the heading count follows.
fn put_posting(out: &mut Vec<u8>, gap: u32, p: &Posting) {
    let plain = p.heading == 0 && p.body == 1;
    put_varint(out, u64::from(gap) * 2 + u64::from(plain));
    if !plain {
        put_varint(out, u64::from(p.body) * 2 + u64::from(p.heading > 0));
        if p.heading > 0 {
            put_varint(out, u64::from(p.heading));
        }
    }
}

/// The gap, heading count and body count of the posting at `at`.
#[inline]
fn get_posting(bytes: &[u8], at: &mut usize) -> (u32, u8, u16) {
    // Most postings are one byte: read it without the varint loop.
    let first = bytes[*at];
    let v = if first < 0x80 {
        *at += 1;
        u64::from(first)
    } else {
        get_varint(bytes, at)
    };
    let gap = (v >> 1) as u32;
    if v & 1 == 1 {
        return (gap, 0, 1);
    }
    let counts = get_varint(bytes, at);
    let heading = if counts & 1 == 1 {
        get_varint(bytes, at) as u8
    } else {
        0
    };
    (gap, heading, (counts >> 1) as u16)
}

struct Header {
    count: usize,
    len: usize,
    first: u32,
}

fn header(bytes: &[u8], at: usize) -> Header {
    Header {
        count: usize::from(bytes[at]),
        len: usize::from(u16::from_le_bytes([bytes[at + 1], bytes[at + 2]])),
        first: u32::from_le_bytes([bytes[at + 3], bytes[at + 4], bytes[at + 5], bytes[at + 6]]),
    }
}

/// One block of `postings` (sorted, 1..=255 of them), header included.
fn encode(postings: &[Posting], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(&[postings.len() as u8, 0, 0]);
    out.extend_from_slice(&postings[0].chunk.to_le_bytes());
    let mut previous = postings[0].chunk;
    for p in postings {
        put_posting(out, p.chunk - previous, p);
        previous = p.chunk;
    }
    let len = (out.len() - start - HEADER) as u16;
    out[start + 1..start + 3].copy_from_slice(&len.to_le_bytes());
}

fn decode(bytes: &[u8], at: usize, out: &mut Vec<Posting>) {
    let h = header(bytes, at);
    let mut i = at + HEADER;
    let mut chunk = h.first;
    for _ in 0..h.count {
        let (gap, heading, body) = get_posting(bytes, &mut i);
        chunk += gap;
        out.push(Posting {
            chunk,
            heading,
            body,
        });
    }
}

impl PostingList {
    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The heap it holds.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity()
    }

    pub fn shrink_to_fit(&mut self) {
        self.bytes.shrink_to_fit();
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter {
            bytes: &self.bytes,
            at: 0,
            left: 0,
            chunk: 0,
        }
    }

    /// Puts `p` in its place: appended when its chunk id is past the last
    /// (always, while a vault is first indexed), else into its block.
    pub fn insert(&mut self, p: Posting) {
        if self.len > 0 && p.chunk <= self.last {
            self.insert_inside(p);
            return;
        }
        let tail = self.tail as usize;
        if self.len == 0 || usize::from(self.bytes[tail]) >= BLOCK {
            self.tail = self.bytes.len() as u32;
            encode(&[p], &mut self.bytes);
        } else {
            let before = self.bytes.len();
            put_posting(&mut self.bytes, p.chunk - self.last, &p);
            let h = header(&self.bytes, tail);
            let len = (h.len + self.bytes.len() - before) as u16;
            self.bytes[tail] += 1;
            self.bytes[tail + 1..tail + 3].copy_from_slice(&len.to_le_bytes());
        }
        self.last = p.chunk;
        self.len += 1;
    }

    /// Replaces the block at `at` with `postings` (none: the block goes; more
    /// than [`BLOCK`]: two blocks); the bytes it takes now, and where the
    /// last block it wrote starts.
    fn rewrite(&mut self, at: usize, postings: &[Posting]) -> (usize, usize) {
        let end = at + HEADER + header(&self.bytes, at).len;
        let mut encoded = Vec::new();
        let mut last_start = at;
        if postings.len() > BLOCK {
            let half = postings.len() / 2;
            encode(&postings[..half], &mut encoded);
            last_start = at + encoded.len();
            encode(&postings[half..], &mut encoded);
        } else if !postings.is_empty() {
            encode(postings, &mut encoded);
        }
        let written = encoded.len();
        self.bytes.splice(at..end, encoded);
        (written, last_start)
    }

    /// The tail and last chunk found again (after the last block went).
    fn refresh_tail(&mut self) {
        self.tail = 0;
        self.last = 0;
        let mut at = 0;
        while at < self.bytes.len() {
            self.tail = at as u32;
            at += HEADER + header(&self.bytes, at).len;
        }
        if !self.bytes.is_empty() {
            let mut postings = Vec::new();
            decode(&self.bytes, self.tail as usize, &mut postings);
            self.last = postings.last().map_or(0, |p| p.chunk);
        }
    }

    fn insert_inside(&mut self, p: Posting) {
        // The last block whose first chunk is not past `p`'s (the first
        // block when `p` comes before every posting).
        let mut at = 0;
        loop {
            let next = at + HEADER + header(&self.bytes, at).len;
            if next >= self.bytes.len() || header(&self.bytes, next).first > p.chunk {
                break;
            }
            at = next;
        }
        let was_last = at == self.tail as usize;
        let old = HEADER + header(&self.bytes, at).len;
        let mut postings = Vec::with_capacity(BLOCK + 1);
        decode(&self.bytes, at, &mut postings);
        match postings.binary_search_by_key(&p.chunk, |q| q.chunk) {
            Ok(i) => postings[i] = p,
            Err(i) => {
                postings.insert(i, p);
                self.len += 1;
            }
        }
        let (written, last_start) = self.rewrite(at, &postings);
        if was_last {
            self.tail = last_start as u32;
        } else {
            self.tail = (self.tail as usize + written - old) as u32;
        }
    }

    /// Takes out the postings of `chunks` (sorted): only the blocks that
    /// may hold one are decoded.
    pub fn remove(&mut self, chunks: &[u32]) {
        if chunks.is_empty() || self.len == 0 {
            return;
        }
        let mut postings = Vec::with_capacity(BLOCK);
        let (mut at, mut i) = (0, 0);
        let mut tail_went = false;
        while at < self.bytes.len() && i < chunks.len() {
            let h = header(&self.bytes, at);
            let next = at + HEADER + h.len;
            let end = if next < self.bytes.len() {
                header(&self.bytes, next).first
            } else {
                u32::MAX
            };
            while i < chunks.len() && chunks[i] < h.first {
                i += 1;
            }
            if i == chunks.len() || chunks[i] >= end {
                at = next;
                continue;
            }
            let is_tail = at == self.tail as usize;
            postings.clear();
            decode(&self.bytes, at, &mut postings);
            let before = postings.len();
            postings.retain(|p| chunks.binary_search(&p.chunk).is_err());
            while i < chunks.len() && chunks[i] < end {
                i += 1;
            }
            if postings.len() == before {
                at = next;
                continue;
            }
            self.len -= (before - postings.len()) as u32;
            let (written, _) = self.rewrite(at, &postings);
            if is_tail {
                match postings.last() {
                    Some(l) => self.last = l.chunk,
                    None => tail_went = true,
                }
            } else {
                self.tail = (self.tail as usize + written - (next - at)) as u32;
            }
            at += written;
        }
        if tail_went {
            self.refresh_tail();
        }
    }
}

impl<'a> IntoIterator for &'a PostingList {
    type Item = Posting;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Sorted ids packed as the gaps between them, in varints (a note's terms:
/// read back only when the note is dropped).
pub(crate) fn pack_ids(ids: &[u32]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(ids.len() * 2);
    let mut previous = 0;
    for &id in ids {
        put_varint(&mut out, u64::from(id - previous));
        previous = id;
    }
    out.into_boxed_slice()
}

pub(crate) fn unpack_ids(bytes: &[u8]) -> Vec<u32> {
    let mut ids = Vec::with_capacity(bytes.len());
    let (mut at, mut id) = (0, 0);
    while at < bytes.len() {
        id += get_varint(bytes, &mut at) as u32;
        ids.push(id);
    }
    ids
}

/// The postings of a list in chunk order.
pub(crate) struct Iter<'a> {
    bytes: &'a [u8],
    at: usize,
    /// Postings left in the current block.
    left: usize,
    chunk: u32,
}

impl Iterator for Iter<'_> {
    type Item = Posting;

    #[inline]
    fn next(&mut self) -> Option<Posting> {
        if self.left == 0 {
            if self.at >= self.bytes.len() {
                return None;
            }
            let h = header(self.bytes, self.at);
            self.at += HEADER;
            self.left = h.count;
            self.chunk = h.first;
        }
        self.left -= 1;
        let (gap, heading, body) = get_posting(self.bytes, &mut self.at);
        self.chunk += gap;
        Some(Posting {
            chunk: self.chunk,
            heading,
            body,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(chunk: u32) -> Posting {
        Posting {
            chunk,
            heading: (chunk % 3) as u8,
            body: (chunk % 700) as u16,
        }
    }

    fn held(list: &PostingList) -> Vec<Posting> {
        list.iter().collect()
    }

    #[test]
    fn appends_inserts_and_removals_keep_the_order_and_the_counts() {
        let mut list = PostingList::default();
        let mut model: Vec<Posting> = Vec::new();
        // Appended, across several blocks, with gaps that need 1-3 bytes.
        let mut chunk = 10;
        for i in 0..1_000u32 {
            chunk += 1 + i.wrapping_mul(i).wrapping_mul(7_919) % [3, 200, 20_000][i as usize % 3];
            list.insert(posting(chunk));
            model.push(posting(chunk));
        }
        assert_eq!(held(&list), model);
        // Freed ids used again: inserted inside, before the first, at the end.
        for c in [0u32, 1, 7, 12_345, 40_001, 2_999_999, 5, 50_000_000] {
            let p = posting(c);
            list.insert(p);
            match model.binary_search_by_key(&c, |q| q.chunk) {
                Ok(i) => model[i] = p,
                Err(i) => model.insert(i, p),
            }
        }
        assert_eq!(held(&list), model);
        assert_eq!(list.len(), model.len());
        // A whole block taken out, in the middle.
        let block: Vec<u32> = model[200..400].iter().map(|p| p.chunk).collect();
        list.remove(&block);
        model.retain(|p| block.binary_search(&p.chunk).is_err());
        assert_eq!(held(&list), model);
        // A note's chunks taken out, then every other posting.
        let gone: Vec<u32> = vec![0, 5, 7, 12_345, 2_999_999, 50_000_000];
        list.remove(&gone);
        model.retain(|p| !gone.contains(&p.chunk));
        assert_eq!(held(&list), model);
        let half: Vec<u32> = model.iter().step_by(2).map(|p| p.chunk).collect();
        list.remove(&half);
        model.retain(|p| half.binary_search(&p.chunk).is_err());
        assert_eq!(held(&list), model);
        // Appending still works after edits inside.
        let p = posting(60_000_000);
        list.insert(p);
        model.push(p);
        assert_eq!(held(&list), model);
        let all: Vec<u32> = model.iter().map(|p| p.chunk).collect();
        list.remove(&all);
        assert!(list.is_empty() && held(&list).is_empty());
        list.insert(posting(9));
        assert_eq!(held(&list), [posting(9)]);
    }

    #[test]
    fn packed_ids_read_back_the_same() {
        let ids = [0u32, 1, 2, 130, 20_000, 4_000_000_000];
        assert_eq!(unpack_ids(&pack_ids(&ids)), ids);
        assert!(unpack_ids(&pack_ids(&[])).is_empty());
    }

    #[test]
    fn a_common_words_posting_takes_about_one_byte() {
        let mut list = PostingList::default();
        for c in 0..10_000u32 {
            list.insert(Posting {
                chunk: c * 2,
                heading: 0,
                body: 1,
            });
        }
        list.shrink_to_fit();
        assert!(list.heap_bytes() < 10_000 + 100 * (HEADER + 1));
    }
}
