//! The in-memory form of one PGN game: tags, movetext tree, result.

use std::fmt;

/// A place in the input text: 1-based line and 1-based column (counted in
/// characters of the line after decoding, not in bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TextPos {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, in characters.
    pub column: u64,
}

impl fmt::Display for TextPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One tag pair, `[Name "value"]`, with the value unescaped.
///
/// Equality and hashing look at the name and value only, not at `pos`.
#[derive(Clone, Debug)]
pub struct Tag {
    /// The tag name, e.g. `Event`.
    pub name: String,
    /// The value without quotes, with `\"` and `\\` unescaped.
    pub value: String,
    /// Where the tag's `[` is in the input (`None` for a tag not read from
    /// text), so that a bad value (a `FEN` tag) can be reported by line.
    pub pos: Option<TextPos>,
}

impl PartialEq for Tag {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name && self.value == other.value
    }
}

impl Eq for Tag {}

impl std::hash::Hash for Tag {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
        self.value.hash(state);
    }
}

/// A line of play: the mainline of a game or one variation.
///
/// Comments and NAGs met before the line's first move are kept in
/// `comments` and `nags`; everything after a move belongs to that move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// Comments before the first move of the line.
    pub comments: Vec<String>,
    /// NAGs before the first move of the line (rare; kept so they can be
    /// written back).
    pub nags: Vec<u8>,
    /// The moves of the line, in order.
    pub moves: Vec<MoveNode>,
}

/// One move of a line with its annotations.
///
/// Equality ignores [`MoveNode::pos`], so that a game read back from a
/// rewritten file compares equal to the original.
#[derive(Clone, Debug, Default)]
pub struct MoveNode {
    /// The move as written (SAN, or whatever the file used, such as UCI),
    /// with any move-number prefix and `!`/`?` suffix removed; check marks
    /// `+`/`#` are kept.
    pub san: String,
    /// Where the move starts in the input (zero for built games).
    pub pos: TextPos,
    /// Numeric annotation glyphs (`$n`, and `!`, `?`, `!!`, `??`, `!?`,
    /// `?!` as 1 to 6), in order.
    pub nags: Vec<u8>,
    /// Comments after the move (with whitespace runs collapsed to one
    /// space), in order.
    pub comments: Vec<String>,
    /// Variations: alternatives to this move, each starting from the
    /// position before it.
    pub variations: Vec<Line>,
}

impl PartialEq for MoveNode {
    fn eq(&self, other: &Self) -> bool {
        self.san == other.san
            && self.nags == other.nags
            && self.comments == other.comments
            && self.variations == other.variations
    }
}

impl Eq for MoveNode {}

impl MoveNode {
    /// A move with no annotations.
    pub fn new(san: impl Into<String>) -> MoveNode {
        MoveNode {
            san: san.into(),
            ..MoveNode::default()
        }
    }
}

/// One game as read from PGN (or built to be written).
///
/// Equality ignores [`PgnGame::start`].
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// The tags in the order they appeared.
    pub tags: Vec<Tag>,
    /// The mainline with its comments, NAGs and variations.
    pub mainline: Line,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2` or `*`), if the
    /// movetext had one.
    pub result: Option<String>,
    /// Where the game starts in the input (its first non-blank line).
    pub start: TextPos,
}

impl PartialEq for PgnGame {
    fn eq(&self, other: &Self) -> bool {
        self.tags == other.tags && self.mainline == other.mainline && self.result == other.result
    }
}

impl Eq for PgnGame {}

impl PgnGame {
    /// The value of the first tag called `name` (case-sensitive), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// Sets tag `name` to `value`, replacing the first tag of that name or
    /// appending a new one.
    pub fn set_tag(&mut self, name: impl Into<String>, value: impl Into<String>) {
        let name = name.into();
        let value = value.into();
        match self.tags.iter_mut().find(|t| t.name == name) {
            Some(t) => t.value = value,
            None => self.tags.push(Tag {
                name,
                value,
                pos: None,
            }),
        }
    }

    /// The mainline moves as written.
    pub fn mainline_sans(&self) -> impl Iterator<Item = &str> {
        self.mainline.moves.iter().map(|m| m.san.as_str())
    }
}
