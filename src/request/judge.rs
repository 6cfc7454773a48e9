//! The judge (`verify INPUT ANSWER`): each record's answer replayed by the
//! native replayer and accepted, or given the first rule it breaks; with
//! a repair asked, a rejected record also gets the fewest edits after
//! which the answer's start board leads to its end board. The binary
//! reads the files and prints the verdicts; this decides them.

use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

use crate::analysis::{repair_summary_numbered, Analysis, RepairOutcome};
use crate::archive::GameError;
use crate::board::PartialBoard;
use crate::encode::BoardFacts;
use crate::notation::{
    named_blocks, parse_answers_on, plural, Answer, AnswerBlock, MoveNumbers, ParseAnswerError,
    NAME_MARK,
};
use crate::replay::{judge_within, starts_on, Rejection};
use crate::rules::Variant;

use super::{read_items, Item, Name, ReadAs, RepairLimits, RequestError};

/// One record to judge: the input it was read from and, in an input of
/// several records (or a PDN file), its number there, as `solve` names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedRecord {
    /// The input's name (a file, `<stdin>`).
    pub file: String,
    /// 1-based instance (or PDN game) and the line where it starts.
    pub instance: Option<(usize, usize)>,
    /// The instance is a PDN game.
    pub game: bool,
}

impl JudgedRecord {
    /// The record as `solve` names its answer (`file: instance 2 (line 5)`).
    pub fn name(&self) -> String {
        Name {
            input: &self.file,
            instance: self.instance,
            game: self.game,
        }
        .to_string()
    }
}

/// Why an answer file gives no answer to match with the records.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerError {
    /// The answer's bytes are not text.
    #[error("the answer is not UTF-8 text")]
    NotText,
    /// The answer's boards cannot be read.
    #[error(transparent)]
    Answers(#[from] ParseAnswerError),
    /// Records without a file's name, and an answer naming several files.
    #[error("{input} gives no file name to match, and the answer names {files} files: name the records by the file they were solved from")]
    NamelessInput {
        /// The input, quoted.
        input: String,
        /// The files the answer names.
        files: usize,
    },
    /// The answer names its records (`==> NAME <==`), none of these.
    #[error("the answer names no record of {input} (its first answer is named '{first}')")]
    NamesNoRecord {
        /// The input, quoted, or "the input" for several files.
        input: String,
        /// The first name the answer gives.
        first: String,
    },
}

/// What to add when an answer has more boards than the input records:
/// `solve --all` prints every answer, `verify` judges one a record.
fn one_per_record(records: usize, boards: usize) -> &'static str {
    if boards > records {
        " (verify judges one answer per record, as solve prints them without --all)"
    } else {
        ""
    }
}

/// Why an answer (or the whole answer file) is not accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotAccepted {
    /// The answer file cannot be matched with the records.
    #[error(transparent)]
    Answer(#[from] AnswerError),
    /// The answer file holds another number of answers than the input records.
    #[error("the input has {} but the answer has {}{}", plural(*records, "record"), plural(*boards, "board"), one_per_record(*records, *boards))]
    Count {
        /// Records in the input.
        records: usize,
        /// Answers in the answer file.
        boards: usize,
    },
    /// The answer names the record but gives no boards for it.
    #[error("no answer was given for it")]
    NoAnswer,
    /// The input holds no record.
    #[error("no record to judge")]
    NoRecord,
    /// The record itself cannot be read (or is of rules postfacto does not play).
    #[error(transparent)]
    Unreadable(GameError),
    /// The record cannot be read under the rule set the answer is judged under.
    #[error("the record is not written in {} notation", .0.name())]
    OtherNotation(Variant),
    /// The replayer's verdict.
    #[error(transparent)]
    Replay(Rejection),
    /// The replayer's verdict, and the repair asked for in words.
    #[error("{rejection}; {repair}")]
    Repaired {
        /// The replayer's verdict.
        rejection: Rejection,
        /// The repair found (or why none), in one line.
        repair: String,
    },
}

/// One record's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeVerdict {
    /// The answer replays from its start board to its end board.
    Accepted,
    /// The answer (or the answer file) is rejected.
    Rejected(NotAccepted),
    /// A limit passed before a verdict (the judgement of a damaged move,
    /// or the repair).
    Undecided(NotAccepted),
}

/// The verdicts, one per record; or a single one, for the whole answer,
/// when it cannot be matched with the records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The records judged, in input order.
    pub records: Vec<JudgedRecord>,
    /// The verdicts, in the records' order.
    pub verdicts: Vec<JudgeVerdict>,
}

impl Judgement {
    /// How many verdicts are accepted, rejected and undecided.
    pub fn tally(&self) -> [usize; 3] {
        let mut tally = [0; 3];
        for verdict in &self.verdicts {
            tally[match verdict {
                JudgeVerdict::Accepted => 0,
                JudgeVerdict::Rejected(_) => 1,
                JudgeVerdict::Undecided(_) => 2,
            }] += 1;
        }
        tally
    }

    /// The binary's exit status: 3 when a verdict is undecided, else 1
    /// when one is a rejection, else 0.
    pub fn exit_status(&self) -> u8 {
        match self.tally() {
            [_, _, undecided] if undecided > 0 => 3,
            [_, rejected, _] if rejected > 0 => 1,
            _ => 0,
        }
    }
}

/// Answers to records judged by the replayer: the records of one or more
/// inputs, and one answer text holding their answers (in order, or named
/// as `solve` names a batch's answers).
#[derive(Clone, Debug, Default)]
pub struct JudgeRequest {
    records: Vec<(JudgedRecord, Item)>,
    answer: Vec<u8>,
    repair: Option<RepairLimits>,
    limit: Option<Duration>,
}

impl JudgeRequest {
    /// No records yet ([`Self::input`] adds them) and no answer ([`Self::answer`]).
    pub fn new() -> JudgeRequest {
        JudgeRequest {
            records: Vec::new(),
            answer: Vec::new(),
            repair: None,
            limit: None,
        }
    }

    /// The answer text: the records' answers in order, or named as `solve`
    /// names a batch's answers (`==> NAME <==`).
    pub fn answer(mut self, answer: Vec<u8>) -> JudgeRequest {
        self.answer = answer;
        self
    }

    /// Adds the records of the input `name` (a record file or PDN), read as `read_as` says.
    ///
    /// # Errors
    /// The input as a whole cannot be read (bad input).
    pub fn input(
        self,
        name: &str,
        bytes: &[u8],
        read_as: ReadAs,
    ) -> Result<JudgeRequest, RequestError> {
        let items = read_items(name, bytes, read_as)?;
        Ok(self.items(name, items))
    }

    /// Adds the records `items` of the input `name`, already read.
    pub(super) fn items(mut self, name: &str, items: Vec<Item>) -> JudgeRequest {
        let count = items.len();
        for (index, item) in items.into_iter().enumerate() {
            let record = JudgedRecord {
                file: name.to_string(),
                instance: (count > 1 || item.game.is_some())
                    .then_some((item.game.unwrap_or(index + 1), item.line)),
                game: item.game.is_some(),
            };
            self.records.push((record, item));
        }
        self
    }

    /// A rejected record gets the fewest edits within `repair`; `None`: no repair.
    pub fn repair(mut self, repair: Option<RepairLimits>) -> JudgeRequest {
        self.repair = repair;
        self
    }

    /// Whether a rejected record gets a repair.
    pub fn repairs(&self) -> bool {
        self.repair.is_some()
    }

    /// How long one record's judgement (of its damaged moves) may take.
    pub fn limit(mut self, limit: Option<Duration>) -> JudgeRequest {
        self.limit = limit;
        self
    }

    /// Judges every record. Under several candidate rule sets (`--rules
    /// auto`), the verdicts of the first under which every answer is
    /// accepted, else of the first whose boards the answers are written
    /// on. `progress` hears how many edits a repair tries.
    pub fn run(&self, progress: &mut dyn FnMut(usize)) -> Judgement {
        let mut candidates: Vec<Variant> = self
            .records
            .iter()
            .flat_map(|(_, item)| item.readings.iter().map(|r| r.variant))
            .collect();
        // Each rule set once, in the order the records name them.
        let mut seen = std::collections::HashSet::new();
        candidates.retain(|v| seen.insert(*v));
        let mut fallback: Option<Vec<JudgeVerdict>> = None;
        for variant in candidates {
            let verdicts = self.verdicts_under(variant, progress);
            if verdicts.iter().all(|v| *v == JudgeVerdict::Accepted) {
                return self.judgement(verdicts);
            }
            // The first with a verdict per record (its answers read on its
            // board) beats one whose single verdict says they do not.
            let several = verdicts.len() == self.records.len() && self.records.len() > 1;
            let first_whole = fallback
                .as_ref()
                .is_none_or(|f| f.len() == 1 && self.records.len() > 1);
            if fallback.is_none() || several && first_whole {
                fallback = Some(verdicts);
            }
        }
        // A batch of games of several rule sets (a PDN file without
        // GameType tags, solved game by game): each game under its own.
        let per_record = (seen.len() > 1)
            .then(|| self.verdicts_per_record(progress))
            .flatten();
        let verdicts = per_record.or(fallback).unwrap_or_else(|| {
            let why = self
                .records
                .iter()
                .find_map(|(_, item)| item.error.clone())
                .map_or(NotAccepted::NoRecord, NotAccepted::Unreadable);
            vec![JudgeVerdict::Rejected(why)]
        });
        self.judgement(verdicts)
    }

    fn judgement(&self, verdicts: Vec<JudgeVerdict>) -> Judgement {
        Judgement {
            records: self.records.iter().map(|(r, _)| r.clone()).collect(),
            verdicts,
        }
    }

    /// Every record's verdict under `variant`; one verdict alone when the
    /// answer cannot be matched with the records.
    fn verdicts_under(
        &self,
        variant: Variant,
        progress: &mut dyn FnMut(usize),
    ) -> Vec<JudgeVerdict> {
        let answers = std::str::from_utf8(&self.answer)
            .map_err(|_| AnswerError::NotText)
            // A byte order mark would hide the first `==> NAME <==` line.
            .map(crate::notation::without_bom)
            .and_then(|text| self.answers_by_record(text, variant));
        let answers = match answers {
            Err(error) => return vec![JudgeVerdict::Rejected(error.into())],
            Ok(answers) if answers.len() != self.records.len() => {
                let count = NotAccepted::Count {
                    records: self.records.len(),
                    boards: answers.len(),
                };
                return vec![JudgeVerdict::Rejected(count)];
            }
            Ok(answers) => answers,
        };
        self.records
            .iter()
            .zip(&answers)
            .map(|((_, item), answer)| match answer {
                Some(answer) => self.judged(item, variant, answer, self.repair, progress),
                None => unanswered(item),
            })
            .collect()
    }

    /// Every record's verdict under its own rule sets, its answer read on
    /// each one's board from its own block of a named answer: the first
    /// under which the answer is accepted, else the first's. `None` for
    /// an answer without names (its boards cannot be told apart by size)
    /// or one that names no record.
    fn verdicts_per_record(&self, progress: &mut dyn FnMut(usize)) -> Option<Vec<JudgeVerdict>> {
        let text = std::str::from_utf8(&self.answer).ok()?;
        let text = crate::notation::without_bom(text);
        let blocks = named_blocks(text)?;
        let found = self.blocks_of_records(text).ok()?;
        let verdicts = self.records.iter().zip(found).map(|((_, item), block)| {
            match block.map(|i| &blocks[i]) {
                Some(block) => self.judged_on_own_rules(item, block, progress),
                None => unanswered(item),
            }
        });
        Some(verdicts.collect())
    }

    /// One record's verdict on its answer `block`: accepted under the
    /// first of its rule sets that accepts it, else the first's verdict
    /// (with the repair asked, under that one only).
    fn judged_on_own_rules(
        &self,
        item: &Item,
        block: &AnswerBlock<'_>,
        progress: &mut dyn FnMut(usize),
    ) -> JudgeVerdict {
        let under = |variant: Variant| block.answers_on(variant.topology());
        let mut first = None;
        for reading in &item.readings {
            let answers = match under(reading.variant) {
                Err(error) => {
                    first.get_or_insert(JudgeVerdict::Rejected(AnswerError::from(error).into()));
                    continue;
                }
                Ok(answers) => answers,
            };
            let Some(answer) = answers.first() else {
                return unanswered(item);
            };
            let verdict = self.judged(item, reading.variant, answer, None, progress);
            if verdict == JudgeVerdict::Accepted {
                return verdict;
            }
            if first.is_none() {
                first = Some(match self.repair {
                    Some(_) => self.judged(item, reading.variant, answer, self.repair, progress),
                    None => verdict,
                });
            }
        }
        first.unwrap_or_else(|| unanswered(item))
    }

    /// The answer of each record: by its name when `solve` named a batch's
    /// answers (a record without an answer is a name alone: `None`), else
    /// in order.
    fn answers_by_record(
        &self,
        text: &str,
        variant: Variant,
    ) -> Result<Vec<Option<Answer>>, AnswerError> {
        let topology = variant.topology();
        let Some(blocks) = named_blocks(text) else {
            return Ok(parse_answers_on(text, topology)?
                .into_iter()
                .map(Some)
                .collect());
        };
        let mut answers = Vec::with_capacity(blocks.len());
        for block in &blocks {
            answers.push(block.answers_on(topology)?);
        }
        Ok(self
            .blocks_of_records(text)?
            .into_iter()
            .map(|i| i.and_then(|i| answers[i].first().copied()))
            .collect())
    }

    /// Which block of a named answer holds each record's answers (`None`:
    /// the answer does not name it).
    ///
    /// # Errors
    /// The answer names none of the records.
    fn blocks_of_records(&self, text: &str) -> Result<Vec<Option<usize>>, AnswerError> {
        // One name line per block, as the blocks were split: a malformed
        // name keeps its place, so later names keep their boards.
        let marks: Vec<Option<Place>> = text
            .lines()
            .filter(|l| l.trim_end().starts_with(NAME_MARK))
            .map(Place::of_name)
            .collect();
        let index: HashMap<&Place, usize> = marks
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (p, i)))
            .collect();
        // Records without a file's name (standard input, Python's text)
        // take the answers of the one file the answer names, by number.
        let mut files = marks.iter().flatten().map(|p| p.file.as_str());
        let first_file = files.next();
        let only_file = first_file.filter(|&one| files.all(|f| f == one));
        let found: Vec<Option<usize>> = self
            .records
            .iter()
            .map(|(record, _)| {
                let place = Place::of_record(record);
                let nameless = nameless(&record.file);
                let named_as = |file: &str| Place {
                    file: file.to_string(),
                    instance: place.instance,
                };
                index
                    .get(&place)
                    .or_else(|| index.get(&named_as(STDIN)))
                    .or_else(|| {
                        let file = only_file.filter(|_| nameless)?;
                        index.get(&named_as(file))
                    })
                    .copied()
            })
            .collect();
        if found.iter().all(Option::is_none) {
            let names: std::collections::BTreeSet<&str> =
                marks.iter().flatten().map(|p| p.file.as_str()).collect();
            return Err(self.names_no_record(marks.iter().flatten().next(), names.len()));
        }
        Ok(found)
    }

    /// The answer's names (of `files` files) match none of the records.
    fn names_no_record(&self, first: Option<&Place>, files: usize) -> AnswerError {
        let first = first.map_or(String::new(), |p| p.file.clone());
        let input = match self.records.as_slice() {
            [(one, _), ..] if self.records.iter().all(|(r, _)| r.file == one.file) => {
                if files > 1 && nameless(&one.file) {
                    let input = format!("'{}'", one.file);
                    return AnswerError::NamelessInput { input, files };
                }
                format!("'{}'", one.file)
            }
            _ => "the input".to_string(),
        };
        AnswerError::NamesNoRecord { input, first }
    }

    /// One record's answer under `variant`; with `repair` asked, a
    /// rejected record gets the fewest edits after which the answer's
    /// start board leads to its end board.
    fn judged(
        &self,
        item: &Item,
        variant: Variant,
        answer: &Answer,
        repair: Option<RepairLimits>,
        progress: &mut dyn FnMut(usize),
    ) -> JudgeVerdict {
        if let Some(error) = &item.error {
            return JudgeVerdict::Rejected(NotAccepted::Unreadable(error.clone()));
        }
        let Some(reader) = item.readings.iter().find(|r| r.variant == variant) else {
            return JudgeVerdict::Rejected(NotAccepted::OtherNotation(variant));
        };
        // Not the game's start: no repair of its moves mends that.
        let pinned = pinned_start(item, reader);
        if let Some(Err(wrong_start)) = pinned.map(|(board, by)| starts_on(answer, &board, by)) {
            return JudgeVerdict::Rejected(NotAccepted::Replay(wrong_start));
        }
        let rejection = match judge_within(variant.rules(), &reader.record, answer, self.limit) {
            Ok(()) => return JudgeVerdict::Accepted,
            Err(undecided @ Rejection::Undecided(_)) => {
                return JudgeVerdict::Undecided(NotAccepted::Replay(undecided))
            }
            Err(rejection) => rejection,
        };
        let Some(asked) = repair else {
            return JudgeVerdict::Rejected(NotAccepted::Replay(rejection));
        };
        // A PDN game's edits are named by its move numbers, as `solve` and
        // `verify --pdn` name them.
        let numbers = item.pdn.as_ref().map(|game| MoveNumbers {
            first_player: variant.first_player(),
            first_number: game.first_move(),
        });
        let (repair, undecided) = repaired_to(
            &reader.record,
            (variant, numbers.as_ref()),
            answer,
            asked,
            progress,
        );
        let why = NotAccepted::Repaired { rejection, repair };
        if undecided {
            JudgeVerdict::Undecided(why)
        } else {
            JudgeVerdict::Rejected(why)
        }
    }
}

/// The start a PDN game pins, and what pins it: its `[FEN]`, else its
/// rule set's opening (as `solve` reads a PDN file). `None` for records
/// of the task's format, whose start is the question.
fn pinned_start(
    item: &Item,
    reading: &crate::archive::Reading,
) -> Option<(crate::board::Board, &'static str)> {
    item.pdn.as_ref()?;
    Some(match reading.fen {
        Some(fen) => (fen, "its [FEN]"),
        None => (reading.variant.topology().opening(), "the opening"),
    })
}

/// The verdict on a record the answer gives no boards: a game without
/// moves (a diagram) has nothing to reconstruct, so `solve` gives none
/// when it has no position to print, or a position no game can start from.
fn unanswered(item: &Item) -> JudgeVerdict {
    if !item.no_moves || item.error.is_some() {
        return JudgeVerdict::Rejected(NotAccepted::NoAnswer);
    }
    let bad_start = item.readings.first().and_then(|reading| {
        let fen = reading.fen.as_ref()?;
        reading.variant.rules().start_problems(fen).first().copied()
    });
    match bad_start {
        Some(problem) => JudgeVerdict::Rejected(NotAccepted::Replay(Rejection::BadStart(problem))),
        None => JudgeVerdict::Accepted,
    }
}

/// The repair that makes `record` lead from `answer`'s start to its end,
/// in one line, and whether it ran out of time.
fn repaired_to(
    record: &crate::notation::Record,
    (variant, numbers): (Variant, Option<&MoveNumbers>),
    answer: &Answer,
    asked: RepairLimits,
    progress: &mut dyn FnMut(usize),
) -> (String, bool) {
    let all = variant.topology().all_bits();
    let known = BoardFacts {
        start: Some(PartialBoard {
            board: answer.start,
            known: all,
        }),
        end: Some(PartialBoard {
            board: answer.end,
            known: all,
        }),
    };
    let analysis = Analysis::new(variant).facts(known);
    match analysis.repair(record, asked.options(), progress) {
        Ok(outcome) => (
            repair_summary_numbered(&outcome, numbers),
            matches!(outcome, RepairOutcome::Undecided { .. }),
        ),
        Err(e) => (format!("no repair: {e}"), false),
    }
}

/// How standard input is named; its answers match a file's records by number.
const STDIN: &str = "<stdin>";

/// Whether records come without a file's name (`<stdin>`, Python's `<text>`).
fn nameless(file: &str) -> bool {
    file.starts_with('<') && file.ends_with('>')
}

/// Where a named answer belongs: the file name (without its folder, so a
/// batch solved elsewhere still matches) and the record's number there.
#[derive(Debug, PartialEq, Eq, Hash)]
struct Place {
    file: String,
    instance: Option<usize>,
}

impl Place {
    /// The place a `==> NAME <==` line names; `None` for other lines.
    fn of_name(line: &str) -> Option<Place> {
        let name = line
            .strip_prefix(NAME_MARK)?
            .trim_end()
            .strip_suffix("<==")?
            .trim_end();
        for what in [": instance ", ": game "] {
            let Some((file, rest)) = name.rsplit_once(what) else {
                continue;
            };
            if let Some(n) = rest.split(' ').next().and_then(|n| n.parse().ok()) {
                return Some(Place::new(file, Some(n)));
            }
        }
        Some(Place::new(name, None))
    }

    fn of_record(record: &JudgedRecord) -> Place {
        Place::new(&record.file, record.instance.map(|(n, _)| n))
    }

    fn new(file: &str, instance: Option<usize>) -> Place {
        let base = Path::new(file)
            .file_name()
            .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
        Place {
            file: base,
            instance,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::RulesChoice;

    const RECORD: &str = "W 3\n21-17\n13x22x31x24\n19x28\n";

    fn english() -> ReadAs {
        ReadAs {
            rules: RulesChoice::Default,
            short_captures: false,
            replay_decides: false,
            miswritten: false,
        }
    }

    fn judged(answer: &str) -> Judgement {
        JudgeRequest::new()
            .input("r.in", RECORD.as_bytes(), english())
            .expect("the record reads")
            .answer(answer.as_bytes().to_vec())
            .run(&mut |_| {})
    }

    #[test]
    fn records_without_a_file_name_take_the_one_file_s_answers_by_number() {
        let sample1 = include_str!("../../tests/data/sample1.ans");
        let sample2 = include_str!("../../tests/data/sample2.ans");
        let named = format!("==> r.in <==\n{sample1}");
        let judge = |name: &str, answer: &str| {
            JudgeRequest::new()
                .input(name, RECORD.as_bytes(), english())
                .expect("the record reads")
                .answer(answer.as_bytes().to_vec())
                .run(&mut |_| {})
        };
        for nameless in ["<stdin>", "<text>"] {
            assert_eq!(judge(nameless, &named).exit_status(), 0, "{nameless}");
        }
        // A file's own name must match.
        assert_eq!(judge("other.in", &named).exit_status(), 1);
        let two = format!("{named}==> s.in <==\n{sample2}");
        let [JudgeVerdict::Rejected(NotAccepted::Answer(error))] =
            &judge("<stdin>", &two).verdicts[..]
        else {
            panic!("two files named");
        };
        assert!(
            matches!(error, AnswerError::NamelessInput { files: 2, .. }),
            "{error}"
        );
    }

    #[test]
    fn an_answer_of_another_record_is_rejected_at_its_first_move() {
        let judgement = judged(include_str!("../../tests/data/sample2.ans"));
        assert_eq!(judgement.exit_status(), 1);
        let [JudgeVerdict::Rejected(NotAccepted::Replay(rejection))] = &judgement.verdicts[..]
        else {
            panic!("{judgement:?}");
        };
        assert!(
            rejection.to_string().starts_with("ply 1 (21-17)"),
            "{rejection}"
        );
    }

    #[test]
    fn a_rejected_answer_gets_its_repair_and_progress_is_heard() {
        let mut tried = Vec::new();
        let judgement = JudgeRequest::new()
            .input("r.in", RECORD.as_bytes(), english())
            .expect("the record reads")
            .answer(include_bytes!("../../tests/data/sample2.ans").to_vec())
            .repair(Some(RepairLimits {
                max_edits: 1,
                limit: None,
            }))
            .run(&mut |edits| tried.push(edits));
        let [JudgeVerdict::Rejected(NotAccepted::Repaired { rejection, repair })] =
            &judgement.verdicts[..]
        else {
            panic!("{judgement:?}");
        };
        assert!(matches!(rejection, Rejection::Illegal(_)), "{rejection:?}");
        assert_eq!(repair, "no repair of at most 1 edit makes it possible");
        assert!(!tried.is_empty());
        assert_eq!(judgement.exit_status(), 1);
    }

    #[test]
    fn the_records_own_answer_is_accepted() {
        let judgement = judged(include_str!("../../tests/data/sample1.ans"));
        assert_eq!(judgement.verdicts, [JudgeVerdict::Accepted]);
        assert_eq!(judgement.exit_status(), 0);
    }

    #[test]
    fn a_named_answer_of_another_file_names_no_record() {
        let answer = format!("{NAME_MARK}other.in <==\n");
        let judgement = judged(&answer);
        let [JudgeVerdict::Rejected(NotAccepted::Answer(AnswerError::NamesNoRecord {
            input,
            first,
        }))] = &judgement.verdicts[..]
        else {
            panic!("{judgement:?}");
        };
        assert_eq!((input.as_str(), first.as_str()), ("'r.in'", "other.in"));
    }
}
