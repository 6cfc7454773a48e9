//! What `solve` has to say about one record: the verdict, the answers
//! (replayed and fact-checked before they get here), what each analysis
//! found, and the notes for the user. Every front end prints this one
//! report (`crate::output` writes it in each format).

use std::time::Duration;

use crate::analysis::Edit;
use crate::notation::{plural, Answer, GameText, Record};
use crate::rules::Variant;
use crate::solve::SolveStats;

use super::StartFrom;

/// How messages name a record: its input, and which of its records when
/// it has several. Written out only when a message or JSON needs it.
#[derive(Clone, Copy, Debug)]
pub struct Name<'a> {
    /// The input's name (a file, `<stdin>`).
    pub input: &'a str,
    /// 1-based instance (or PDN game) and the line where it starts, for
    /// inputs of several records and for PDN games.
    pub instance: Option<(usize, usize)>,
    /// The instance is a PDN game.
    pub game: bool,
}

impl<'a> Name<'a> {
    /// A whole input named `input`.
    pub fn input(input: &'a str) -> Name<'a> {
        Name {
            input,
            instance: None,
            game: false,
        }
    }
}

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.game { "game" } else { "instance" };
        match self.instance {
            None => f.write_str(self.input),
            Some((n, line)) => write!(f, "{}: {what} {n} (line {line})", self.input),
        }
    }
}

/// The verdict on one record, ordered from best to worst (a batch's is
/// the worst of its records').
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Solved (or nothing to solve).
    Solved,
    /// No start position exists (or no repair within the edits allowed).
    Impossible,
    /// A limit passed before a verdict.
    Undecided,
    /// The record, or what was asked of it, cannot be read.
    BadInput,
    /// postfacto contradicted itself (solver and replayer disagree).
    Internal,
}

impl Verdict {
    /// The binary's exit status: 0, 1, 3, 2, 4 in the order above.
    pub fn exit_status(self) -> u8 {
        match self {
            Verdict::Solved => 0,
            Verdict::Impossible => 1,
            Verdict::BadInput => 2,
            Verdict::Undecided => 3,
            Verdict::Internal => 4,
        }
    }
}

/// Everything `solve` has to say about one record (or one unreadable input).
#[derive(Debug)]
pub struct Report<'r> {
    /// How messages name it.
    pub name: Name<'r>,
    /// The record, when it could be read (borrowed from the parsed input:
    /// a batch is not held in memory twice).
    pub record: Option<&'r Record>,
    /// The verdict.
    pub status: Verdict,
    /// Answers to print (several with `--all`), each replayed.
    pub answers: Vec<Answer>,
    /// For a damaged or repaired record, each answer's moves as played
    /// (same order).
    pub filled: Vec<Record>,
    /// Further text for standard output (explanations, counts).
    pub text: String,
    /// Notes for standard error (without the `postfacto: ` prefix).
    pub err: Vec<String>,
    /// What the solver did.
    pub stats: Option<SolveStats>,
    /// Time spent on it, in microseconds.
    pub micros: u128,
    /// Why the record is impossible, when it is.
    pub explanation: Option<String>,
    /// The rule set the record was read under.
    pub variant: Variant,
    /// That rule set was inferred (not named, not a PDN tag's).
    pub inferred: bool,
    /// A PDN game without moves: nothing was reconstructed.
    pub no_moves: bool,
    /// The edits of the (first) repair, with `--repair`.
    pub repairs: Option<Vec<Edit>>,
    /// With `--repair`, each answer's own edits, in the answers' order
    /// (`--all` lists several repairs, each with its answer).
    pub answer_edits: Vec<Vec<Edit>>,
    /// With `--from-opening`: the game from the opening to the answer's start.
    pub prefix: Option<PrefixReport>,
    /// The results of the analyses, for JSON (the text carries them too).
    pub analysed: Analysed,
    /// A PDN game's tags, move numbers and result, to write it back.
    pub pdn: Option<&'r GameText>,
    /// Where the start board came from (given, a FEN, the opening, unknown).
    pub start_from: Option<StartFrom>,
}

/// What an analysis option found, as data (`--count`, `--unique`,
/// `--minimize`, `--explain`).
#[derive(Clone, Debug, Default)]
pub struct Analysed {
    /// Answers found, and whether that is all of them (`--count`, `--all`).
    pub count: Option<(usize, bool)>,
    /// Whether every answer agrees on the used squares (`--unique`).
    pub unique: Option<bool>,
    /// Where two answers differ, when not unique.
    pub differs_on: Vec<String>,
    /// The fewest pieces and kings, proved minimal (`--minimize`).
    pub minimum: Option<(usize, usize)>,
    /// The start board's squares every answer shares, and why (`--explain`).
    pub forced: Vec<String>,
    /// The rules in conflict, one per line (`--explain`, impossible).
    pub core: Vec<String>,
    /// The same conflict as the `c` lines of `postfacto cnf`'s formula.
    pub core_cnf: Vec<String>,
}

/// The game from the opening to a fragment's start (`solve --from-opening`).
#[derive(Clone, Debug)]
pub struct PrefixReport {
    /// Its moves, from the opening.
    pub record: Record,
    /// No shorter prefix reaches any start board of the fragment.
    pub minimal: bool,
    /// The fewest plies a prefix can have, as far as proved.
    pub lower_bound: u32,
}

impl<'r> Report<'r> {
    /// A report on `record`, solved until something says otherwise.
    pub fn new(name: Name<'r>, record: &'r Record) -> Report<'r> {
        Report {
            record: Some(record),
            ..Report::empty(name, Verdict::Solved)
        }
    }

    /// An input that cannot be read: its one message.
    pub fn bad_input(input: &'r str, message: &str) -> Report<'r> {
        Report {
            err: vec![message.to_string()],
            ..Report::empty(Name::input(input), Verdict::BadInput)
        }
    }

    fn empty(name: Name<'r>, status: Verdict) -> Report<'r> {
        Report {
            name,
            record: None,
            status,
            answers: Vec::new(),
            filled: Vec::new(),
            text: String::new(),
            err: Vec::new(),
            stats: None,
            micros: 0,
            explanation: None,
            variant: Variant::English,
            inferred: false,
            no_moves: false,
            repairs: None,
            answer_edits: Vec::new(),
            prefix: None,
            analysed: Analysed::default(),
            pdn: None,
            start_from: None,
        }
    }

    /// The report without its record, name and PDN text, to outlive them
    /// (they are put back by whoever holds the originals).
    pub fn without_record(self) -> Report<'static> {
        Report {
            record: None,
            name: Name::input(""),
            pdn: None,
            status: self.status,
            answers: self.answers,
            filled: self.filled,
            text: self.text,
            err: self.err,
            stats: self.stats,
            micros: self.micros,
            explanation: self.explanation,
            variant: self.variant,
            inferred: self.inferred,
            no_moves: self.no_moves,
            repairs: self.repairs,
            answer_edits: self.answer_edits,
            prefix: self.prefix,
            analysed: self.analysed,
            start_from: self.start_from,
        }
    }

    /// The verdict in one word, as JSON's `status` gives it.
    pub fn status_word(&self) -> &'static str {
        if self.no_moves && self.status == Verdict::Solved {
            return "no moves";
        }
        match self.status {
            Verdict::Solved => "solved",
            Verdict::Impossible => "impossible",
            Verdict::Undecided => "undecided",
            Verdict::BadInput => "bad input",
            Verdict::Internal => "internal error",
        }
    }
}

/// "2000 records: 1998 solved, 2 impossible, 0 bad input, 0 undecided, 0 internal errors; 0.41 s".
pub fn summary(reports: &[Report], elapsed: Duration) -> String {
    let count = |s: Verdict| reports.iter().filter(|r| r.status == s).count();
    // A PDN diagram (no moves) is its own answer: counted as solved, but
    // said apart, as `verify --pdn` counts games without moves.
    let diagrams = reports
        .iter()
        .filter(|r| r.no_moves && r.status == Verdict::Solved)
        .count();
    let solved = match diagrams {
        0 => format!("{} solved", count(Verdict::Solved)),
        n => format!("{} solved ({n} without moves)", count(Verdict::Solved)),
    };
    format!(
        "{}: {solved}, {} impossible, {} bad input, {} undecided, {} internal errors; {:.2} s",
        plural(reports.len(), "record"),
        count(Verdict::Impossible),
        count(Verdict::BadInput),
        count(Verdict::Undecided),
        count(Verdict::Internal),
        elapsed.as_secs_f64()
    )
}
