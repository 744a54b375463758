//! The vocabulary added for issue 12 (references for counts, orders,
//! numbers, list indexing, the candidate in `where`, moving a piece to a
//! square, pushes, steps over blocks and traps, non-attacking shapes, the
//! move-origin filter, options on inline descriptors) and the two bugs
//! found by writing catalogue rules from the docs alone. Each scenario
//! derives its expected position by hand in a comment; the validator cases
//! name the code and JSON path of each misuse.

use houserules_modifiers::{codes, validate, Finding};
use houserules_session::{CreateRequest, Input, Session};
use serde_json::{json, Value};

/// A descriptor with one integer parameter `n` (default `n`), the given
/// passive part and triggers.
fn desc(n: i64, passive: Value, triggers: Value) -> Value {
    json!({
        "version": 1, "id": "t", "name": "T",
        "parameters": [{"name": "n", "type": "integer", "default": n}],
        "passive": passive, "triggers": triggers
    })
}

/// `desc` with only an on-rule-activated trigger.
fn act(n: i64, effects: Value) -> Value {
    desc(
        n,
        json!([]),
        json!([{"kind": "on-rule-activated", "effects": effects}]),
    )
}

fn session(fen: &str, d: Value) -> Session {
    session_with(fen, vec![d], 0)
}

fn session_with(fen: &str, modifiers: Vec<Value>, seed: u32) -> Session {
    Session::create(CreateRequest {
        fen: Some(fen.into()),
        modifiers,
        seed: Some(json!(seed)),
        ..CreateRequest::default()
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

fn mv(s: &mut Session, uci: &str) {
    s.submit(Input::Move { mv: uci.into() })
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
}

fn board(s: &Session) -> String {
    s.game().fen().split(' ').next().unwrap_or("").to_string()
}

/// The modifier-scoped variable `name` of the first attached modifier.
fn var(s: &Session, name: &str) -> Value {
    s.state().modifiers[0]
        .vars
        .get(name)
        .cloned()
        .unwrap_or(Value::Null)
}

fn findings(v: &Value) -> Vec<Finding> {
    validate(&v.to_string()).err().unwrap_or_default()
}

#[track_caller]
fn expect(v: &Value, code: &str, path: &str) {
    let f = findings(v);
    assert!(
        f.iter().any(|f| f.code == code && f.path == path),
        "expected {code} at {path}; got {f:#?}"
    );
}

#[track_caller]
fn valid(v: &Value) {
    let f = findings(v);
    assert!(f.is_empty(), "{f:#?}");
}

// ------------------------------------------------------------------ bugs

/// Regression (issue 12): `random-pick.count` as `"$param.n"` validated
/// but picked one item. With n = 3 and five white pawns, three pawns are
/// picked and killed whatever the seed: 5 − 3 = 2 pawns stay.
#[test]
fn random_pick_count_reference_picks_n() {
    let d = act(
        3,
        json!([{"kind": "random-pick", "params": {
            "from": {"pieces": {"type": ["pawn"], "color": "white"}},
            "count": "$param.n", "bind": "p",
            "then": [{"kind": "kill", "params": {"pieces": "$bind.p"}}]}}]),
    );
    for seed in [0, 1, 42] {
        let s = session_with("4k3/8/8/8/8/8/PPPPP3/4K3 w - - 0 1", vec![d.clone()], seed);
        let pawns = board(&s).chars().filter(|c| *c == 'P').count();
        assert_eq!(pawns, 2, "seed {seed}: {}", board(&s));
    }
}

/// Regression (issue 12): `flip-coin.count` as `"$param.n"` flipped one
/// coin. With n = 3 the binding is a list of three results.
#[test]
fn flip_coin_count_reference_flips_n() {
    let d = act(
        3,
        json!([{"kind": "flip-coin", "params": {
            "forPlayer": "chooser", "count": "$param.n", "bind": "c",
            "then": [{"kind": "set-var", "params": {"name": "coins", "value": "$bind.c"}}]}}]),
    );
    let s = session("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", d);
    let coins = var(&s, "coins");
    assert_eq!(coins.as_array().map(Vec::len), Some(3), "{coins}");
}

/// Regression (issue 12): `step-piece.distance` as `"$param.n"` took one
/// step. The rook on a1 steps north 3 squares over empty a2, a3 to a4.
#[test]
fn step_piece_distance_reference_steps_n() {
    let d = act(
        3,
        json!([{"kind": "step-piece", "params": {
            "pieces": {"type": ["rook"]}, "direction": "north", "distance": "$param.n"}}]),
    );
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", d);
    assert_eq!(board(&s), "4k3/8/8/8/R7/8/8/4K3");
}

/// Regression (issue 12): `for-each` over `{"values": [...]}` re-sorted
/// square-like values: `[7, 6, 5]` ended on 7 and `["e4", "a1"]` on `e4`.
/// Written order is kept: the last item bound is the last written (5,
/// `a1`); an explicit `square-asc` still sorts (a1 before e4: ends on e4).
#[test]
fn for_each_over_values_keeps_written_order() {
    for (values, order, last) in [
        (json!([7, 6, 5]), None, json!(5)),
        (json!(["e4", "a1"]), None, json!("a1")),
        (json!(["e4", "a1"]), Some("square-asc"), json!("e4")),
    ] {
        let mut params = json!({
            "over": {"values": values}, "bind": "v",
            "do": [{"kind": "set-var", "params": {"name": "last", "value": "$bind.v"}}]});
        if let Some(o) = order {
            params["order"] = json!(o);
        }
        let d = act(1, json!([{"kind": "for-each", "params": params}]));
        let s = session("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", d);
        assert_eq!(var(&s, "last"), last, "{values} {order:?}");
    }
}

/// References stand for values only: where a parameter's shape decides
/// what the primitive does (`order`, booleans, `lifetime`, `onMarker`,
/// a trigger's marker `kind`), the validator refuses them, so nothing
/// validates that the runtime would read differently.
#[test]
fn references_where_only_written_values_are_read_are_refused() {
    let d = act(
        1,
        json!([{"kind": "for-each", "params": {
            "over": {"pieces": {"royal": "$param.n"}}, "order": "$param.n", "bind": "x",
            "do": [{"kind": "spawn-marker", "params": {"kind": "mine", "at": "$bind.x", "lifetime": "$param.n"}}]}}]),
    );
    let base = "$.triggers[0].effects[0].params";
    expect(&d, codes::REFERENCE_NOT_ALLOWED, &format!("{base}.order"));
    expect(
        &d,
        codes::REFERENCE_NOT_ALLOWED,
        &format!("{base}.over.pieces.royal"),
    );
    expect(
        &d,
        codes::REFERENCE_NOT_ALLOWED,
        &format!("{base}.do[0].params.lifetime"),
    );
    let t = desc(
        1,
        json!([]),
        json!([{"kind": "on-piece-entered-marker", "params": {"kind": "$param.n"}, "effects": []}]),
    );
    expect(
        &t,
        codes::REFERENCE_NOT_ALLOWED,
        "$.triggers[0].params.kind",
    );
}

/// The piece on `square` in the output (`pieces[]`).
fn piece_on(s: &Session, square: &str) -> Value {
    s.to_json()["pieces"]
        .as_array()
        .and_then(|a| a.iter().find(|p| p["square"] == square).cloned())
        .unwrap_or(Value::Null)
}

// --------------------------------------------------------------- numbers

/// Arithmetic and comparisons (issue 12, gap 6). The rook on c5 is on
/// file 3 and rank 5: `add [1, 2, n=4]` = 7; `sub [rank 5, file 3]` = 2;
/// `gt ["5", 4]` is true (a `.rank` digit string is a number);
/// `abs (sub [file 3, 8])` = 5; `lt [rank 5, 3]` is false.
#[test]
fn arithmetic_and_comparisons_on_ranks_and_files() {
    let set = |name: &str, value: Value| json!({"kind": "set-var", "params": {"name": name, "value": value}});
    let d = act(
        4,
        json!([{"kind": "for-each", "params": {
        "over": {"pieces": {"type": ["rook"]}}, "bind": "p",
        "do": [
            set("sum", json!({"add": [1, 2, "$param.n"]})),
            set("diff", json!({"sub": ["$bind.p.rankNumber", "$bind.p.fileNumber"]})),
            set("high", json!({"gt": ["$bind.p.rank", 4]})),
            set("dist", json!({"abs": {"sub": ["$bind.p.fileNumber", 8]}})),
            set("low", json!({"lt": ["$bind.p.rankNumber", 3]}))
        ]}}]),
    );
    let s = session("4k3/8/8/2R5/8/8/8/4K3 w - - 0 1", d);
    assert_eq!(var(&s, "sum"), json!(7));
    assert_eq!(var(&s, "diff"), json!(2));
    assert_eq!(var(&s, "high"), json!(true));
    assert_eq!(var(&s, "dist"), json!(5));
    assert_eq!(var(&s, "low"), json!(false));
}

/// `lt`/`gt` and arithmetic never compare text silently false: a string
/// literal that is not digits, a text field and a list are refused.
#[test]
fn comparisons_on_text_are_refused() {
    let d = act(
        1,
        json!([{"kind": "conditional", "params": {
            "if": {"and": [
                {"lt": ["$self.type", 3]},
                {"gt": ["abc", 1]},
                {"add": [1, "$self.file"]},
                {"ge": ["$self.rank", 2]}
            ]},
            "then": []}}]),
    );
    let p = "$.triggers[0].effects[0].params.if.and";
    expect(&d, codes::EXPRESSION_INVALID, &format!("{p}[0].lt[0]"));
    expect(&d, codes::EXPRESSION_INVALID, &format!("{p}[1].gt[0]"));
    expect(&d, codes::EXPRESSION_INVALID, &format!("{p}[2].add[1]"));
    // `.rank` is a digit string, a number for comparisons: accepted.
    assert!(!findings(&d)
        .iter()
        .any(|f| f.path.starts_with(&format!("{p}[3]"))));
    let bad_add = act(
        1,
        json!([{"kind": "set-var", "params": {"name": "x", "value": {"add": [1]}}}]),
    );
    expect(
        &bad_add,
        codes::EXPRESSION_INVALID,
        "$.triggers[0].effects[0].params.value.add",
    );
}

/// References for `lifetime.plies` and `relRank.n` (gap 6). With n = 2:
/// a mine spawned at PlyCount 0 expires when PlyCount reaches 2 (rulings
/// A3): present after one ply, gone after two. Black's relative rank 2 is
/// rank 7, which holds three black pawns.
#[test]
fn plies_and_rel_rank_take_references() {
    let d = act(
        2,
        json!([
            {"kind": "spawn-marker", "params": {"kind": "mine", "at": "d4", "lifetime": {"kind": "moves", "plies": "$param.n"}}},
            {"kind": "set-var", "params": {"name": "c", "value": {"count": {"pieces": {"on": {"relRank": {"of": "black", "n": "$param.n"}}}}}}}
        ]),
    );
    valid(&d);
    let mut s = session("4k3/ppp5/8/8/8/8/P7/4K3 w - - 0 1", d);
    assert_eq!(var(&s, "c"), json!(3));
    assert_eq!(s.state().markers.len(), 1);
    mv(&mut s, "a2a3");
    assert_eq!(s.state().markers.len(), 1, "after ply 1");
    mv(&mut s, "a7a6");
    assert_eq!(s.state().markers.len(), 0, "after ply 2");
}

// -------------------------------------------------------------- indexing

/// `$bind.x[i]` (gap 7). A random pick of 2 from two candidates takes both
/// in draw order: with seed 0 the first draw is u ≈ 0.266 (rulings F2), so
/// `below(2)` = 0 picks the first candidate, then the other one. Values
/// keep their written order (`x`, `y`); pieces are in square order (a1,
/// h1). Index -1 is the last, an index out of range reads null.
#[test]
fn indexing_into_a_list_binding() {
    let set = |name: &str, value: &str| json!({"kind": "set-var", "params": {"name": name, "value": value}});
    let d = act(
        1,
        json!([{"kind": "random-pick", "params": {"from": {"values": ["x", "y"]}, "count": 2, "bind": "v", "then": [
            set("first", "$bind.v[0]"), set("last", "$bind.v[-1]"), set("none", "$bind.v[2]")]}}]),
    );
    let s = session_with("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", vec![d], 0);
    assert_eq!(var(&s, "first"), json!("x"));
    assert_eq!(var(&s, "last"), json!("y"));
    assert_eq!(var(&s, "none"), Value::Null);
    let d = act(
        1,
        json!([{"kind": "random-pick", "params": {"from": {"pieces": {"type": ["rook"]}}, "count": 2, "bind": "p", "then": [
            set("second", "$bind.p[1].square")]}}]),
    );
    let s = session_with("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", vec![d], 0);
    assert_eq!(var(&s, "second"), json!("h1"));
    let bad = act(
        1,
        json!([{"kind": "random-pick", "params": {"from": {"values": [1]}, "bind": "v", "then": [set("a", "$bind.v[x]")]}}]),
    );
    expect(
        &bad,
        codes::REFERENCE_INVALID,
        "$.triggers[0].effects[0].params.then[0].params.value",
    );
}

// ------------------------------------------------------------------- $it

/// A `where` that sees the candidate (gap 9). White pawns a2, a3, c2 and a
/// black knight h7: the pieces sharing their file with another non-royal
/// piece are the pawns a2 and a3 (count on their file = 2 > 1), so those
/// two are killed; c2 and h7 are alone on their files and stay. Squares
/// whose rank number is above 6 are ranks 7 and 8: 16 squares.
#[test]
fn where_sees_the_candidate() {
    let d = act(
        1,
        json!([
            {"kind": "kill", "params": {"pieces": {"royal": false, "where":
                {"gt": [{"count": {"pieces": {"sameFileAs": "$it", "royal": false}}}, 1]}}}},
            {"kind": "set-var", "params": {"name": "top", "value":
                {"count": {"squares": {"where": {"gt": ["$it.rankNumber", 6]}}}}}}
        ]),
    );
    let s = session("4k3/7n/8/8/8/P7/P1P5/4K3 w - - 0 1", d);
    assert_eq!(board(&s), "4k3/7n/8/8/8/8/2P5/4K3");
    assert_eq!(var(&s, "top"), json!(16));
    let bad = act(1, json!([{"kind": "kill", "params": {"pieces": "$it"}}]));
    expect(
        &bad,
        codes::REFERENCE_INVALID,
        "$.triggers[0].effects[0].params.pieces",
    );
}

/// A passive restriction whose `where` reads `$it` is judged piece by
/// piece by the compiled legality as by the interpreter: knights on the
/// a-file (file number 1) cannot move. The knight a1 has no move, the
/// knight h1 keeps f2 and g3 (by hand: h1 → f2, g3).
#[test]
fn where_with_the_candidate_in_a_restriction() {
    let d = desc(
        1,
        json!([{"kind": "forbid-move", "params": {"piece": {"type": ["knight"], "where": {"eq": ["$it.fileNumber", 1]}}}}]),
        json!([]),
    );
    let s = session("4k3/8/8/8/8/8/8/N3K2N w - - 0 1", d);
    let mut knight: Vec<String> = s
        .legal_moves_uci()
        .into_iter()
        .filter(|m| m.starts_with("a1") || m.starts_with("h1"))
        .collect();
    knight.sort();
    assert_eq!(knight, ["h1f2", "h1g3"]);
    assert_eq!(s.legal_moves(), s.legal_moves_interpreted());
}

// ------------------------------------------------------------- move-piece

/// move-piece keeps the piece's id and attributes (gap 1): under
/// `piece-hp` the knight set to 1 HP moves b1 → e5 and still has 1 HP
/// (a kill and spawn would give a new knight 2 HP and a new id).
#[test]
fn move_piece_keeps_id_and_hit_points() {
    let d = act(
        1,
        json!([
            {"kind": "set-piece-attr", "params": {"target": {"type": ["knight"]}, "attr": "Hp", "value": 1}},
            {"kind": "move-piece", "params": {"piece": {"type": ["knight"]}, "to": "e5"}}
        ]),
    );
    let before = Session::create(CreateRequest {
        fen: Some("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1".into()),
        presets: vec!["piece-hp".into()],
        ..CreateRequest::default()
    })
    .expect("plain");
    let id = piece_on(&before, "b1")["id"].clone();
    let s = Session::create(CreateRequest {
        fen: Some("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1".into()),
        presets: vec!["piece-hp".into()],
        modifiers: vec![d],
        ..CreateRequest::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let n = piece_on(&s, "e5");
    assert_eq!(n["type"], "knight", "{}", board(&s));
    assert_eq!(n["id"], id);
    assert_eq!(n["baseAttrs"]["Hp"], json!(1), "{n}");
}

/// When the target is hard-blocked: `stay` (default) leaves the knight on
/// b1; `nearest-free` takes the nearest free square by Manhattan distance
/// from e5: d5, e4, f5, e6 are at 1; nearer the origin b1 are d5 and e4
/// (|3−1|+|4−0| = 6 and |4−1|+|3−0| = 6, against 8 for f5 and e6); the
/// lower index of those two is e4 (28 < 35).
#[test]
fn move_piece_onto_a_blocked_square_stays_or_takes_the_nearest_free_one() {
    for (if_blocked, expect_board) in [
        (None, "4k3/8/8/8/8/8/8/1N2K3"),
        (Some("nearest-free"), "4k3/8/8/8/4N3/8/8/4K3"),
    ] {
        let mut mp = json!({"piece": {"type": ["knight"]}, "to": "e5"});
        if let Some(b) = if_blocked {
            mp["ifBlocked"] = json!(b);
        }
        let d = act(
            1,
            json!([
                {"kind": "spawn-marker", "params": {"kind": "blocked", "at": "e5", "lifetime": {"kind": "permanent"}}},
                {"kind": "move-piece", "params": mp}
            ]),
        );
        let s = session("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", d);
        assert_eq!(board(&s), expect_board, "{if_blocked:?}");
    }
}

/// Landings enter markers unless `enterMarkers: false`: a knight moved
/// onto the modifier's own mine dies (its on-piece-entered-marker kills
/// the piece); with `enterMarkers: false` it stands on e5 and the mine
/// stays.
#[test]
fn move_piece_enters_markers_unless_told_not_to() {
    for (enter, expect_board, mines) in [
        (true, "4k3/8/8/8/8/8/8/4K3", 1),
        (false, "4k3/8/8/4N3/8/8/8/4K3", 1),
    ] {
        let d = desc(
            1,
            json!([]),
            json!([
                {"kind": "on-rule-activated", "effects": [
                    {"kind": "spawn-marker", "params": {"kind": "mine", "at": "e5", "lifetime": {"kind": "permanent"}}},
                    {"kind": "move-piece", "params": {"piece": {"type": ["knight"]}, "to": "e5", "enterMarkers": enter}}
                ]},
                {"kind": "on-piece-entered-marker", "params": {"kind": "mine"}, "effects": [
                    {"kind": "kill", "params": {"pieces": "$event.piece"}}
                ]}
            ]),
        );
        let s = session("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", d);
        assert_eq!(board(&s), expect_board, "enterMarkers {enter}");
        assert_eq!(s.state().markers.len(), mines);
    }
}

// ------------------------------------------------------------ step-piece

/// A hurricane (gap 2): the rook a1 steps north 3 over a blocked a2 and a
/// mine on a3 to a4, entering no marker (the mine stays, the rook lives).
/// Without `ignoreHardBlocks` the blocked a2 stops it on a1. Stepping 2
/// over the block onto the mine with markers entered kills it.
#[test]
fn step_piece_over_hard_blocks_and_traps() {
    let run = |extra: Value, distance: u64| {
        let mut sp =
            json!({"pieces": {"type": ["rook"]}, "direction": "north", "distance": distance});
        for (k, v) in extra.as_object().into_iter().flatten() {
            sp[k] = v.clone();
        }
        let d = desc(
            1,
            json!([]),
            json!([
                {"kind": "on-rule-activated", "effects": [
                    {"kind": "spawn-marker", "params": {"kind": "blocked", "at": "a2", "lifetime": {"kind": "permanent"}}},
                    {"kind": "spawn-marker", "params": {"kind": "mine", "at": "a3", "lifetime": {"kind": "permanent"}}},
                    {"kind": "step-piece", "params": sp}
                ]},
                {"kind": "on-piece-entered-marker", "params": {"kind": "mine"}, "effects": [
                    {"kind": "kill", "params": {"pieces": "$event.piece"}}
                ]}
            ]),
        );
        session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", d)
    };
    let s = run(json!({"ignoreHardBlocks": true, "enterMarkers": false}), 3);
    assert_eq!(board(&s), "4k3/8/8/8/R7/8/8/4K3");
    assert_eq!(s.state().markers.len(), 2);
    let s = run(json!({}), 3);
    assert_eq!(board(&s), "4k3/8/8/8/8/8/8/R3K3");
    let s = run(json!({"ignoreHardBlocks": true}), 2);
    assert_eq!(board(&s), "4k3/8/8/8/8/8/8/4K3");
}

/// Pushes (gap 3): the rook a1 steps north onto its own pawn a2, which
/// pushes the line a2, a3 one square: the black pawn a3 → a4, the white
/// pawn a2 → a3, the rook → a2. A king is pushed too: the rook e6 steps
/// north into the black king e7, which goes to e8; with `intoRoyal:
/// "stop"` nothing moves.
#[test]
fn step_piece_pushes_own_pieces_and_kings() {
    let push = |extra: Value| {
        let mut sp = json!({"pieces": {"type": ["rook"]}, "direction": "north", "distance": 1, "onOccupied": "push"});
        for (k, v) in extra.as_object().into_iter().flatten() {
            sp[k] = v.clone();
        }
        act(1, json!([{"kind": "step-piece", "params": sp}]))
    };
    let s = session("4k3/8/8/8/8/p7/P7/R3K3 w - - 0 1", push(json!({})));
    assert_eq!(board(&s), "4k3/8/8/8/p7/P7/R7/4K3");
    let s = session("8/4k3/4R3/8/8/8/8/4K3 b - - 0 1", push(json!({})));
    assert_eq!(board(&s), "4k3/4R3/8/8/8/8/8/4K3");
    let s = session(
        "8/4k3/4R3/8/8/8/8/4K3 b - - 0 1",
        push(json!({"intoRoyal": "stop"})),
    );
    assert_eq!(board(&s), "8/4k3/4R3/8/8/8/8/4K3");
}

// --------------------------------------------------------------- shapes

/// Added shapes that do not attack (gap 4): the rook c3 gains a one-square
/// diagonal capture. Black's king d5 may step to d4 (diagonal to c3) only
/// when that shape has `"attacks": false`; c4 stays attacked along the
/// c-file either way.
#[test]
fn non_attacking_shapes_give_no_check() {
    for (attacks, d4_legal) in [(None, false), (Some(false), true)] {
        let mut shape = json!({"kind": "capture", "direction": "diagonal", "range": 1});
        if let Some(a) = attacks {
            shape["attacks"] = json!(a);
        }
        let d = desc(
            1,
            json!([{"kind": "add-moves", "params": {"pieces": {"type": ["rook"]}, "shapes": [shape]}}]),
            json!([]),
        );
        let s = session("8/8/8/3k4/8/2R5/8/4K3 b - - 0 1", d);
        let moves = s.legal_moves_uci();
        assert_eq!(
            moves.contains(&"d5d4".to_string()),
            d4_legal,
            "{attacks:?}: {moves:?}"
        );
        assert!(!moves.contains(&"d5c4".to_string()));
    }
}

/// The move-filter key `added` (gap 5): the rook a1 gains the knight's
/// leaps, b3 and c2 from a1. `must-move-if-able {added: true}` leaves just
/// those two; `forbid-move {added: true}` leaves the game's own moves.
#[test]
fn move_filter_tells_added_moves() {
    let leap = json!({"kind": "add-moves", "params": {"pieces": {"type": ["rook"]}, "shapes": [
        {"kind": "leap", "direction": [1, 2], "symmetry": "full"}]}});
    let only = desc(
        1,
        json!([leap.clone(), {"kind": "must-move-if-able", "params": {"added": true}}]),
        json!([]),
    );
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", only);
    let mut m = s.legal_moves_uci();
    m.sort();
    assert_eq!(m, ["a1b3", "a1c2"]);
    let none = desc(
        1,
        json!([leap, {"kind": "forbid-move", "params": {"added": true}}]),
        json!([]),
    );
    let s = session("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", none);
    let m = s.legal_moves_uci();
    assert!(!m.contains(&"a1b3".to_string()) && !m.contains(&"a1c2".to_string()));
    // Rook: a2…a8 (7), b1, c1, d1 (3); king: d1, d2, e2, f2, f1 (5); no
    // castling rights in the FEN: 15.
    assert_eq!(m.len(), 15, "{m:?}");
}

// ------------------------------------------------------- inline options

/// An inline descriptor with a lifetime, a chooser and parameter values
/// (gap 8), as `ID:lifetime=2;chooser=black;n=3` would give a library id.
#[test]
fn inline_descriptor_with_options() {
    let d = act(
        1,
        json!([{"kind": "set-var", "params": {"name": "v", "value": "$param.n"}}]),
    );
    let s = session_with(
        "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
        vec![json!({"descriptor": d, "lifetime": 2, "chooser": "black", "params": {"n": 3}})],
        0,
    );
    let m = &s.state().modifiers[0];
    assert_eq!(var(&s, "v"), json!(3));
    assert_eq!(m.chooser, houserules_engine::Color::Black);
    assert_eq!(
        m.lifetime,
        houserules_modifiers::runtime::Lifetime::Moves { expires_at_move: 2 }
    );
    for (entry, says) in [
        (
            json!({"descriptor": d, "params": {"m": 1}}),
            "no parameter `m`",
        ),
        (json!({"descriptor": d, "lifetime": 0}), "lifetime `0`"),
        (
            json!({"descriptor": d, "lifetme": 3}),
            "unknown key `lifetme`",
        ),
        (
            json!({"descriptor": d, "params": {"n": "three"}}),
            "`three` is not a valid value",
        ),
    ] {
        let e = Session::create(CreateRequest {
            modifiers: vec![entry],
            ..CreateRequest::default()
        })
        .err()
        .unwrap_or_else(|| panic!("{says}: accepted"));
        assert!(e.to_string().contains(says), "{e}");
        assert!(e.to_string().contains("$.modifiers[0]"), "{e}");
    }
}

// -------------------------------------------------------------- misuse

/// Each new parameter refuses a bad value at its path.
#[test]
fn misuse_of_the_new_parameters() {
    let d = act(
        1,
        json!([
            {"kind": "move-piece", "params": {"piece": "$self"}},
            {"kind": "move-piece", "params": {"piece": "$self", "to": "e4", "ifBlocked": "jump", "enterMarkers": "no"}},
            {"kind": "step-piece", "params": {"pieces": "$self", "direction": "north", "distance": 1, "onOccupied": "shove", "ignoreHardBlocks": 1}}
        ]),
    );
    let e = "$.triggers[0].effects";
    expect(&d, codes::PARAM_MISSING, &format!("{e}[0].params"));
    expect(
        &d,
        codes::PARAM_INVALID,
        &format!("{e}[1].params.ifBlocked"),
    );
    expect(
        &d,
        codes::PARAM_INVALID,
        &format!("{e}[1].params.enterMarkers"),
    );
    expect(
        &d,
        codes::PARAM_INVALID,
        &format!("{e}[2].params.onOccupied"),
    );
    expect(
        &d,
        codes::PARAM_INVALID,
        &format!("{e}[2].params.ignoreHardBlocks"),
    );
    let p = desc(
        1,
        json!([
            {"kind": "add-moves", "params": {"pieces": {"type": ["rook"]}, "shapes": [{"kind": "leap", "direction": [1, 2], "attacks": "no"}]}},
            {"kind": "forbid-move", "params": {"added": "yes"}}
        ]),
        json!([]),
    );
    expect(
        &p,
        codes::PARAM_INVALID,
        "$.passive[0].params.shapes[0].attacks",
    );
    expect(&p, codes::PARAM_INVALID, "$.passive[1].params.added");
    // move-piece is imperative: not in `passive`.
    let q = desc(
        1,
        json!([{"kind": "move-piece", "params": {"piece": {"type": ["rook"]}, "to": "e4"}}]),
        json!([]),
    );
    expect(&q, codes::IMPERATIVE_IN_PASSIVE, "$.passive[0].kind");
}
