//! PDN text as real archives write it, cut into games before any rule set
//! is known (`shared/spec/pdn.md`).
//!
//! The lexer works on bytes (every PDN mark is ASCII; tag values and
//! comments may hold any UTF-8) and borrows its tokens from the text, so
//! an archive of 100,000 games is read in one pass without copying it.
//! A syntax problem (a comment or variation never closed, a tag line cut
//! short) spoils only the game it is in: the lexer notes it there and goes
//! on from the next line that starts with a tag.

use std::borrow::Cow;

use super::lenient::Leniency;

/// One game as the file writes it: tags and move tokens, unread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame<'a> {
    /// 1-based position of the game in its file.
    pub number: usize,
    /// 1-based line where the game starts (its first tag or token).
    pub line: usize,
    /// Its tags, in order, values unescaped.
    pub tags: Vec<Tag<'a>>,
    /// Its moves, in order: move numbers, comments, variations, NAGs,
    /// strength marks and the result left out; an unknown move (`--`,
    /// `- -`, a `?` where a move stands) reads `?`.
    pub moves: Vec<RawMove<'a>>,
    /// What the move number before the first move says: `Some(true)` for
    /// `12...` (the second player moves first), `Some(false)` for `12.`.
    pub second_first: Option<bool>,
    /// The number of the first move (`17` for `17... 19-23`), if written.
    pub first_number: Option<u32>,
    /// The result token that ended the game, if one did.
    pub result: Option<&'a str>,
    /// The first syntax problem in the game, with its line: the game cannot
    /// be read, the next one can.
    pub problem: Option<(usize, String)>,
    /// What of its text was read leniently (damaged tag lines, upper-case
    /// squares), in the order met.
    pub notes: Vec<Leniency>,
}

/// A tag `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag<'a> {
    /// Its name as written (names compare without case).
    pub name: &'a str,
    /// Its value, escapes (`\"`, `\\`) undone.
    pub value: Cow<'a, str>,
    /// 1-based line it stands on.
    pub line: usize,
}

/// One move as written, annotations stripped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawMove<'a> {
    /// The move text (`32-28`, `c3:e5`, `?`).
    pub text: Cow<'a, str>,
    /// 1-based line it stands on.
    pub line: usize,
    /// The move number written just before it, and whether with `...`
    /// (`8.` is `(8, false)`): the sheet's own numbering, to name it by.
    pub number: Option<(u32, bool)>,
}

impl<'a> RawGame<'a> {
    /// The value of the tag named `name` (any case), if the game has one.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.find_tag(name).map(|t| t.value.as_ref())
    }

    /// A tag of this game (and what was read leniently in it); a tag
    /// named twice keeps its first value, and the second is a note.
    fn add_tag(&mut self, tag: Tag<'a>, note: Option<Leniency>) {
        if self.is_blank() {
            self.line = tag.line;
        }
        if let Some(note) = note {
            self.note(note);
        }
        if self.find_tag(tag.name).is_some() {
            self.notes.push(Leniency::RepeatedTag {
                line: tag.line,
                name: tag.name.to_string(),
            });
        } else {
            self.tags.push(tag);
        }
    }

    /// The tag named `name` (any case), if the game has one.
    pub fn find_tag(&self, name: &str) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// Keeps a note; the same stray text again (a `\r` that ends every
    /// line) is counted on the game's first note of it, not noted anew.
    fn note(&mut self, note: Leniency) {
        if let Leniency::StrayText { text, more, .. } = &note {
            let first = self.notes.iter_mut().find_map(|n| match n {
                Leniency::StrayText { text: t, more, .. } if t == text => Some(more),
                _ => None,
            });
            if let Some(first) = first {
                *first += more + 1;
                return;
            }
        }
        self.notes.push(note);
    }

    /// True when nothing of a game was read: no tag, move, result or problem.
    fn is_blank(&self) -> bool {
        self.tags.is_empty()
            && self.moves.is_empty()
            && self.result.is_none()
            && self.problem.is_none()
    }

    /// Whether a tag named `name` starts the next game: this one has
    /// moves or a result already, or its header began with a tag of that
    /// name and went on to others (a collection of diagrams without
    /// results). Another repeated name is the same header given twice
    /// ([`Leniency::RepeatedTag`]).
    fn ends_before(&self, name: &str) -> bool {
        let repeats_first = self
            .tags
            .first()
            .is_some_and(|first| first.name.eq_ignore_ascii_case(name));
        let others = self.tags.iter().any(|t| !t.name.eq_ignore_ascii_case(name));
        !self.moves.is_empty() || self.result.is_some() || repeats_first && others
    }

    /// A final `4-6` that the `[Result]` tag also says is a match score,
    /// not a move: taken off the moves.
    fn take_score(&mut self) {
        let last = self.moves.last().map(|m| m.text.as_ref());
        let is_score = last.is_some_and(|text| {
            looks_like_score(text) && self.tag("Result").is_some_and(|r| r.trim() == text)
        });
        if is_score && self.result.is_none() {
            self.moves.pop();
        }
    }
}

/// `a-b` with one- or two-digit numbers: a result as some files write match scores.
pub(super) fn looks_like_score(text: &str) -> bool {
    let Some((a, b)) = text.split_once('-') else {
        return false;
    };
    let number = |s: &str| (1..=2).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    number(a) && number(b)
}

/// The result tokens that end a game wherever they stand.
fn is_result(token: &str) -> bool {
    matches!(
        token,
        "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*" | "2-0" | "0-2" | "1-1" | "0-0" | "0.5-0.5"
    )
}

/// A piece of the text the lexer hands to the game builder.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Item<'a> {
    /// A tag, with a note when it was read leniently.
    Tag(Tag<'a>, Option<Leniency>),
    Word(&'a str, usize),
    /// Something read leniently (a stray text, a tag line without `[`).
    Note(Leniency),
    /// A syntax problem at a line; `skipped` when the lexer jumped to the
    /// next tag line (the game it was in ends there).
    Problem {
        line: usize,
        message: String,
        skipped: bool,
    },
}

/// The games of a PDN text, one at a time (see [`games`]).
#[derive(Clone, Debug)]
pub struct Games<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    number: usize,
    /// The move number just read, for the move that follows it.
    written_number: Option<(u32, bool)>,
    /// Items read ahead, the next last (a word that may be joined to the
    /// one before, the note of a `\r` cut off a word).
    ahead: Vec<Item<'a>>,
}

/// The games of `text`, read lazily. A byte order mark is skipped; line
/// ends may be LF, CRLF or CR.
pub fn games(text: &str) -> Games<'_> {
    let text = crate::notation::without_bom(text);
    Games {
        text,
        pos: 0,
        line: 1,
        number: 0,
        written_number: None,
        ahead: Vec::new(),
    }
}

impl<'a> Games<'a> {
    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek_byte(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Moves past one byte, counting line ends (`\r\n` is one).
    fn bump(&mut self) {
        match self.peek_byte() {
            Some(b'\n') => self.line += 1,
            Some(b'\r') if self.bytes().get(self.pos + 1) != Some(&b'\n') => self.line += 1,
            _ => {}
        }
        self.pos += 1;
    }

    fn skip_space(&mut self) {
        while self.peek_byte().is_some_and(|b| b.is_ascii_whitespace()) {
            self.bump();
        }
    }

    /// Skips to the end of the line (the line end stays).
    fn skip_line(&mut self) {
        self.skip_while(|b| b != b'\n' && b != b'\r');
    }

    /// Skips the bytes `keep` holds for, which are never line ends (no
    /// line is counted).
    fn skip_while(&mut self, keep: impl Fn(u8) -> bool) {
        while self.peek_byte().is_some_and(&keep) {
            self.pos += 1;
        }
    }

    /// After a construct that was never closed: on to the next line that
    /// starts with `[`, where a game can start again.
    fn recover(&mut self, from: usize, from_line: usize) {
        self.pos = from;
        self.line = from_line;
        loop {
            self.skip_line();
            if self.peek_byte().is_none() {
                return;
            }
            self.bump();
            if self.peek_byte() == Some(b'\n') && self.bytes()[self.pos - 1] == b'\r' {
                self.bump();
            }
            let rest = &self.bytes()[self.pos..];
            let indent = rest
                .iter()
                .take_while(|b| **b == b' ' || **b == b'\t')
                .count();
            if rest.get(indent) == Some(&b'[') {
                return;
            }
        }
    }

    /// The next item, comments and variations skipped; `None` at the end.
    fn item(&mut self) -> Option<Item<'a>> {
        if let Some(item) = self.ahead.pop() {
            return Some(item);
        }
        loop {
            self.skip_space();
            let byte = self.peek_byte()?;
            let (line, start) = (self.line, self.pos);
            match byte {
                b'[' => return Some(self.tag()),
                b'{' | b'(' => {
                    if !self.skip_nested() {
                        let close = if byte == b'{' { '}' } else { ')' };
                        self.recover(start, line);
                        let what = if byte == b'{' { "comment" } else { "variation" };
                        return Some(Item::Problem {
                            line,
                            message: format!(
                                "the {what} opened with '{}' is never closed with '{close}'",
                                byte as char
                            ),
                            skipped: true,
                        });
                    }
                }
                b';' | b'%' => self.skip_line(),
                b')' | b'}' | b']' => self.pos += 1,
                b'\\' => {
                    let text = self.word_here();
                    return Some(Item::Note(Leniency::stray(line, text)));
                }
                b'A'..=b'Z' | b'a'..=b'z' if self.at_line_start() && self.bare_tag_line() => {
                    return Some(self.tag());
                }
                _ => return Some(self.movetext_word(line)),
            }
        }
    }

    /// Skips a comment `{...}` or a variation `(...)` starting here,
    /// nested to any depth (comments inside variations, and braces inside
    /// comments, which some files nest); false if it is never closed.
    fn skip_nested(&mut self) -> bool {
        let mut stack: Vec<u8> = Vec::new();
        loop {
            let Some(byte) = self.peek_byte() else {
                return false;
            };
            let in_comment = stack.last() == Some(&b'}');
            match byte {
                b'{' => stack.push(b'}'),
                b'(' if !in_comment => stack.push(b')'),
                b'}' | b')' if stack.last() == Some(&byte) => {
                    stack.pop();
                    if stack.is_empty() {
                        self.pos += 1;
                        return true;
                    }
                }
                b';' | b'%' if !in_comment => {
                    self.skip_line();
                    continue;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// The word that starts here, to the next space or bracket.
    fn word_here(&mut self) -> &'a str {
        let start = self.pos;
        while self
            .peek_byte()
            .is_some_and(|b| !b.is_ascii_whitespace() && !b"{([;)}]".contains(&b))
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    /// The movetext word that starts here. A written-out `\r` ending it
    /// (`*\r`, `22-18\r`: exports that end every line so) is cut off and
    /// noted, read next.
    fn movetext_word(&mut self, line: usize) -> Item<'a> {
        let word = self.word_here();
        match word.strip_suffix(WRITTEN_CR) {
            Some(bare) if !bare.is_empty() => {
                self.ahead
                    .push(Item::Note(Leniency::stray(line, WRITTEN_CR)));
                Item::Word(bare, line)
            }
            _ => Item::Word(word, line),
        }
    }

    /// Whether only spaces stand between the line's start and here.
    fn at_line_start(&self) -> bool {
        self.bytes()[..self.pos]
            .iter()
            .rev()
            .find(|b| **b != b' ' && **b != b'\t')
            .is_none_or(|b| *b == b'\n' || *b == b'\r')
    }

    /// Whether the line from here is a tag without its `[`: a name, a
    /// quoted value and the closing `]` ending the line (`Site "Paris"]`).
    fn bare_tag_line(&self) -> bool {
        let rest = &self.bytes()[self.pos..];
        let line = &rest[..rest
            .iter()
            .position(|b| *b == b'\n' || *b == b'\r')
            .unwrap_or(rest.len())];
        let name = line
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let after = &line[name..];
        let gap = after
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count();
        // What follows the closing `"]`: nothing, or a written-out `\r`.
        let closed = line
            .windows(2)
            .rposition(|w| w == b"\"]")
            .is_some_and(|at| {
                let rest = line[at + 2..].trim_ascii();
                rest.is_empty() || rest.starts_with(b"\\")
            });
        gap > 0 && after.get(gap) == Some(&b'"') && closed
    }

    /// A tag starting here: at its `[` (or, for a line without it, at its
    /// name), its name, then a quoted value (inner quotes that are not
    /// followed by `]` belong to the value) or a bare one. A lone `[` on
    /// its line is a note, and so is a quoted value that goes on over the
    /// next line.
    fn tag(&mut self) -> Item<'a> {
        let line = self.line;
        let start = self.pos;
        let bracket = self.peek_byte() == Some(b'[');
        if bracket {
            self.pos += 1;
        }
        let name_start = self.pos;
        self.skip_while(|b| !b.is_ascii_whitespace() && !b"\"]".contains(&b));
        let name = &self.text[name_start..self.pos];
        self.skip_while(|b| b == b' ' || b == b'\t');
        // A lone `[`, perhaps with the `\r` some exports write out.
        let lone = name.is_empty() || name == "\\r";
        if lone && matches!(self.peek_byte(), None | Some(b'\n' | b'\r')) {
            return Item::Note(Leniency::LoneBracket { line });
        }
        let (value, split) = self.tag_value();
        match value {
            Some(value) if self.peek_byte() == Some(b']') && !name.is_empty() => {
                self.pos += 1;
                let note = if split {
                    self.line += 1;
                    Some(Leniency::SplitTag {
                        line,
                        name: name.to_string(),
                    })
                } else if !bracket {
                    Some(Leniency::MissingBracket {
                        line,
                        name: name.to_string(),
                    })
                } else {
                    None
                };
                Item::Tag(Tag { name, value, line }, note)
            }
            _ => {
                self.pos = start;
                self.skip_line();
                Item::Problem {
                    line,
                    message: "a tag is not closed with ']' on its line".into(),
                    skipped: false,
                }
            }
        }
    }

    /// A tag's value from where its name ends: quoted (see
    /// [`Games::quoted`]; `None` when not closed) or bare, up to the `]` or
    /// the line's end; and whether a quoted one went on over the next line.
    fn tag_value(&mut self) -> (Option<Cow<'a, str>>, bool) {
        if self.peek_byte() == Some(b'"') {
            return match self.quoted() {
                Some((value, split)) => (Some(value), split),
                None => (None, false),
            };
        }
        let value_start = self.pos;
        self.skip_while(|b| !b"]\r\n".contains(&b));
        (
            Some(Cow::Borrowed(self.text[value_start..self.pos].trim())),
            false,
        )
    }

    /// A quoted tag value from its opening quote; leaves `pos` on the `]`
    /// after the closing quote, and says whether the value went on over
    /// one line end (a tag split in two, read as one value with a space
    /// for the line end). `None` when the value is not closed by the end
    /// of the next line, or that line starts a tag of its own.
    fn quoted(&mut self) -> Option<(Cow<'a, str>, bool)> {
        let bytes = self.bytes();
        let start = self.pos + 1;
        let mut at = start;
        let mut escaped = false;
        let mut split = false;
        loop {
            match bytes.get(at)? {
                b'\n' | b'\r' if split => return None,
                b'\n' | b'\r' => {
                    split = true;
                    at += 1;
                    if bytes[at - 1] == b'\r' && bytes.get(at) == Some(&b'\n') {
                        at += 1;
                    }
                    if bytes[at..].iter().find(|b| **b != b' ' && **b != b'\t') == Some(&b'[') {
                        return None;
                    }
                }
                b'\\' if matches!(bytes.get(at + 1), Some(b'"' | b'\\')) => {
                    escaped = true;
                    at += 2;
                }
                b'"' => {
                    let after = at + 1;
                    let gap = bytes[after..]
                        .iter()
                        .take_while(|b| **b == b' ' || **b == b'\t')
                        .count();
                    if bytes.get(after + gap) == Some(&b']') {
                        self.pos = after + gap;
                        let raw = &self.text[start..at];
                        let joined = if split {
                            Cow::Owned(
                                raw.split(['\r', '\n'])
                                    .map(str::trim)
                                    .filter(|part| !part.is_empty())
                                    .collect::<Vec<_>>()
                                    .join(" "),
                            )
                        } else {
                            Cow::Borrowed(raw)
                        };
                        let value = if escaped {
                            Cow::Owned(joined.replace("\\\"", "\"").replace("\\\\", "\\"))
                        } else {
                            joined
                        };
                        return Some((value, split));
                    }
                    at += 1;
                }
                _ => at += 1,
            }
        }
    }
}

/// The two characters `\r` some exports write at the end of every line.
const WRITTEN_CR: &str = "\\r";

/// What a movetext word is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word<'a> {
    Result,
    /// `$12`.
    Nag,
    /// `12.`, `12...`, `12` (with the move glued after it, if any).
    Number {
        dots: usize,
        rest: &'a str,
    },
    /// `...`: the second player's move comes next.
    Dots(usize),
    /// `!`, `?`, `!?`, ...
    Marks,
    /// `--` or `-`: an unknown move (or half of `- -`).
    Dash,
    Move(&'a str),
}

fn classify(word: &str) -> Word<'_> {
    if is_result(word) {
        return Word::Result;
    }
    let bytes = word.as_bytes();
    if bytes[0] == b'$' {
        return Word::Nag;
    }
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = bytes[digits..].iter().take_while(|b| **b == b'.').count();
    if digits > 0 && (dots > 0 || digits == bytes.len()) {
        return Word::Number {
            dots,
            rest: &word[digits + dots..],
        };
    }
    if digits == 0 && dots == bytes.len() {
        return Word::Dots(dots);
    }
    if bytes.iter().all(|b| matches!(b, b'!' | b'?')) {
        return Word::Marks;
    }
    if is_dash(word) {
        return Word::Dash;
    }
    Word::Move(word)
}

/// `-` or `--`, maybe with strength marks glued on (`--!`).
fn is_dash(word: &str) -> bool {
    matches!(word.trim_end_matches(['!', '?']), "-" | "--")
}

/// A move without the annotations glued to it (`11-15!?`, `24x15+`,
/// `12-16$1`, `28x19.`). A `?` right after a separator stays: it is an
/// unknown square (`16-?`).
fn strip_annotation(token: &str) -> &str {
    let token = token.split('$').next().unwrap_or(token);
    let bare = token.trim_end_matches(['!', '?', '+', '#', '.']);
    if bare.ends_with(['-', 'x', ':']) {
        let marks = &token[bare.len()..];
        let unknown = marks.len() - marks.trim_start_matches('?').len();
        return &token[..bare.len() + unknown.min(1)];
    }
    bare
}

/// Whether a word may continue a move cut after its separator (`1- 6`).
fn continues_move(word: &str) -> bool {
    word.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'?')
        && !is_result(word)
        && !word.ends_with('.')
}

impl<'a> Iterator for Games<'a> {
    type Item = RawGame<'a>;

    fn next(&mut self) -> Option<RawGame<'a>> {
        let mut game = RawGame::default();
        // The word before was a move (a `?` after it is a mark, not a move).
        let mut after_move = false;
        self.written_number = None;
        // The lexer skipped to this tag line after a problem: a new game.
        let mut skipped = false;
        // A `\r` on the blank lines before the game: counted with its own.
        let mut before = RawGame::default();
        while let Some(item) = self.item() {
            match item {
                Item::Tag(tag, note) => {
                    if skipped || game.ends_before(tag.name) {
                        self.ahead.push(Item::Tag(tag, note));
                        break;
                    }
                    game.add_tag(tag, note);
                }
                Item::Note(note @ Leniency::StrayText { .. }) if game.is_blank() => {
                    before.note(note);
                }
                Item::Note(note) => game.note(note),
                Item::Problem {
                    line,
                    message,
                    skipped: jumped,
                } => {
                    if game.is_blank() {
                        game.line = line;
                    }
                    game.problem.get_or_insert((line, message));
                    skipped |= jumped;
                }
                Item::Word(word, line) => {
                    if game.is_blank() {
                        game.line = line;
                    }
                    if self.word(&mut game, word, line, &mut after_move) {
                        self.end_of_line_note(&mut game, line);
                        break;
                    }
                }
            }
        }
        if game.is_blank() {
            return None;
        }
        for note in before.notes {
            game.note(note);
        }
        game.take_score();
        self.number += 1;
        game.number = self.number;
        Some(game)
    }
}

impl<'a> Games<'a> {
    /// The note of a `\r` cut off the word that ended `game` (`*\r` on
    /// `line`): the game's, not the next one's.
    fn end_of_line_note(&mut self, game: &mut RawGame<'a>, line: usize) {
        if let Some(Item::Note(note)) = self.ahead.last() {
            if note.line() == line && matches!(note, Leniency::StrayText { .. }) {
                if let Some(Item::Note(note)) = self.ahead.pop() {
                    game.note(note);
                }
            }
        }
    }

    /// Adds one movetext word to `game`; true when it ends the game (a result).
    fn word(
        &mut self,
        game: &mut RawGame<'a>,
        word: &'a str,
        line: usize,
        after: &mut bool,
    ) -> bool {
        let unknown = |game: &mut RawGame<'a>, number| {
            game.moves.push(RawMove {
                text: Cow::Borrowed("?"),
                line,
                number,
            });
        };
        let first = game.moves.is_empty();
        match classify(word) {
            Word::Result => {
                game.result = Some(word);
                return true;
            }
            Word::Nag => {}
            Word::Number { dots, rest } => {
                self.move_number(game, word, dots);
                *after = false;
                if !rest.is_empty() {
                    return self.word(game, rest, line, after);
                }
            }
            Word::Dots(n) => {
                if first && n >= 2 {
                    game.second_first = Some(true);
                }
                if let Some((_, second)) = &mut self.written_number {
                    *second |= n >= 2;
                }
                *after = false;
            }
            // A lone `?` where a move is due (after a move number or
            // another lone `?`) is an unknown move, and a move is still
            // due after it: `1. ? ?` is two.
            Word::Marks if word == "?" && !*after => unknown(game, self.written_number.take()),
            Word::Marks => {}
            Word::Dash => {
                // `- -` is one unknown move; a lone `-` is one too.
                if word.trim_end_matches(['!', '?']) == "-" {
                    match self.item() {
                        Some(Item::Word(next, _)) if is_dash(next) => {}
                        other => self.ahead.extend(other),
                    }
                }
                unknown(game, self.written_number.take());
                *after = true;
            }
            Word::Move(text) => return self.move_word(game, (word, text), line, after),
        }
        false
    }

    /// A move number (`12.`, `12...`) read: the game's first, whether the
    /// second player moves first, and the number the next move gets.
    fn move_number(&mut self, game: &mut RawGame<'a>, word: &'a str, dots: usize) {
        let first = game.moves.is_empty();
        if first && game.second_first.is_none() && dots > 0 {
            game.second_first = Some(dots >= 3);
        }
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let written: Option<u32> = word[..digits].parse().ok();
        if first && game.first_number.is_none() {
            game.first_number = written;
        }
        self.written_number = written.map(|n| (n, dots >= 3));
    }

    /// A move (`word` as written, `text` its move) added to `game`, cut
    /// halves joined and upper case lowered with a note; true when it is
    /// a result after all (`1-0` written apart).
    fn move_word(
        &mut self,
        game: &mut RawGame<'a>,
        (word, text): (&'a str, &'a str),
        line: usize,
        after: &mut bool,
    ) -> bool {
        let bare = strip_annotation(text);
        if bare.is_empty() {
            return false;
        }
        let mut text = self.joined(bare);
        if is_result(&text) {
            game.result = Some(word);
            return true;
        }
        let movelike = |b: u8| b.is_ascii_alphanumeric() || b"-x:?".contains(&b);
        if text.bytes().any(|b| b.is_ascii_uppercase()) && text.bytes().all(movelike) {
            game.notes.push(Leniency::UpperCase {
                ply: game.moves.len() + 1,
                line,
                written: text.to_string(),
            });
            text = Cow::Owned(text.to_ascii_lowercase());
        }
        let number = self.written_number.take();
        game.moves.push(RawMove { text, line, number });
        *after = true;
        false
    }

    /// `bare` with the next word joined when the move stops at its
    /// separator (`1- 6`, `c3: e5`).
    fn joined(&mut self, bare: &'a str) -> Cow<'a, str> {
        let cut = bare.ends_with(['-', 'x', ':'])
            && !bare.bytes().all(|b| matches!(b, b'-' | b'x' | b':'));
        if !cut {
            return Cow::Borrowed(bare);
        }
        match self.item() {
            Some(Item::Word(next, _)) if continues_move(next) => {
                Cow::Owned(format!("{bare}{}", strip_annotation(next)))
            }
            other => {
                self.ahead.extend(other);
                Cow::Borrowed(bare)
            }
        }
    }
}
