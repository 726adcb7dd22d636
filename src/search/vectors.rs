//! The optional vectors of search by meaning: one per section (the same
//! chunks the keyword index ranks), from the user's embedding model, kept
//! compactly and keyed by the section's text so a section is embedded again
//! only when it changed.
//!
//! **Keys.** A chunk's key is the hash of its heading path and text, so an
//! unchanged section keeps its vector through an edit elsewhere in the note,
//! a rename (the title sent with it is then a little stale, which moves a
//! vector less than the text does) and a restart; two notes with the same
//! section share one vector.
//!
//! **Compact.** Each vector is normalised to length 1 and kept as one byte a
//! dimension with one scale (`i8`, the scale `max |x| / 127`): 768 bytes for
//! a 768-dimension model instead of 3 072, and a cosine's error below 1 %,
//! far less than the differences the ranking needs.
//!
//! **Stored** in the plugin's folder as `embeddings.bin`: a header line
//! (`VAVEC1`), the length of a JSON header naming the model at its address
//! and the dimension, then per vector its key (`u64`), its scale (`f32`) and
//! its bytes, all little-endian. Vectors of another model are dropped when
//! read, never mixed.

use std::collections::HashMap;

use super::index::fnv;
use super::note;
use super::text::title_of;

const MAGIC: &[u8] = b"VAVEC1\n";

/// The most dimensions a vector may have (the largest common models have
/// 4 096); more is taken as a wrong answer.
pub const MAX_DIMS: usize = 8_192;

/// Characters of one section sent to the model at most (a chunk is at most
/// 2 000 bytes; the title and heading come before it).
pub const MAX_INPUT_CHARS: usize = 2_400;

/// A section less similar to the query than this is not found by meaning.
const MIN_SIMILARITY: f32 = 0.2;

/// Nor is one this far behind the most similar section.
const SIMILARITY_MARGIN: f32 = 0.25;

/// One section of a note as the vectors know it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkRef {
    pub key: u64,
    pub heading: Box<str>,
    pub ordinal: u32,
    /// Characters that embedding it sends.
    pub chars: u32,
}

/// A section to embed: its key and the text sent for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkInput {
    pub key: u64,
    pub text: String,
}

/// A note's best section by meaning.
#[derive(Clone, Debug, PartialEq)]
pub struct VectorHit {
    pub path: String,
    pub heading: String,
    pub ordinal: usize,
    /// Cosine similarity with the query, -1 to 1.
    pub similarity: f32,
}

/// What is embedded, and what is left to embed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VectorCounts {
    /// Distinct sections the notes hold.
    pub sections: usize,
    /// Of those, the ones with a vector.
    pub embedded: usize,
    /// Characters the sections without a vector would send.
    pub pending_chars: usize,
    /// Notes with at least one such section.
    pub pending_notes: usize,
    /// Characters every section would send, and the notes holding any.
    pub all_chars: usize,
    pub notes: usize,
    pub dims: usize,
}

/// The vectors of one model, and every note's sections.
#[derive(Default)]
pub struct Vectors {
    /// The model at its address the vectors came from.
    identity: String,
    dims: usize,
    slots: HashMap<u64, u32>,
    scales: Vec<f32>,
    data: Vec<i8>,
    notes: HashMap<Box<str>, Vec<ChunkRef>>,
}

/// The text sent for a section: the note's title and the heading path give
/// a short section its subject.
fn input_text(path: &str, heading: &str, body: &str) -> String {
    let mut text = String::from(title_of(path));
    if !heading.is_empty() {
        text.push('\n');
        text.push_str(&heading.replace("::", " > "));
    }
    text.push_str("\n\n");
    text.push_str(body.trim());
    text.chars().take(MAX_INPUT_CHARS).collect()
}

fn chunk_key(heading: &str, body: &str) -> u64 {
    fnv(&format!("{heading}\n{}", body.trim()))
}

/// A note's sections and the text each would send.
pub fn note_inputs(path: &str, text: &str) -> Vec<(ChunkRef, String)> {
    note::chunks(text)
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !text[c.range.clone()].trim().is_empty() || !c.heading.is_empty())
        .map(|(ordinal, c)| {
            let body = &text[c.range.clone()];
            let input = input_text(path, &c.heading, body);
            let chunk = ChunkRef {
                key: chunk_key(&c.heading, body),
                heading: c.heading.as_str().into(),
                ordinal: ordinal as u32,
                chars: input.chars().count() as u32,
            };
            (chunk, input)
        })
        .collect()
}

impl Vectors {
    pub fn new(identity: &str) -> Vectors {
        Vectors {
            identity: identity.to_string(),
            ..Vectors::default()
        }
    }

    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// Drops every vector when the model (or its address) changed; the
    /// notes' sections stay, now all waiting to be embedded.
    pub fn use_model(&mut self, identity: &str) -> bool {
        if self.identity == identity {
            return false;
        }
        self.identity = identity.to_string();
        self.dims = 0;
        self.slots.clear();
        self.scales.clear();
        self.data.clear();
        true
    }

    /// Records a note's sections from its text (replacing what was held).
    pub fn set_note(&mut self, path: &str, text: &str) {
        let chunks = note_inputs(path, text)
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        self.notes.insert(path.into(), chunks);
    }

    pub fn remove_note(&mut self, path: &str) {
        self.notes.remove(path);
    }

    pub fn rename_note(&mut self, from: &str, to: &str) {
        if let Some(chunks) = self.notes.remove(from) {
            self.notes.insert(to.into(), chunks);
        }
    }

    pub fn has_note(&self, path: &str) -> bool {
        self.notes.contains_key(path)
    }

    /// Forgets every note's sections (a new index build records them again).
    pub fn clear_notes(&mut self) {
        self.notes.clear();
    }

    /// Vectors held, orphans included.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// No vector is held.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub fn has_vector(&self, key: u64) -> bool {
        self.slots.contains_key(&key)
    }

    /// Notes `wanted` lets through with a section that has no vector yet, sorted.
    pub fn pending_paths(&self, wanted: &dyn Fn(&str) -> bool) -> Vec<String> {
        let mut paths: Vec<String> = self
            .notes
            .iter()
            .filter(|(path, _)| wanted(path))
            .filter(|(_, chunks)| chunks.iter().any(|c| !self.slots.contains_key(&c.key)))
            .map(|(p, _)| p.to_string())
            .collect();
        paths.sort();
        paths
    }

    /// What the notes `wanted` lets through hold.
    pub fn counts(&self, wanted: &dyn Fn(&str) -> bool) -> VectorCounts {
        let mut seen = std::collections::HashSet::new();
        let mut counts = VectorCounts {
            dims: self.dims,
            ..VectorCounts::default()
        };
        for (_, chunks) in self.notes.iter().filter(|(path, _)| wanted(path)) {
            let mut pending = false;
            counts.notes += usize::from(!chunks.is_empty());
            for chunk in chunks {
                if !seen.insert(chunk.key) {
                    continue;
                }
                counts.sections += 1;
                counts.all_chars += chunk.chars as usize;
                if self.slots.contains_key(&chunk.key) {
                    counts.embedded += 1;
                } else {
                    counts.pending_chars += chunk.chars as usize;
                    pending = true;
                }
            }
            counts.pending_notes += usize::from(pending);
        }
        counts
    }

    /// Keeps the model's vector for `key`. Refused (and nothing kept) when
    /// it is empty, not finite, all zeros, longer than [`MAX_DIMS`], or of
    /// another length than the vectors before it.
    pub fn insert(&mut self, key: u64, vector: &[f32]) -> Result<(), String> {
        if vector.is_empty() || vector.len() > MAX_DIMS {
            return Err(format!(
                "a vector of {} numbers (expected 1 to {MAX_DIMS})",
                vector.len()
            ));
        }
        if self.dims != 0 && vector.len() != self.dims {
            return Err(format!(
                "a vector of {} numbers after vectors of {}",
                vector.len(),
                self.dims
            ));
        }
        if vector.iter().any(|x| !x.is_finite()) {
            return Err("a vector holding a number that is not finite".into());
        }
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm == 0.0 {
            return Err("a vector of zeros".into());
        }
        let max = vector.iter().fold(0f32, |m, x| m.max(x.abs())) / norm;
        let scale = max / 127.0;
        let bytes = vector
            .iter()
            .map(|x| (x / norm / scale).round().clamp(-127.0, 127.0) as i8);
        self.dims = vector.len();
        match self.slots.get(&key) {
            Some(&slot) => {
                let at = slot as usize * self.dims;
                for (to, b) in self.data[at..at + self.dims].iter_mut().zip(bytes) {
                    *to = b;
                }
                self.scales[slot as usize] = scale;
            }
            None => {
                self.slots.insert(key, self.scales.len() as u32);
                self.scales.push(scale);
                self.data.extend(bytes);
            }
        }
        Ok(())
    }

    fn cosine(&self, query: &[f32], slot: u32) -> f32 {
        let at = slot as usize * self.dims;
        let dot: f32 = self.data[at..at + self.dims]
            .iter()
            .zip(query)
            .map(|(&b, &q)| f32::from(b) * q)
            .sum();
        dot * self.scales[slot as usize]
    }

    /// The `limit` notes whose best section is nearest `query` in meaning,
    /// among the notes `visible` lets through, nearest first (by path on a
    /// tie), and only those near enough to be found by meaning. Empty when
    /// the query's length is not the vectors'.
    pub fn nearest(
        &self,
        query: &[f32],
        visible: &dyn Fn(&str) -> bool,
        limit: usize,
    ) -> Vec<VectorHit> {
        let mut hits = self.similarities(query, visible);
        // Every note has a nearest vector, however far: keep only those near
        // the query, and near the best one (models differ in how close
        // unrelated text lands, so the margin does most of the work).
        let floor = hits.first().map_or(MIN_SIMILARITY, |best| {
            (best.similarity - SIMILARITY_MARGIN).max(MIN_SIMILARITY)
        });
        hits.retain(|hit| hit.similarity >= floor);
        hits.truncate(limit);
        hits
    }

    /// Every note `visible` lets through that has a vector, by its best
    /// section's similarity to `query`, nearest first (by path on a tie),
    /// however far (the evaluation looks at the whole ranking). Empty when
    /// the query's length is not the vectors'.
    pub fn similarities(&self, query: &[f32], visible: &dyn Fn(&str) -> bool) -> Vec<VectorHit> {
        let norm = query.iter().map(|x| x * x).sum::<f32>().sqrt();
        if query.len() != self.dims || norm == 0.0 || !norm.is_finite() {
            return Vec::new();
        }
        let query: Vec<f32> = query.iter().map(|x| x / norm).collect();
        let mut hits: Vec<VectorHit> = Vec::new();
        for (path, chunks) in &self.notes {
            if !visible(path) {
                continue;
            }
            let best = chunks
                .iter()
                .filter_map(|c| self.slots.get(&c.key).map(|&s| (c, self.cosine(&query, s))))
                .max_by(|a, b| {
                    a.1.total_cmp(&b.1)
                        .then_with(|| b.0.ordinal.cmp(&a.0.ordinal))
                });
            if let Some((chunk, similarity)) = best {
                hits.push(VectorHit {
                    path: path.to_string(),
                    heading: chunk.heading.to_string(),
                    ordinal: chunk.ordinal as usize,
                    similarity,
                });
            }
        }
        hits.sort_by(|a, b| {
            b.similarity
                .total_cmp(&a.similarity)
                .then_with(|| a.path.cmp(&b.path))
        });
        hits
    }

    /// Vectors no note's section has any more (an edited or deleted
    /// section's): kept until [`Vectors::compact`], since an undo may
    /// bring the section back.
    pub fn orphans(&self) -> usize {
        self.slots.len() - self.held_keys().len()
    }

    /// The keys of the vectors some note's section still has, sorted.
    fn held_keys(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = self
            .notes
            .values()
            .flatten()
            .map(|c| c.key)
            .filter(|k| self.slots.contains_key(k))
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Drops the vectors no note holds, so a long session of edits does not
    /// grow the memory without end.
    pub fn compact(&mut self) {
        let keys = self.held_keys();
        let mut slots = HashMap::with_capacity(keys.len());
        let mut scales = Vec::with_capacity(keys.len());
        let mut data = Vec::with_capacity(keys.len() * self.dims);
        for key in keys {
            let slot = self.slots[&key] as usize;
            slots.insert(key, scales.len() as u32);
            scales.push(self.scales[slot]);
            data.extend_from_slice(&self.data[slot * self.dims..(slot + 1) * self.dims]);
        }
        self.slots = slots;
        self.scales = scales;
        self.data = data;
    }

    /// The stored form: only vectors some note still holds.
    pub fn encode(&self) -> Vec<u8> {
        let keys = self.held_keys();
        let header = serde_json::json!({
            "model": self.identity,
            "dims": self.dims,
            "count": keys.len(),
        })
        .to_string();
        let mut out =
            Vec::with_capacity(MAGIC.len() + 4 + header.len() + keys.len() * (12 + self.dims));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        for key in keys {
            let slot = self.slots[&key];
            out.extend_from_slice(&key.to_le_bytes());
            out.extend_from_slice(&self.scales[slot as usize].to_le_bytes());
            let at = slot as usize * self.dims;
            out.extend(self.data[at..at + self.dims].iter().map(|&b| b as u8));
        }
        out
    }

    /// Takes in the vectors stored by [`Vectors::encode`] when they are of
    /// `identity`'s model; says why when they are not taken (another model,
    /// a damaged file). The notes' sections are left as they are.
    pub fn load(&mut self, bytes: &[u8], identity: &str) -> Result<usize, String> {
        let damaged = |why: &str| Err(format!("embeddings.bin is damaged ({why})"));
        let Some(rest) = bytes.strip_prefix(MAGIC) else {
            return damaged("it does not start as one");
        };
        if rest.len() < 4 {
            return damaged("no header");
        }
        let header_len = u32::from_le_bytes(rest[..4].try_into().expect("4 bytes")) as usize;
        let Some(header) = rest.get(4..4 + header_len) else {
            return damaged("its header is cut off");
        };
        let header: serde_json::Value = match serde_json::from_slice(header) {
            Ok(value) => value,
            Err(_) => return damaged("its header is not JSON"),
        };
        let model = header["model"].as_str().unwrap_or("");
        let dims = header["dims"].as_u64().unwrap_or(0) as usize;
        let count = header["count"].as_u64().unwrap_or(0) as usize;
        if model != identity {
            return Err(format!(
                "the stored vectors are of another model ({model}), so they are dropped"
            ));
        }
        if dims > MAX_DIMS || (dims == 0 && count > 0) {
            return damaged("its dimension");
        }
        let body = &rest[4 + header_len..];
        let each = 12 + dims;
        if body.len() != count * each {
            return damaged("its length");
        }
        self.use_model(identity);
        self.dims = dims;
        for record in body.chunks_exact(each) {
            let key = u64::from_le_bytes(record[..8].try_into().expect("8 bytes"));
            let scale = f32::from_le_bytes(record[8..12].try_into().expect("4 bytes"));
            if !scale.is_finite() {
                return damaged("a scale");
            }
            self.slots.insert(key, self.scales.len() as u32);
            self.scales.push(scale);
            self.data.extend(record[12..].iter().map(|&b| b as i8));
        }
        Ok(count)
    }

    /// The length of the vectors held (0 before the first).
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The heap the vectors hold, about.
    pub fn bytes(&self) -> usize {
        self.data.capacity() + self.scales.capacity() * 4 + self.slots.capacity() * 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(_: &str) -> bool {
        true
    }

    const NOTE: &str = "# Garden\nTomatoes need sun.\n\n## Watering\nWater in the morning.\n";

    fn embedded(vectors: &mut Vectors, path: &str, text: &str, vector: &dyn Fn(&str) -> Vec<f32>) {
        vectors.set_note(path, text);
        for (chunk, input) in note_inputs(path, text) {
            vectors.insert(chunk.key, &vector(&input)).unwrap();
        }
    }

    #[test]
    fn an_edit_leaves_the_other_sections_embedded() {
        let mut vectors = Vectors::new("m");
        embedded(&mut vectors, "Garden.md", NOTE, &|_| vec![1.0, 0.0]);
        assert_eq!(vectors.counts(&all).pending_notes, 0);
        let edited = NOTE.replace("morning", "evening");
        vectors.set_note("Garden.md", &edited);
        let counts = vectors.counts(&all);
        assert_eq!((counts.sections, counts.embedded), (2, 1));
        assert_eq!(vectors.pending_paths(&all), vec!["Garden.md"]);
        assert!(counts.pending_chars > 0);
    }

    #[test]
    fn the_nearest_section_names_its_note_and_heading_within_the_scope() {
        let mut vectors = Vectors::new("m");
        let by_word = |text: &str| {
            if text.contains("Water") {
                vec![0.0, 1.0]
            } else {
                vec![1.0, 0.1]
            }
        };
        embedded(&mut vectors, "Garden.md", NOTE, &by_word);
        embedded(
            &mut vectors,
            "Private/Diary.md",
            "Water everywhere\n",
            &|_| vec![0.0, 1.0],
        );
        let hits = vectors.nearest(&[0.0, 2.0], &|p| !p.starts_with("Private/"), 10);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].path, "Garden.md");
        assert_eq!(hits[0].heading, "Garden::Watering");
        assert!((hits[0].similarity - 1.0).abs() < 0.01, "{hits:?}");
        assert!(vectors.nearest(&[1.0, 0.0, 0.0], &|_| true, 10).is_empty());
    }

    #[test]
    fn a_note_far_from_the_query_is_not_found_by_meaning() {
        let mut vectors = Vectors::new("m");
        embedded(&mut vectors, "Car.md", "# Car\n\nBrakes\n", &|_| {
            vec![1.0, 0.0, 0.0]
        });
        embedded(&mut vectors, "Near.md", "# Near\n\nTyres\n", &|_| {
            vec![0.9, 0.3, 0.0]
        });
        embedded(&mut vectors, "Soup.md", "# Soup\n\nLentils\n", &|_| {
            vec![0.1, 0.0, 1.0]
        });
        embedded(&mut vectors, "Bread.md", "# Bread\n\nFlour\n", &|_| {
            vec![0.6, 0.0, 0.8]
        });
        let hits = vectors.nearest(&[1.0, 0.0, 0.0], &all, 10);
        let paths: Vec<&str> = hits.iter().map(|h| h.path.as_str()).collect();
        // Soup is all but orthogonal; Bread is related, but far behind the best.
        assert_eq!(paths, ["Car.md", "Near.md"], "{hits:?}");
    }

    #[test]
    fn garbage_is_refused_and_nothing_is_kept() {
        let mut vectors = Vectors::new("m");
        assert!(vectors.insert(1, &[]).is_err());
        assert!(vectors.insert(1, &[f32::NAN, 1.0]).is_err());
        assert!(vectors.insert(1, &[0.0, 0.0]).is_err());
        vectors.insert(1, &[1.0, 2.0]).unwrap();
        assert!(vectors.insert(2, &[1.0, 2.0, 3.0]).is_err());
        assert!(!vectors.has_vector(2));
    }

    #[test]
    fn stored_vectors_come_back_for_the_same_model_only() {
        let mut vectors = Vectors::new("http://x/v1 m");
        embedded(&mut vectors, "Garden.md", NOTE, &|t| {
            vec![t.len() as f32, 1.0, -3.0]
        });
        vectors.set_note("Other.md", "Nothing embedded here\n");
        let bytes = vectors.encode();
        let mut again = Vectors::new("http://x/v1 m");
        again.set_note("Garden.md", NOTE);
        assert_eq!(again.load(&bytes, "http://x/v1 m"), Ok(2));
        assert_eq!(again.counts(&all).embedded, 2);
        let query = [10.0, 1.0, -3.0];
        let a = vectors.nearest(&query, &|p| p == "Garden.md", 1);
        let b = again.nearest(&query, &|_| true, 1);
        assert_eq!(a, b);
        let mut other = Vectors::new("http://x/v1 other");
        assert!(other
            .load(&bytes, "http://x/v1 other")
            .unwrap_err()
            .contains("another model"));
        assert_eq!(other.counts(&all).dims, 0);
        let mut cut = Vectors::new("http://x/v1 m");
        assert!(cut
            .load(&bytes[..bytes.len() - 1], "http://x/v1 m")
            .unwrap_err()
            .contains("damaged"));
    }

    #[test]
    fn compacting_drops_only_the_vectors_no_section_holds() {
        let mut vectors = Vectors::new("m");
        let unit = |_: &str| vec![1.0, 0.0, 0.0];
        embedded(&mut vectors, "a.md", "# A\n\nOne.\n\n## B\n\nTwo.\n", &unit);
        embedded(&mut vectors, "c.md", "# C\n\nThree.\n", &unit);
        let before = vectors.slots.len();
        // An edit of one section and a deleted note leave three vectors behind.
        vectors.set_note("a.md", "# A\n\nOne changed.\n\n## B\n\nTwo.\n");
        vectors.remove_note("c.md");
        assert_eq!(vectors.orphans(), before - 1);
        let kept = vectors.encode();
        vectors.compact();
        assert_eq!(vectors.orphans(), 0);
        assert_eq!(vectors.slots.len(), 1, "only B's vector is still held");
        assert_eq!(vectors.encode(), kept, "the stored form is the same");
        assert_eq!(vectors.nearest(&[1.0, 0.0, 0.0], &all, 5).len(), 1);
    }

    #[test]
    fn a_deleted_notes_vectors_are_not_stored_and_a_new_model_drops_all() {
        let mut vectors = Vectors::new("m");
        embedded(&mut vectors, "A.md", "alpha\n", &|_| vec![1.0, 0.0]);
        embedded(&mut vectors, "B.md", "beta\n", &|_| vec![0.0, 1.0]);
        vectors.remove_note("B.md");
        let mut again = Vectors::new("m");
        assert_eq!(again.load(&vectors.encode(), "m"), Ok(1));
        vectors.rename_note("A.md", "Z.md");
        assert_eq!(vectors.nearest(&[1.0, 0.0], &|_| true, 5)[0].path, "Z.md");
        assert!(vectors.use_model("n"));
        assert_eq!(vectors.counts(&all).embedded, 0);
        assert_eq!(vectors.pending_paths(&all), vec!["Z.md"]);
    }
}
