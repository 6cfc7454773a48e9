//! Command-line arguments (clap derive). Raw values only; `cli::run` validates them.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Reconstructs draughts positions from damaged game records.
#[derive(Parser, Debug)]
#[command(name = "postfacto", version, about, long_about = None)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Find a start board from which the moves are legal; print it beside the end board.
    Solve(SolveArgs),
    /// List every legal move of the side to move on a board, sorted, one per line.
    Moves {
        /// The board: a file holding a FEN (W:W31,32:B1-20) or its rows, top row
        /// first, '.' for empty and light squares, b w B W for pieces; or the FEN
        /// itself; '-' or nothing: standard input.
        file: Option<PathBuf>,
        /// Rule set [default, or auto: English for 8 rows, International for 10,
        /// Canadian for 12; for a FEN, the rule sets its squares allow, English first].
        #[arg(long, value_enum)]
        rules: Option<RulesArg>,
        /// The side to move (a FEN names it; board rows need it).
        #[arg(long, value_enum, ignore_case = true)]
        turn: Option<TurnArg>,
    },
    /// Judge an answer: accept it, or name the first rule it breaks.
    Verify(VerifyArgs),
    /// Print the CNF formula of one record in DIMACS, with named variables and clause groups.
    Cnf(CnfArgs),
    /// Read a SAT solver's model of `cnf`'s formula back into boards: the
    /// answer it stands for, replayed, or the clause or rule it breaks.
    Decode(DecodeArgs),
    /// Solve a DIMACS CNF file with the embedded varisat and print SAT-competition
    /// output ("s SATISFIABLE" and "v" lines, exit 10; "s UNSATISFIABLE", exit 20).
    Sat {
        /// The DIMACS file ('-' or nothing: standard input).
        file: Option<PathBuf>,
        /// Give up after this long (e.g. 2s): print "s UNKNOWN" and exit 3.
        #[arg(long, value_parser = parse_time_limit)]
        limit: Option<std::time::Duration>,
        /// An unsatisfiable formula: write its DRAT proof here (as `solve --proof`).
        #[arg(long, value_name = "FILE")]
        proof: Option<PathBuf>,
    },
    /// Write instances: fragments of random legal games, or the `--hard K` family.
    Generate(GenerateArgs),
    /// Run both engines on every record of FILES (folders: every *.in and *.pdn inside) and compare.
    Compare(CompareArgs),
    /// The pawn-capture puzzle: the fewest captures after which no pawn attacks
    /// another (T boards; each N, then N rows of 'O' and '.').
    Pawns(PawnsArgs),
    /// Print a shell completion script (e.g. `postfacto completions bash >
    /// ~/.local/share/bash-completion/completions/postfacto`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page in roff (e.g. `postfacto man > postfacto.1; man ./postfacto.1`);
    /// with a command, that command's page, one the main page names
    /// (`postfacto man solve > postfacto-solve.1`).
    Man {
        /// The command whose page to print (the main page without one).
        command: Option<String>,
    },
    /// Time the engines on generated instances and print a table.
    Bench(BenchArgs),
    /// The shortest legal game from the opening (or --from) to a position,
    /// its length proved minimal (a proof game).
    Reach(ReachArgs),
    /// Serve a page on this computer that shows archives, games, fragments
    /// and diagrams on boards (loopback only unless --bind); prints its address.
    Serve(ServeArgs),
}

/// `serve`'s arguments.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// PDN files the page may open (it reads no other file).
    pub files: Vec<PathBuf>,
    /// The port (0: any free one; the address is printed).
    #[arg(long, default_value_t = 8642)]
    pub port: u16,
    /// The address to listen on; anything but loopback lets other
    /// computers in (a warning is printed).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the default browser (best effort).
    #[arg(long)]
    pub open: bool,
    /// How long one request may work before it answers undecided (e.g. 5s).
    #[arg(long, value_parser = parse_time_limit, default_value = "5s")]
    pub limit: std::time::Duration,
}

/// `reach`'s arguments.
#[derive(clap::Args, Debug)]
pub struct ReachArgs {
    /// The position: a file holding a FEN or a board text as for
    /// --start-board ('?' on a square: its content is unknown); or the FEN
    /// itself; '-' or nothing: standard input.
    pub file: Option<PathBuf>,
    /// Rule set [default, or auto: as for `moves`, the position's: English
    /// for 8 rows, International for 10, Canadian for 12; for a FEN, the
    /// rule sets its squares allow, English first].
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// The side to move in the position (a FEN names it).
    #[arg(long, value_enum, ignore_case = true)]
    pub turn: Option<TurnArg>,
    /// Any legal game, found fast, not necessarily the shortest (is the
    /// position legal at all?).
    #[arg(long, conflicts_with = "all")]
    pub any: bool,
    /// Where the game starts: `opening` (the rule set's), a board text file, or a FEN.
    #[arg(long, value_name = "opening|FILE", default_value = "opening")]
    pub from: String,
    /// With --from FILE: the side to move there (default: the rule set's first player).
    #[arg(long, value_enum, ignore_case = true)]
    pub from_turn: Option<TurnArg>,
    /// Look for games of at most N plies only (exit 1 when none reaches it).
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReachFormat::Text)]
    pub format: ReachFormat,
    /// Give up after this long (e.g. 10s): the lower bound proved so far, exit 3.
    #[arg(long, value_parser = parse_time_limit)]
    pub limit: Option<std::time::Duration>,
    /// Count every shortest game (and print them when few): is the proof game unique?
    #[arg(long)]
    pub all: bool,
    /// With --all: stop counting after N games and say "at least N".
    #[arg(long, value_name = "N", default_value_t = 100_000, requires = "all")]
    pub count_limit: u64,
    /// Instead, print in DIMACS the formula "a legal game of exactly K plies
    /// reaches the position" (satisfiable exactly when one does).
    #[arg(long, value_name = "K", conflicts_with_all = ["all", "max_plies", "limit", "format", "any"])]
    pub cnf: Option<u32>,
    /// With --cnf: the formula without the clauses refinement learns,
    /// printed at once (a model may break a rule it leaves to refinement).
    #[arg(long, requires = "cnf")]
    pub unrefined: bool,
}

/// `reach`'s output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReachFormat {
    /// The moves with move numbers, then the line on minimality.
    Text,
    /// One JSON object.
    Json,
    /// A PDN game any reader replays to the position.
    Pdn,
}

/// `solve`'s arguments.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Input files with one or more records each, or folders (every *.in and
    /// *.pdn inside); none or '-': standard input. Solved in parallel,
    /// printed in input order.
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Icpc)]
    pub format: FormatArg,
    /// Folder for --format svg pictures, made if missing (NNNN.svg per instance, NNNN-K.svg
    /// for the K-th answer of --all; default: current folder). Other formats print to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --format svg: arrows for the last N plies only (0: none), so a long game is no
    /// tangle; plies filled in or repaired are always drawn, dashed.
    #[arg(long, value_name = "N")]
    pub arrows: Option<usize>,
    /// SAT solver: "varisat" (embedded) or a command such as "cadical" or
    /// "minisat-wrapper -q" that reads a DIMACS file (its path is added last)
    /// and prints SAT-competition output ("s SATISFIABLE", "v" lines).
    #[arg(long, default_value = "varisat", value_name = "CMD")]
    pub solver: String,
    /// Engine that finds the start board.
    #[arg(long, value_enum, default_value_t = EngineArg::Sat)]
    pub engine: EngineArg,
    /// Give up on a record (exit 3) after this long (plain seconds, or 500ms, 2s,
    /// 1.5m, 1h): every engine, the analysis options and --solver (its process group
    /// is killed); or, for --engine dfs, after this many start boards (100000nodes).
    #[arg(long, value_parser = parse_limit)]
    pub limit: Option<LimitArg>,
    /// Rule set: English for the task's format unless named (algebraic
    /// squares: the rule sets that write them, as `auto`); a PDN game's
    /// own GameType, else the one its notation allows and its moves solve
    /// under. `auto` infers it for any input.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Batches: no progress bar and no summary line (per-record messages stay).
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub facts: FactArgs,
    /// Read captures in the task's format as written short, as PDN does:
    /// `13x24` may stand for `13x22x31x24` (the solver fills in the rest).
    #[arg(long)]
    pub short_captures: bool,
    /// A PDN game without [FEN] is a fragment whose start is unknown (to be
    /// reconstructed), not a game from the rule set's opening, as PDN reads it.
    #[arg(long)]
    pub fragment: bool,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
}

/// `verify`'s arguments.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// The records (a folder: every *.in inside).
    #[arg(required_unless_present = "pdn")]
    pub input: Option<PathBuf>,
    /// The answers (8 lines per record, 10 or 12 on the larger boards, as `solve` prints them).
    #[arg(required_unless_present = "pdn")]
    pub answer: Option<PathBuf>,
    /// Instead, check each game of a PDN file, game by game: do its moves
    /// replay from its [FEN] position, or from the opening without one?
    /// (`--pdn FILE`, or `--pdn` with the file as the first argument; a
    /// folder: every *.pdn inside; '-' or nothing: standard input.)
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "answer")]
    pub pdn: Option<Option<PathBuf>>,
    /// Rule set: English for the task's format unless named (algebraic
    /// squares: the rule sets that write them, as `auto`); a PDN game's
    /// own GameType, else the one its notation allows and its moves replay
    /// under. `auto` infers it for any input.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Read captures in the task's format as written short, as PDN does:
    /// `13x24` may stand for `13x22x31x24` (the solver fills in the rest).
    #[arg(long)]
    pub short_captures: bool,
    /// A record or game that is rejected: the fewest edits to what is
    /// written that make it replay (from the answer's boards, or from the
    /// game's start), the minimum proved.
    #[arg(long)]
    pub repair: bool,
    /// With --repair: the most edits tried.
    #[arg(long, value_name = "K", default_value_t = 3, requires = "repair")]
    pub max_edits: usize,
    /// Give up a record's judgement after this long (e.g. 2s, 500ms; the
    /// formula that looks for a damaged record's filling when the
    /// replayer's own search is too long; default 10 s), and with --repair a
    /// record's or game's repair (with the fewest edits a repair needs as
    /// far as the search got): it is undecided, the others go on, exit 3 at
    /// the end.
    #[arg(long, value_parser = parse_time_limit)]
    pub limit: Option<std::time::Duration>,
    /// With --pdn: refuse what real archives write but the PDN standard
    /// does not (damaged tag lines, upper-case squares, the other
    /// separator, moves that are no move on the board) instead of reading
    /// it leniently and noting it on the game's line.
    #[arg(long)]
    pub strict: bool,
    /// With --pdn: ask of every game with a [FEN] whether its start can be
    /// reached from the opening by a legal game (a composed problem's
    /// diagram should be): a game found (not necessarily the shortest) or
    /// the reason none exists; an unreachable start exits 1. Each search
    /// may take --limit (default 10 s).
    #[arg(long, requires = "pdn")]
    pub legal: bool,
    /// With --pdn: "text", one line per game, or "json", one JSON object
    /// per game per line (JSON Lines).
    #[arg(long, value_enum, default_value_t = VerifyFormatArg::Text)]
    pub format: VerifyFormatArg,
    /// No summary line (with --pdn: per file), and no note of inferred rules.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Output formats of `verify --pdn` and `bench`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyFormatArg {
    /// One line per game: `game 3 (line 40): OK`.
    Text,
    /// One JSON object per game per line.
    Json,
}

/// `cnf`'s arguments.
#[derive(clap::Args, Debug)]
pub struct CnfArgs {
    /// Input file ('-' or nothing: standard input).
    pub file: Option<PathBuf>,
    /// Write the formula here instead of standard output (gzip-compressed
    /// when the name ends in .gz).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub record: RecordArgs,
}

/// Which record of an input, read how, with what known of its boards:
/// `cnf` and `decode` choose alike, so a model of the one is read by the
/// other.
#[derive(clap::Args, Debug)]
pub struct RecordArgs {
    /// Which record of the input (1-based); needed when there are several.
    #[arg(long)]
    pub instance: Option<usize>,
    /// Rule set: English for the task's format unless named (algebraic
    /// squares: the rule sets that write them, as `auto`); a PDN game's
    /// own GameType, else inferred. `auto` infers it for any input (the
    /// first rule set the record solves under).
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    #[command(flatten)]
    pub facts: FactArgs,
    /// Read captures in the task's format as written short, as PDN does:
    /// `13x24` may stand for `13x22x31x24` (the solver fills in the rest).
    #[arg(long)]
    pub short_captures: bool,
    /// A PDN game without [FEN] is a fragment whose start is unknown, not a
    /// game from the opening (as `solve --fragment`).
    #[arg(long)]
    pub fragment: bool,
}

/// `decode`'s arguments.
#[derive(clap::Args, Debug)]
pub struct DecodeArgs {
    /// The record (the input `cnf` was given; '-': standard input).
    pub file: PathBuf,
    /// The solver's output: SAT-competition `s` and `v` lines, or the
    /// model's literals alone ('-': standard input).
    pub model: PathBuf,
    #[command(flatten)]
    pub record: RecordArgs,
    /// The model is of `reach --cnf K`'s formula: the record is the
    /// position, as `reach` reads it (with --rules, --turn, --from).
    #[arg(long, value_name = "K", conflicts_with_all = ["instance", "short_captures", "fragment", "start_board", "end_board"])]
    pub reach: Option<u32>,
    /// With --reach: the formula was printed with --unrefined.
    #[arg(long, requires = "reach")]
    pub unrefined: bool,
    /// With --reach: the side to move in the position (a FEN names it).
    #[arg(long, value_enum, ignore_case = true, requires = "reach")]
    pub turn: Option<TurnArg>,
    /// With --reach: where the games start, as for `reach`.
    #[arg(long, value_name = "opening|FILE", requires = "reach")]
    pub from: Option<String>,
    /// With --reach --from FILE: the side to move there.
    #[arg(long, value_enum, ignore_case = true, requires = "from")]
    pub from_turn: Option<TurnArg>,
}

/// `pawns`'s arguments.
#[derive(clap::Args, Debug)]
pub struct PawnsArgs {
    /// The puzzle input ('-' or nothing: standard input).
    pub file: Option<PathBuf>,
    /// Engine: exact matching (Hopcroft-Karp and König), or SAT with a totalizer bound.
    #[arg(long, value_enum, default_value_t = PawnEngineArg::Matching)]
    pub engine: PawnEngineArg,
    /// Print the formula of one board in DIMACS (named variables and clause groups)
    /// instead of solving.
    #[arg(long)]
    pub cnf: bool,
    /// With --cnf: add a totalizer and unit clauses bounding the captures to at most K.
    #[arg(long, value_name = "K", requires = "cnf")]
    pub at_most: Option<usize>,
    /// Which board (1-based) for --cnf and --proof; needed when there are several.
    #[arg(long, value_name = "N")]
    pub board: Option<usize>,
    /// Write a DRAT proof that one capture fewer than the answer's is impossible:
    /// a refutation of the formula `pawns --cnf --at-most K-1` prints.
    #[arg(long, value_name = "FILE", conflicts_with = "cnf")]
    pub proof: Option<PathBuf>,
    /// Print figures per board on standard error.
    #[arg(long)]
    pub stats: bool,
    /// Give up on a board (exit 3; nothing printed for it) after this long (e.g. 2s).
    #[arg(long, value_parser = parse_time_limit)]
    pub limit: Option<std::time::Duration>,
}

/// `compare`'s arguments.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// Files or folders.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Rule set: English for the task's format unless named (algebraic
    /// squares: the rule sets that write them, as `auto`); a PDN game's own
    /// GameType, else the one its notation allows. The DFS engine plays only
    /// the rule sets `solve --help` lists under --engine dfs: under the
    /// others its column says n/a.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Node or time limit for the DFS engine per record (e.g. 1000000nodes, 2s).
    #[arg(long, value_parser = parse_limit)]
    pub limit: Option<LimitArg>,
    /// Instead, time whole processes on each file: `postfacto solve` (one
    /// thread, all cores) against this command, which gets the file's path
    /// last; its answers are judged by the replayer (exit 1 if any fails).
    #[arg(long, value_name = "CMD", conflicts_with = "limit")]
    pub against: Option<String>,
    /// One JSON object per record per line (JSON Lines) instead of the table;
    /// the summary goes to standard error. With --against: its tables as
    /// JSON Lines (as `bench --format json`).
    #[arg(long)]
    pub json: bool,
}

/// `generate`'s arguments.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Plies per fragment (a ply is one side's move; a PDN move number covers two).
    #[arg(long, default_value_t = 100)]
    pub plies: usize,
    /// Number of instances.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// Seed of the generator (same seed, same instances).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where games start: random boards, or the standard opening.
    #[arg(long, value_enum, default_value_t = FromArg::Random)]
    pub from: FromArg,
    /// Instead, the member with K blocker gadgets of the family that is hard for DFS.
    #[arg(long, conflicts_with = "hard_search")]
    pub hard: Option<usize>,
    /// Instead, rerun the beam search that found the hard family and print its
    /// members (K = 1, 2, ...; progress on stderr). Takes minutes at the default width.
    #[arg(long)]
    pub hard_search: bool,
    /// Beam width of --hard-search.
    #[arg(long, default_value_t = 300, requires = "hard_search")]
    pub beam: usize,
    /// Write one file per instance into this folder (NNNN.in; made if missing; the
    /// NNNN.in files of an earlier, larger batch removed) instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Instead, random boards of the pawn puzzle, N x N (--count boards, --seed).
    #[arg(long, value_name = "N", conflicts_with_all = ["hard", "hard_search", "out", "rules", "from", "plies"])]
    pub pawns: Option<usize>,
    /// Percentage of squares holding a pawn, with --pawns.
    #[arg(long, value_name = "PERCENT", default_value_t = 50, requires = "pawns",
          value_parser = clap::value_parser!(u32).range(0..=100))]
    pub density: u32,
    /// Rule set of the random games (Russian records are written in algebraic notation).
    #[arg(long, value_enum, default_value_t = RuleSetArg::ENGLISH, conflicts_with_all = ["hard", "hard_search"])]
    pub rules: RuleSetArg,
    /// Damage each fragment: this many moves become a lone '?' (same
    /// fragments as without, same seed).
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with_all = ["hard", "hard_search", "pawns"])]
    pub unknown_moves: usize,
    /// Damage each fragment: this many squares in moves become '?'.
    #[arg(long, value_name = "N", default_value_t = 0, conflicts_with_all = ["hard", "hard_search", "pawns"])]
    pub unknown_squares: usize,
    /// Damage each fragment: write captures short (first, last and about half
    /// the landings between); read them back with `--short-captures`.
    #[arg(long, conflicts_with_all = ["hard", "hard_search", "pawns"])]
    pub short_captures: bool,
}

/// `bench`'s arguments.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Number of random fragments.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Plies per fragment (a ply is one side's move; a PDN move number covers two).
    #[arg(long, default_value_t = 100)]
    pub plies: usize,
    /// Seed of the generator (same seed, same instances).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule set (all but English: the SAT engine only, and no hard family).
    #[arg(long, value_enum, default_value_t = RuleSetArg::ENGLISH)]
    pub rules: RuleSetArg,
    /// Instead, time both pawn-puzzle engines on random boards of half density,
    /// 8 x 8 up to 1000 x 1000 (--seed applies).
    #[arg(long)]
    pub pawns: bool,
    /// Instead, time whole processes on the records in one file: `postfacto solve`
    /// (one thread, all cores) against this command, which gets the file's path
    /// last (e.g. "./checks-dfs" or "postfacto solve --engine dfs"); its answers
    /// are judged by the replayer (exit 1 if any fails).
    #[arg(long, value_name = "CMD", conflicts_with = "pawns")]
    pub against: Option<String>,
    /// Instead, time `--repair` on fragments of 20, 50 and 100 moves with 1,
    /// 2 and 3 squares misread (--count records per row, at most 20).
    #[arg(long, conflicts_with_all = ["pawns", "against"])]
    pub repair: bool,
    /// Instead, time `reach` (the shortest game from the opening) on the
    /// positions games reached after 4 to 40 plies: the first --count
    /// games (at most 20) of each file of --games (real archives), else
    /// --count random games of --rules; each with --limit (30 s).
    #[arg(long, conflicts_with_all = ["pawns", "against", "repair"])]
    pub reach: bool,
    /// With --reach: only the --any table (a game, not the shortest, to the
    /// position at the end of each whole game).
    #[arg(long, requires = "reach")]
    pub any: bool,
    /// With --reach: the time each position is given.
    #[arg(long, value_parser = parse_time_limit, requires = "reach")]
    pub limit: Option<std::time::Duration>,
    /// "text": aligned tables; "json": one JSON object per row and per
    /// note (JSON Lines), each naming its table, the columns as keys.
    #[arg(long, value_enum, default_value_t = VerifyFormatArg::Text)]
    pub format: VerifyFormatArg,
    /// With --repair: instead of random fragments, the games of these PDN
    /// files that replay, each with 1, 2 and 3 random copyist's mistakes
    /// (a misread square, a move left out, a move written twice, the wrong
    /// side first), repaired from their known start (--seed applies). With
    /// --reach: the games whose positions are reached.
    #[arg(long, value_name = "PDN", num_args = 1..)]
    pub games: Vec<std::path::PathBuf>,
}

/// A `--rules` value: a rule set of the rule table (its name and summary
/// come from there, so a new row needs nothing here), or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulesArg(Option<postfacto::rules::Variant>);

impl RulesArg {
    /// The rule set named; `None` for `auto`.
    pub fn variant(self) -> Option<postfacto::rules::Variant> {
        self.0
    }
}

/// Every `--rules` value: the table's rule sets, then `auto`.
const RULES_ARGS: [RulesArg; postfacto::rules::Variant::ALL.len() + 1] = {
    use postfacto::rules::Variant;
    let mut all = [RulesArg(None); Variant::ALL.len() + 1];
    let mut i = 0;
    while i < Variant::ALL.len() {
        all[i] = RulesArg(Some(Variant::ALL[i]));
        i += 1;
    }
    all
};

impl ValueEnum for RulesArg {
    fn value_variants<'a>() -> &'a [Self] {
        &RULES_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self.0 {
            Some(v) => RuleSetArg(v).to_possible_value()?,
            None => PossibleValue::new("auto").help(
                "Inferred from the notation, and from which rule set the record replays or solves under (`solve`, `verify`, `cnf`); for a board, from its rows or squares (`moves`, `reach`)",
            ),
        })
    }
}

/// A `--rules` value of the commands that make games (`generate`,
/// `bench`): a rule set of the table, no `auto`, since there is nothing
/// to infer it from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleSetArg(pub postfacto::rules::Variant);

impl RuleSetArg {
    /// `--rules english`, the default.
    pub const ENGLISH: RuleSetArg = RuleSetArg(postfacto::rules::Variant::English);
}

/// Every rule set of the table, as `--rules` values.
const RULE_SET_ARGS: [RuleSetArg; postfacto::rules::Variant::ALL.len()] = {
    let mut all = [RuleSetArg::ENGLISH; postfacto::rules::Variant::ALL.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = RuleSetArg(postfacto::rules::Variant::ALL[i]);
        i += 1;
    }
    all
};

impl ValueEnum for RuleSetArg {
    fn value_variants<'a>() -> &'a [Self] {
        &RULE_SET_ARGS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.facts().summary))
    }
}

/// Output formats of `solve`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// The task's 8 lines per answer (10 or 12 on the larger boards).
    Icpc,
    /// One JSON object per record per line.
    Json,
    /// PDN FEN of the start and end positions, one per line.
    Fen,
    /// An SVG picture per record, written to --out.
    Svg,
    /// The completed game as PDN, its start board in a [FEN] tag.
    Pdn,
}

impl FormatArg {
    /// The library's format.
    pub fn format(self) -> postfacto::output::Format {
        use postfacto::output::Format;
        match self {
            FormatArg::Icpc => Format::Icpc,
            FormatArg::Json => Format::Json,
            FormatArg::Fen => Format::Fen,
            FormatArg::Svg => Format::Svg { arrows: None },
            FormatArg::Pdn => Format::Pdn,
        }
    }
}

/// The side to move.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnArg {
    White,
    Black,
}

impl From<TurnArg> for postfacto::board::Color {
    fn from(turn: TurnArg) -> Self {
        match turn {
            TurnArg::White => postfacto::board::Color::White,
            TurnArg::Black => postfacto::board::Color::Black,
        }
    }
}

/// What is known of the boards besides the moves (`solve`, `cnf`).
#[derive(clap::Args, Debug, Default, Clone)]
pub struct FactArgs {
    /// What is known of the start board: a board text (8, 10 or 12 lines) with
    /// '?' on the squares whose content is unknown; every other square is a fact.
    #[arg(long, value_name = "FILE")]
    pub start_board: Option<PathBuf>,
    /// What is known of the end board, as for --start-board (e.g. a
    /// newspaper's final diagram).
    #[arg(long, value_name = "FILE")]
    pub end_board: Option<PathBuf>,
}

/// What the SAT engine can say beyond one answer (`solve` options).
#[derive(clap::Args, Debug, Default, Clone)]
pub struct AnalysisArgs {
    /// Impossible records: the smallest set of rules that conflict, in detail.
    /// Solvable ones: for each square, whether every answer shares it and which plies force it.
    #[arg(long)]
    pub explain: bool,
    /// Impossible records: write a proof of unsatisfiability of the `cnf` formula here.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// Format of --proof: DRAT (for drat-trim and other checkers) or varisat's own.
    #[arg(long, value_enum, default_value_t = ProofFormatArg::Drat, requires = "proof")]
    pub proof_format: ProofFormatArg,
    /// Return the answer with the fewest pieces (then fewest kings), proved optimal.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub minimize: Option<MinimizeArg>,
    /// At most N pieces of each colour on the start board.
    #[arg(long, value_name = "N")]
    pub max_per_side: Option<usize>,
    /// Count start boards, told apart by the squares the moves use.
    #[arg(long, conflicts_with_all = ["minimize", "unique"])]
    pub count: bool,
    /// Print every start board counted by --count (implies --count).
    #[arg(long, conflicts_with_all = ["minimize", "unique"])]
    pub all: bool,
    /// Stop counting after N boards and say "more than N".
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = at_least_one)]
    pub count_limit: usize,
    /// Say whether the answer is forced: whether every answer puts the same
    /// pieces on the squares the moves use.
    #[arg(long, conflicts_with = "minimize")]
    pub unique: bool,
    /// Impossible records: the fewest edits to what is written (a square,
    /// a move, a missing or extra move, the side to move first) that make
    /// them possible, the minimum proved; with --all, every minimum repair.
    #[arg(long, conflicts_with_all = ["minimize", "unique", "count", "max_per_side"])]
    pub repair: bool,
    /// With --repair: the most edits tried.
    #[arg(long, value_name = "K", default_value_t = 3, requires = "repair")]
    pub max_edits: usize,
    /// The start board must be one a legal game from the opening reaches:
    /// print that game too, the shortest such prefix (`reach`'s search; honours --limit).
    #[arg(long, conflicts_with_all = ["minimize", "unique", "count", "all", "max_per_side", "repair"])]
    pub from_opening: bool,
}

impl AnalysisArgs {
    /// The library's analyses these options ask for.
    pub fn analyses(self) -> postfacto::request::Analyses {
        postfacto::request::Analyses {
            explain: self.explain,
            proof: self.proof,
            proof_format: match self.proof_format {
                ProofFormatArg::Drat => varisat::ProofFormat::Drat,
                ProofFormatArg::Varisat => varisat::ProofFormat::Varisat,
            },
            minimize: self.minimize.is_some(),
            max_per_side: self.max_per_side,
            count: self.count,
            all: self.all,
            count_limit: self.count_limit,
            unique: self.unique,
            repair: self.repair,
            max_edits: self.max_edits,
            from_opening: self.from_opening,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ProofFormatArg {
    /// Textual DRAT.
    #[default]
    Drat,
    /// Varisat's native format (check with varisat's checker).
    Varisat,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimizeArg {
    /// The number of pieces, then of kings.
    Pieces,
}

/// Engines of the pawn puzzle.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PawnEngineArg {
    /// Minimum vertex cover by maximum matching (exact, fast).
    Matching,
    /// Clauses and a totalizer bound, solved by varisat (exact, slower).
    Sat,
}

impl PawnEngineArg {
    pub fn engine(self) -> postfacto::pawns::PawnEngine {
        match self {
            PawnEngineArg::Matching => postfacto::pawns::PawnEngine::Matching,
            PawnEngineArg::Sat => postfacto::pawns::PawnEngine::Sat,
        }
    }
}

/// `--engine`: its help names the rule sets the DFS engine plays, from
/// the rule table.
#[derive(Clone, Copy, Debug)]
pub enum EngineArg {
    /// SAT encoding solved by varisat.
    Sat,
    /// The known repair-and-replay search.
    Dfs,
}

impl From<EngineArg> for postfacto::request::EngineKind {
    fn from(engine: EngineArg) -> Self {
        match engine {
            EngineArg::Sat => Self::Sat,
            EngineArg::Dfs => Self::Dfs,
        }
    }
}

impl ValueEnum for EngineArg {
    fn value_variants<'a>() -> &'a [Self] {
        &[EngineArg::Sat, EngineArg::Dfs]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue;
        Some(match self {
            EngineArg::Sat => PossibleValue::new("sat").help("SAT encoding solved by varisat"),
            EngineArg::Dfs => {
                let rules = postfacto::rules::Variant::ALL
                    .into_iter()
                    .filter(|v| v.has_dfs())
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(", ");
                PossibleValue::new("dfs").help(format!(
                    "The known repair-and-replay search (--rules {rules} only)"
                ))
            }
        })
    }
}

#[derive(ValueEnum, Clone, Copy, Debug)]
pub enum FromArg {
    /// Random start-legal boards.
    Random,
    /// The rule set's opening, its first player to move (Black in English, White elsewhere).
    Opening,
}

/// A search limit: nodes or time.
#[derive(Clone, Copy, Debug)]
pub enum LimitArg {
    Nodes(u64),
    Time(std::time::Duration),
}

/// Why a `--limit` or `--time-limit` value is refused (clap prints it
/// after the option's name).
#[derive(Debug, thiserror::Error)]
enum LimitError {
    /// `...nodes` with no count before it.
    #[error("'{0}' is not a node count (100000nodes)")]
    NotANodeCount(String),
    /// Neither plain seconds nor a number with a known unit.
    #[error("'{0}' is not a time (plain seconds as 5 or 0.5, or 500ms, 2s, 1.5m, 1h)")]
    NotATime(String),
}

/// A `--limit`: a time as `timeout` takes it, or for the DFS a number of
/// start boards written `100000nodes`.
/// A count of at least one (`--count-limit`: a count that keeps nothing
/// has no answer to give).
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

fn parse_limit(text: &str) -> Result<LimitArg, LimitError> {
    if let Some(count) = text.trim().strip_suffix("nodes") {
        return count
            .trim()
            .parse::<u64>()
            .map(LimitArg::Nodes)
            .map_err(|_| LimitError::NotANodeCount(text.to_string()));
    }
    parse_time_limit(text).map(LimitArg::Time)
}

/// A time as `timeout` takes it: plain seconds (`5`, `0.5`), or with a
/// unit: `500ms`, `2s`, `1.5m`, `1h`.
fn parse_time_limit(text: &str) -> Result<std::time::Duration, LimitError> {
    let trimmed = text.trim();
    let (number, unit) = match trimmed.find(|c: char| c.is_ascii_alphabetic()) {
        Some(at) => trimmed.split_at(at),
        None => (trimmed, "s"),
    };
    let seconds_per_unit = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" => 60.0,
        "h" => 3600.0,
        _ => f64::NAN,
    };
    number
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n >= 0.0 && seconds_per_unit.is_finite())
        .and_then(|n| std::time::Duration::try_from_secs_f64(n * seconds_per_unit).ok())
        .ok_or_else(|| LimitError::NotATime(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn times_read_as_timeout_reads_them() {
        let time = |t| parse_time_limit(t).unwrap();
        assert_eq!(time("5"), Duration::from_secs(5));
        assert_eq!(time("0.5"), Duration::from_millis(500));
        assert_eq!(time("0.5s"), Duration::from_millis(500));
        assert_eq!(time("500ms"), Duration::from_millis(500));
        assert_eq!(time("2m"), Duration::from_secs(120));
        assert_eq!(time("1h"), Duration::from_secs(3600));
        for bad in ["", "s", "-1", "2x", "1e400", "nan"] {
            assert!(parse_time_limit(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            parse_limit("100000nodes"),
            Ok(LimitArg::Nodes(100000))
        ));
        assert!(matches!(parse_limit("3"), Ok(LimitArg::Time(_))));
        let refused = |text| parse_limit(text).unwrap_err().to_string();
        assert_eq!(
            refused("xnodes"),
            "'xnodes' is not a node count (100000nodes)"
        );
        assert_eq!(
            refused("2x"),
            "'2x' is not a time (plain seconds as 5 or 0.5, or 500ms, 2s, 1.5m, 1h)"
        );
    }
}
