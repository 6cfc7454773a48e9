//! `solve --format json`: one object per record, every key present in
//! every object (null when it does not apply), keys in name order.
//! `docs/cli.md` lists them; the struct's fields are the schema.

use serde::Serialize;

use crate::analysis::Edit;
use crate::notation::{to_fen, Answer, MoveNumbers, Record};
use crate::request::{Report, SolveOptions, Verdict};
use crate::rules::Variant;
use crate::solve::{Engine, SolveStats};

use super::{answers_played, moves_of, played, rows, turn_after, written_of};

/// One record's report as JSON (fields in name order, as they are printed).
#[derive(Clone, Debug, Default, Serialize)]
pub struct JsonReport {
    /// Every answer (one, or all of them with `--all`), each with its moves.
    answers: Option<Vec<JsonAnswer>>,
    clauses: Option<usize>,
    core: Option<Vec<String>>,
    core_cnf: Option<Vec<String>>,
    count: Option<usize>,
    count_complete: Option<bool>,
    decided_by: Option<&'static str>,
    dfs_nodes: Option<u64>,
    differs_on: Option<Vec<String>>,
    end: Option<Vec<String>>,
    end_fen: Option<String>,
    engine: &'static str,
    explanation: Option<String>,
    first: Option<&'static str>,
    forced: Option<Vec<String>>,
    game: Option<usize>,
    input: String,
    instance: Option<usize>,
    kings: Option<usize>,
    learned: Option<usize>,
    line: Option<usize>,
    message: Option<String>,
    /// The moves as played (filled in, for a damaged record that has an
    /// answer), beside `record`, the moves as written (`damaged.md`).
    moves: Option<Vec<String>>,
    name: String,
    pieces: Option<usize>,
    prefix: Option<Vec<String>>,
    prefix_lower_bound: Option<u32>,
    prefix_minimal: Option<bool>,
    prefix_plies: Option<usize>,
    proved_minimal: Option<bool>,
    record: Option<Vec<String>>,
    repaired: bool,
    repairs: Option<Vec<JsonEdit>>,
    rules: &'static str,
    rules_inferred: bool,
    start: Option<Vec<String>>,
    start_fen: Option<String>,
    start_from: Option<&'static str>,
    status: &'static str,
    time_us: u128,
    unique: Option<bool>,
    variables: Option<usize>,
}

/// One answer: its boards, as rows and FEN, and the moves it plays.
#[derive(Clone, Debug, Serialize)]
pub struct JsonAnswer {
    end: Vec<String>,
    end_fen: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<String>>,
    /// With `--repair`: this answer's own edits (`--all` lists several).
    #[serde(skip_serializing_if = "Option::is_none")]
    repairs: Option<Vec<JsonEdit>>,
    start: Vec<String>,
    start_fen: String,
}

/// One edit of a repair (`repair.md`), as `solve`, `verify --pdn` and the
/// page write it; `text` (the edit in words) only where the game's move
/// numbers are known (`verify --pdn`, the page).
#[derive(Clone, Debug, Serialize)]
pub struct JsonEdit {
    kind: &'static str,
    ply: usize,
    read: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    written: String,
}

impl From<&Edit> for JsonEdit {
    fn from(edit: &Edit) -> JsonEdit {
        JsonEdit {
            kind: edit.kind.name(),
            ply: edit.ply,
            read: edit.read.clone(),
            text: None,
            written: edit.written.clone(),
        }
    }
}

impl JsonEdit {
    /// The edit with its words, its ply named as `numbers` number the
    /// `repaired` game (see [`Edit::words`]).
    pub fn worded(edit: &Edit, numbers: Option<(&MoveNumbers, &Record)>) -> JsonEdit {
        JsonEdit {
            text: Some(edit.words(numbers)),
            ..JsonEdit::from(edit)
        }
    }
}

/// `report` as one line of JSON.
pub fn to_json(report: &Report, options: &SolveOptions) -> String {
    serde_json::to_string(&JsonReport::new(report, options))
        .unwrap_or_else(|e| format!("{{\"status\":\"internal error\",\"message\":\"{e}\"}}"))
}

/// An answer's boards with the moves `record` plays from its start.
fn boards(answer: &Answer, record: &Record, variant: Variant) -> JsonAnswer {
    let algebraic = variant.fen_algebraic();
    JsonAnswer {
        end: rows(&answer.end),
        end_fen: to_fen(&answer.end, turn_after(record), algebraic),
        moves: None,
        repairs: None,
        start: rows(&answer.start),
        start_fen: to_fen(&answer.start, record.first, algebraic),
    }
}

impl JsonReport {
    /// The JSON of `report`, solved under `options`.
    pub fn new(report: &Report, options: &SolveOptions) -> JsonReport {
        let variant = report.variant;
        let mut json = JsonReport {
            engine: options.engine.name(),
            input: report.name.input.to_string(),
            name: report.name.to_string(),
            rules: variant.name(),
            rules_inferred: report.inferred,
            status: report.status_word(),
            time_us: report.micros,
            start_from: report.start_from.map(|from| from.name()),
            ..JsonReport::default()
        };
        if let Some(record) = report.record {
            json.add_record(report, record);
        }
        if let Some(stats) = report.stats {
            json.add_stats(report, stats, options);
        }
        json.explanation.clone_from(&report.explanation);
        json.add_repairs_and_prefix(report);
        if report.status != Verdict::Solved && report.explanation.is_none() {
            json.message = Some(report.err.join("; "));
        }
        json.add_analysed(report);
        if let Some((number, line)) = report.name.instance {
            if report.name.game {
                json.game = Some(number);
            } else {
                json.instance = Some(number);
            }
            json.line = Some(line);
        }
        json
    }

    /// The moves as written and as played, and the boards of every answer.
    fn add_record(&mut self, report: &Report, record: &Record) {
        let variant = report.variant;
        // The first answer's game: a repair may change who moved first
        // and how many plies were played, so its sides to move are its own.
        let game = report.filled.first().unwrap_or(record);
        self.first = Some(game.first.name());
        self.moves = played(report).map(|played| moves_of(played, variant));
        self.record = Some(written_of(record, variant));
        if let Some(answer) = report.answers.first() {
            let first = boards(answer, game, variant);
            self.start = Some(first.start);
            self.end = Some(first.end);
            self.start_fen = Some(first.start_fen);
            self.end_fen = Some(first.end_fen);
        }
        let answers = answers_played(report)
            .into_iter()
            .enumerate()
            .map(|(k, (answer, played))| {
                let played = played.unwrap_or(record);
                let edits = report.answer_edits.get(k);
                JsonAnswer {
                    moves: Some(moves_of(played, variant)),
                    repairs: edits.map(|edits| edits.iter().map(JsonEdit::from).collect()),
                    ..boards(answer, played, variant)
                }
            })
            .collect();
        self.answers = Some(answers);
    }

    /// What the engine did: the formula's size and who decided, or the
    /// search's nodes.
    fn add_stats(&mut self, report: &Report, stats: SolveStats, options: &SolveOptions) {
        if options.engine != Engine::Sat {
            self.dfs_nodes = Some(stats.nodes);
            return;
        }
        // The shortcut builds no formula: no size to give (both figures
        // are the `p` line of a formula built, or neither is given).
        if !stats.shortcut {
            self.variables = Some(stats.vars);
            self.clauses = Some(stats.clauses);
        }
        self.learned = (stats.learned > 0).then_some(stats.learned);
        if report.status == Verdict::Solved && options.solver.is_none() {
            self.decided_by = Some(match (stats.shortcut, stats.lucky) {
                (true, _) => "unit facts",
                (false, true) => "lucky assignment",
                (false, false) => "varisat",
            });
        }
    }

    fn add_repairs_and_prefix(&mut self, report: &Report) {
        if let Some(edits) = &report.repairs {
            self.repairs = Some(edits.iter().map(JsonEdit::from).collect());
            self.repaired = !edits.is_empty();
        }
        if let Some(prefix) = &report.prefix {
            self.prefix = Some(moves_of(&prefix.record, report.variant));
            self.prefix_plies = Some(prefix.record.moves.len());
            self.prefix_minimal = Some(prefix.minimal);
            self.prefix_lower_bound = Some(prefix.lower_bound);
        }
    }

    fn add_analysed(&mut self, report: &Report) {
        let analysed = &report.analysed;
        if let Some((found, complete)) = analysed.count {
            self.count = Some(found);
            self.count_complete = Some(complete);
        }
        if let Some(unique) = analysed.unique {
            self.unique = Some(unique);
            self.differs_on = Some(analysed.differs_on.clone());
        }
        if let Some((pieces, kings)) = analysed.minimum {
            self.pieces = Some(pieces);
            self.kings = Some(kings);
            self.proved_minimal = Some(true);
        }
        let listed = |lines: &Vec<String>| (!lines.is_empty()).then(|| lines.clone());
        self.forced = listed(&analysed.forced);
        self.core = listed(&analysed.core);
        self.core_cnf = listed(&analysed.core_cnf);
    }
}
