//! Protocol 3 (issue 21): after `welcome`, each accepted input is one
//! `update` with what it changed; a change without an input is a `patch`;
//! a client that missed updates sends `resync`. On SQLite and Postgres.
//! Every v3 message received here is checked against the published JSON
//! Schema of the server's messages (docs/protocol.md is generated from
//! it). Expected values are derived by hand in the comments.

mod common;

use common::schema::{assert_valid, client_schema, server_schema};
use common::{create, get_json, http, start, Backend, Client};
use serde_json::{json, Value};

/// The next message of `kind` (others skipped), checked against the
/// schema.
async fn expect_valid(c: &mut Client, kind: &str, schema: &Value) -> Value {
    let m = c.expect(kind).await;
    assert_valid(schema, &m);
    m
}

/// The first move e4 by White (v3), a draw offer, a resignation: each is
/// one update with the fields of that input; a v1 spectator gets the full
/// `state`s.
async fn updates_after_a_move_and_events(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let g = create(
        s.addr,
        json!({"clock": {"initialSeconds": 60, "incrementSeconds": 1}}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    let mut spec = Client::connect(s.addr, &g.id, "", 1).await;
    // welcome stays the full state in v3.
    assert_valid(&schema, &w.welcome);
    assert_eq!(w.welcome["protocolVersion"], 3);
    assert_eq!(w.welcome["state"]["plyCount"], 0);
    let before = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    let log_before = before["log"].as_array().unwrap().len();

    w.mv("e4", 0).await;
    let u = expect_valid(&mut w, "update", &schema).await;
    assert_eq!(
        bl.expect("update").await,
        u,
        "one text for every v3 receiver"
    );
    assert_eq!(u["seq"], 1);
    assert_eq!(u["input"], json!({"move": "e2e4"}), "recorded in UCI");
    assert_eq!(u["move"], json!({"uci": "e2e4", "san": "e4"}));
    assert_eq!(u["plyCount"], 1);
    assert_eq!(u["sideToMove"], "black");
    // Black's 20 moves of the initial position (16 pawn moves, 4 knight
    // moves) stay legal after 1. e4.
    assert_eq!(u["legalMoves"].as_array().unwrap().len(), 20);
    assert!(u["pendingChoice"].is_null());
    assert_eq!(u["status"]["status"], "ongoing");
    // Only the e-pawn changed: it stands on e4 now, and nothing left.
    assert_eq!(u["pieces"]["removed"], json!([]));
    let changed = u["pieces"]["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 1, "{u}");
    assert_eq!(changed[0]["square"], "e4");
    assert_eq!(changed[0]["type"], "pawn");
    assert_eq!(changed[0]["color"], "white");
    // No marker, modifier or variable changed in FIDE chess.
    assert!(u.get("markers").is_none() && u.get("activeModifiers").is_none());
    assert!(u.get("vars").is_none());
    // White's first move is free (the clocks stood still until it): White
    // keeps the whole minute, and Black's clock runs now.
    assert_eq!(u["clock"]["running"], "black");
    assert_eq!(u["clock"]["white"]["remainingMs"], 60_000);
    assert_eq!(u["presence"], json!({"white": true, "black": true}));
    // The update's fields are those of the full state after the move, and
    // its events are the log entries the move added.
    let after = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    for k in [
        "fen",
        "plyCount",
        "sideToMove",
        "status",
        "legalMoves",
        "rngStream",
        "seq",
    ] {
        assert_eq!(u[k], after[k], "{k}");
    }
    let log_after = after["log"].as_array().unwrap();
    assert_eq!(u["events"].as_array().unwrap(), &log_after[log_before..]);
    assert!(
        !u["events"].as_array().unwrap().is_empty(),
        "a move is logged"
    );
    // The v1 spectator gets the full state, as before.
    let st = spec.expect("state").await;
    assert_eq!(st["seq"], 1);
    assert_eq!(st["state"]["log"], after["log"]);

    bl.send(json!({"kind": "offer-draw"})).await;
    let u = expect_valid(&mut w, "update", &schema).await;
    assert_eq!(u["seq"], 2);
    assert_eq!(
        u["input"],
        json!({"event": "offer-draw", "player": "black"})
    );
    assert_eq!(u["drawOffer"], "black");
    assert!(u["move"].is_null() && u["pieces"].is_null());
    assert_eq!(u["events"], json!([]), "no rules input, no rule log");
    assert_eq!(u["plyCount"], 1);

    bl.send(json!({"kind": "resign"})).await;
    let u = expect_valid(&mut w, "update", &schema).await;
    assert_eq!(u["seq"], 3);
    assert_eq!(
        u["result"],
        json!({"result": "1-0", "reason": "resignation"})
    );
    let over = expect_valid(&mut w, "game-over", &schema).await;
    assert_eq!(over["result"], "1-0");
}

/// Mind Control (v3) asks White, then Black, for an enemy piece at the
/// start, and swaps the two once both are named (the first answer is kept
/// in the choice's bindings as `taken`). Each answer is an update with the
/// input, the next pending choice and the rule log entries of that
/// answer; the second also carries the two queens that changed side
/// (d8's becomes White's, d1's Black's).
async fn updates_after_choices(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let g = create(s.addr, json!({"modifiers": ["mind_control"], "seed": 0})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let ask = expect_valid(&mut w, "request-choice", &schema).await;
    w.send(json!({"kind": "submit-choice", "choiceId": ask["choiceId"], "value": "d8"}))
        .await;
    let u = expect_valid(&mut w, "update", &schema).await;
    assert_eq!(u["seq"], 1);
    assert_eq!(u["input"]["choice"], "d8");
    assert!(u["move"].is_null());
    assert!(u["pieces"].is_null(), "nothing swapped yet: {u}");
    assert_eq!(u["pendingChoice"]["forPlayer"], "black");
    assert_eq!(u["status"]["status"], "awaiting-choice");
    assert_eq!(u["events"][0]["event"], "choice", "{u}");
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    let ask = expect_valid(&mut bl, "request-choice", &schema).await;
    bl.send(json!({"kind": "submit-choice", "choiceId": ask["choiceId"], "value": "d1"}))
        .await;
    let u = expect_valid(&mut w, "update", &schema).await;
    assert_eq!(u["seq"], 2);
    assert!(u["pendingChoice"].is_null());
    let changed = u["pieces"]["changed"]
        .as_array()
        .unwrap_or_else(|| panic!("{u}"));
    let mut swapped: Vec<(String, String, String)> = changed
        .iter()
        .map(|p| {
            let f = |k: &str| p[k].as_str().unwrap().to_string();
            (f("square"), f("type"), f("color"))
        })
        .collect();
    swapped.sort();
    assert_eq!(
        swapped,
        [
            ("d1".to_string(), "queen".to_string(), "black".to_string()),
            ("d8".to_string(), "queen".to_string(), "white".to_string())
        ]
    );
    assert_eq!(u["pieces"]["removed"], json!([]));
    let fen = u["fen"].as_str().unwrap();
    assert!(
        fen.starts_with("rnbQkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBqKBNR w"),
        "{fen}"
    );
    let full = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    for k in ["fen", "legalMoves", "pendingChoice", "seq", "status"] {
        assert_eq!(u[k], full[k], "{k}");
    }
}

/// The moves of a scripted FIDE game of 112 plies without a capture, a
/// fivefold repetition or 75 moves without a pawn move: 8 blocks of a
/// knight dance (Nf3 Nf6 Ng1 Ng8, Nc3 Nc6 Nb1 Nb8, Nf3 Nf6 Ng1 Ng8: the
/// block's first position comes back 3 times, 4 with its first) and one
/// double step of a pawn each on one file (a4 a5, b4 b5, …, h4 h5), which
/// makes every block's positions new.
fn scripted_game() -> Vec<String> {
    let dance = [
        "g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8", "g1f3", "g8f6", "f3g1",
        "f6g8",
    ];
    let mut moves = Vec::new();
    for file in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        moves.extend(dance.iter().map(|m| m.to_string()));
        moves.push(format!("{file}2{file}4"));
        moves.push(format!("{file}7{file}5"));
    }
    moves
}

/// An update's JSON text without the fields that may legitimately differ
/// between two plays of the same move at different plies (the FEN, the
/// legal moves, the clock's time) and with every number written as 0
/// (seq, plyCount, ply numbers in the log entries' details).
fn normalised(u: &Value) -> String {
    let mut u = u.clone();
    for k in ["fen", "legalMoves", "clock"] {
        u.as_object_mut().unwrap().remove(k);
    }
    let text = u.to_string();
    let mut out = String::new();
    let mut in_number = false;
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push('0');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(ch);
        }
    }
    out
}

/// No update grows with the game: Nf3 played at ply 0 and at ply 98 of
/// the scripted game gives the same update up to the FEN, the legal moves
/// and the numbers, while the full state grew by the log of 98 plies.
/// The bounds of the parts that differ are the board's: a FEN of an 8×8
/// board is at most 92 characters (64 squares as 8 ranks of at most 8
/// characters and 7 slashes = 71, side, castling 4, en passant 2, two
/// counters of at most 4 digits, 5 spaces), and a chess position has at
/// most 218 legal moves.
async fn update_size_does_not_grow(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 1).await;
    let moves = scripted_game();
    assert_eq!(moves.len(), 112);
    let mut updates = Vec::new();
    let mut state_sizes = Vec::new();
    for (ply, m) in moves.iter().enumerate() {
        if ply % 2 == 0 {
            w.mv(m, ply as u32).await;
        } else {
            bl.mv(m, ply as u32).await;
        }
        let u = expect_valid(&mut w, "update", &schema).await;
        assert_eq!(u["seq"], ply as u64 + 1, "{m}");
        assert_eq!(u["input"]["move"], m.as_str(), "{u}");
        let st = bl.expect("state").await;
        state_sizes.push(st.to_string().len());
        updates.push(u);
    }
    assert_eq!(updates[111]["status"]["status"], "ongoing");
    // Nf3 (g1f3) opens block 1 (ply 0) and block 8 (ply 98 = 7 × 14).
    let (early, late) = (&updates[0], &updates[98]);
    assert_eq!(late["move"], json!({"uci": "g1f3", "san": "Nf3"}));
    assert_eq!(normalised(early), normalised(late));
    for u in [early, late] {
        assert!(u["fen"].as_str().unwrap().len() <= 92);
        assert!(u["legalMoves"].as_array().unwrap().len() <= 218);
    }
    // Every update of the game stays within the first one's size plus
    // what the FEN, the legal moves and the numbers may add: 92 FEN
    // characters, 218 moves of at most 8 characters with quotes and a
    // comma, and 100 more characters for the numbers (seq, plyCount,
    // clock, the plies named in the log details).
    let first = updates[0].to_string().len();
    let bound = first + 92 + 218 * 8 + 100;
    for (i, u) in updates.iter().enumerate() {
        assert!(u.to_string().len() <= bound, "update {i}: {u}");
    }
    // The full state did grow with the log: the same move's state is
    // larger by more than 98 log entries of at least 20 characters.
    assert!(
        state_sizes[98] > state_sizes[0] + 98 * 20,
        "{} vs {}",
        state_sizes[98],
        state_sizes[0]
    );
}

/// `resync` after a gap returns the missed updates (the same texts), and
/// the full `state` when the gap is older than the kept history (16
/// updates, game::events::HISTORY_LEN); nothing when nothing was missed.
/// A resent move gets the latest update again.
async fn resync_after_a_gap(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let client = client_schema();
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    let moves = scripted_game();
    let mut seen = Vec::new();
    for (ply, m) in moves[..5].iter().enumerate() {
        let c = if ply % 2 == 0 { &mut w } else { &mut bl };
        c.mv(m, ply as u32).await;
        seen.push(expect_valid(&mut w, "update", &schema).await);
    }
    // The client has seq 2 and missed 3 to 5.
    let ask = json!({"kind": "resync", "lastSeq": 2});
    assert_valid(&client, &ask);
    w.send(ask).await;
    let got = w.until_pong().await;
    assert_eq!(got, seen[2..5].to_vec(), "the missed updates, in order");
    // Nothing missed: nothing sent.
    w.send(json!({"kind": "resync", "lastSeq": 5})).await;
    assert_eq!(w.until_pong().await, Vec::<Value>::new());
    // Five plies played (White's at 0, 2, 4): White resends its move for
    // ply 4 (g1f3), as after a reconnect: answered with the latest update
    // (seq 5), nothing played twice.
    w.mv(&moves[4], 4).await;
    let again = w.until_pong().await;
    assert_eq!(again, vec![seen[4].clone()]);
    // 20 more plies: seq 25; the history keeps 10..=25, so a client at
    // seq 2 gets the full state.
    for (ply, m) in moves.iter().enumerate().take(25).skip(5) {
        let c = if ply % 2 == 0 { &mut w } else { &mut bl };
        c.mv(m, ply as u32).await;
        expect_valid(&mut w, "update", &schema).await;
    }
    w.send(json!({"kind": "resync", "lastSeq": 2})).await;
    let got = w.until_pong().await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_valid(&schema, &got[0]);
    assert_eq!(got[0]["kind"], "state");
    assert_eq!(got[0]["seq"], 25);
    assert_eq!(got[0]["state"]["plyCount"], 25);
    // seq 9 is just out of the history (10..=25 kept): full state; seq 9
    // is the oldest gap answered with updates (10 to 25: 16 of them).
    w.send(json!({"kind": "resync", "lastSeq": 8})).await;
    let got = w.until_pong().await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0]["kind"], "state");
    w.send(json!({"kind": "resync", "lastSeq": 9})).await;
    let got = w.until_pong().await;
    assert_eq!(got.len(), 16);
    assert_eq!(got[0]["seq"], 10);
    assert_eq!(got[15]["seq"], 25);
    // A client ahead of the game (a stale seq from another game): the
    // full state.
    w.send(json!({"kind": "resync", "lastSeq": 99})).await;
    let got = w.until_pong().await;
    assert_eq!(got[0]["kind"], "state");
    // A malformed resync is refused at its field.
    w.send(json!({"kind": "resync"})).await;
    let e = w.expect("error").await;
    assert_eq!(e["code"], "message.malformed");
    assert!(e["message"].as_str().unwrap().contains("lastSeq"), "{e}");
}

/// A change without an input reaches v3 clients as a bounded `patch`:
/// the free seat of an open challenge taken (`seats`), while a v1 client
/// gets the full state as before.
async fn patch_when_a_seat_is_taken(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let g = create(s.addr, json!({"seat": "white"})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut spec = Client::connect(s.addr, &g.id, "", 1).await;
    assert_eq!(
        w.welcome["state"]["seats"],
        json!({"white": true, "black": false})
    );
    let (status, body) = http(s.addr, "POST", &format!("/api/games/{}/join", g.id), None).await;
    assert_eq!(status, 200, "{body}");
    let p = expect_valid(&mut w, "patch", &schema).await;
    assert_eq!(p["seq"], 0, "no input, no new seq");
    assert_eq!(p["seats"], json!({"white": true, "black": true}));
    assert!(p.get("state").is_none() && p.get("log").is_none());
    let st = spec.expect("state").await;
    assert_eq!(st["state"]["seats"], json!({"white": true, "black": true}));
}

/// A v3 client and a v2 client in one game: the v2 client still gets
/// `state` (and the v3 one never does after welcome).
async fn versions_side_by_side(b: Backend) {
    let s = start(b).await;
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 2).await;
    w.mv("e2e4", 0).await;
    let st = bl.expect("state").await;
    assert_eq!(st["state"]["plyCount"], 1);
    bl.mv("e7e5", 1).await;
    // Black's own answer first: `until_pong` orders only w's messages, and
    // black's move comes through another socket. Sent at once, w's ping
    // could reach the game before black's move did, and the pong came
    // before the second update (the update count was 1 once in a full
    // run of session 11).
    // Once black has its state, the game has queued w's update too (one
    // step sends to every connection), so it comes before the pong.
    bl.state_where(|st| st["plyCount"] == 2).await;
    let got = w.until_pong().await;
    let kinds: Vec<&str> = got.iter().filter_map(|m| m["kind"].as_str()).collect();
    assert!(!kinds.contains(&"state"), "{kinds:?}");
    assert_eq!(
        kinds.iter().filter(|k| **k == "update").count(),
        2,
        "{kinds:?}"
    );
}

/// Issue 26: check is the rules' in force, not standard chess's. After
/// `1. c3 f6 2. a3 Kf7 3. a4 Kg6` the diagonal c2–g6 is empty; then `4. Qc2`
/// gives check in standard chess (python-chess: `Qc2+`, `is_check()`
/// true), but under `trans-rights` a queen steps like a king
/// (docs/presets.md), so the queen on c2 attacks nothing on g6: no check,
/// SAN `Qc2` (`houserules moves --rules trans-rights` lists `d1c2 Qc2`).
/// The state's and the update's `inCheck`, and the update's SAN, say so.
/// (The line of the page's report, `Qe2` on an open e-file, is illegal
/// under trans-rights here: kings slide like queens, and the two kings
/// would face each other on the file.)
async fn in_check_follows_the_rules_in_force(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let line = ["c2c3", "f7f6", "a2a3", "e8f7", "a3a4", "f7g6", "d1c2"];
    for (presets, check, san) in [
        (json!([]), true, "Qc2+"),
        (json!(["trans-rights"]), false, "Qc2"),
    ] {
        let g = create(s.addr, json!({"presets": presets})).await;
        let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
        let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
        assert_eq!(w.welcome["state"]["inCheck"], false);
        let mut last = Value::Null;
        for (ply, m) in line.iter().enumerate() {
            let c = if ply % 2 == 0 { &mut w } else { &mut bl };
            c.mv(m, ply as u32).await;
            last = expect_valid(&mut w, "update", &schema).await;
            let _ = bl.expect("update").await;
            if ply < 6 {
                assert_eq!(last["inCheck"], false, "{presets}: ply {ply}");
            }
        }
        assert_eq!(last["move"]["san"], san, "{presets}");
        assert_eq!(last["inCheck"], check, "{presets}: {last}");
        let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
        assert_eq!(st["inCheck"], check, "{presets}: the full state");
        let pgn = http(s.addr, "GET", &format!("/api/games/{}/pgn", g.id), None).await;
        assert!(pgn.1.contains(&format!("4. {san} *")), "{}", pgn.1);
    }
}

/// Issue 26 item 9: the state and the updates say when a draw can be
/// claimed. `1. Nf3 Nf6 2. Ng1 Ng8` twice brings the start position back
/// for the third time with White to move (FIDE 9.2.2): `drawClaim` is
/// null until the eighth ply, `threefold-repetition` after it.
async fn draw_claim_in_the_state(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    assert!(w.welcome["state"]["drawClaim"].is_null(), "{}", w.welcome);
    let line = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    for (ply, m) in line.iter().enumerate() {
        let c = if ply % 2 == 0 { &mut w } else { &mut bl };
        c.mv(m, ply as u32).await;
        let u = expect_valid(&mut w, "update", &schema).await;
        let _ = bl.expect("update").await;
        let want = if ply == 7 {
            json!("threefold-repetition")
        } else {
            Value::Null
        };
        assert_eq!(u["drawClaim"], want, "ply {ply}: {u}");
    }
    let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(st["drawClaim"], "threefold-repetition");
}

/// Issue 26 item 6: an update's events name the rule that wrote them and
/// say what the presets did. Under `piece-hp` (kings 1 point, others 2,
/// RULINGS P6), from White K e1, R d1; Black K e8, P d5: Rd1xd5 takes a
/// point and the pawn, left with 1, is pushed to the first empty square
/// clockwise from north of d5, d6. The update's events: the move (no
/// rule), `hp` 2 → 1 on d6 and `pushed` d5 → d6, both the preset's
/// (`{kind: preset, id: piece-hp, name: Hit Points}`), valid against the
/// schema (which now has `rule`).
async fn events_name_their_rule(b: Backend) {
    let s = start(b).await;
    let schema = server_schema();
    let g = create(
        s.addr,
        json!({"fen": "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "presets": ["piece-hp"]}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    w.mv("d1d5", 0).await;
    let u = expect_valid(&mut w, "update", &schema).await;
    let events = u["events"].as_array().expect("events");
    let hp_rule = json!({"kind": "preset", "id": "piece-hp", "name": "Hit Points"});
    assert_eq!(events.len(), 3, "{u}");
    assert_eq!(events[0]["event"], "move");
    assert!(events[0].get("rule").is_none(), "a move is no rule's: {u}");
    assert_eq!(events[1]["event"], "hp");
    assert_eq!(
        (
            &events[1]["detail"]["square"],
            &events[1]["detail"]["hp"],
            &events[1]["detail"]["was"]
        ),
        (&json!("d6"), &json!(1), &json!(2))
    );
    assert_eq!(events[1]["rule"], hp_rule);
    assert_eq!(events[2]["event"], "pushed");
    assert_eq!(
        (&events[2]["detail"]["from"], &events[2]["detail"]["to"]),
        (&json!("d5"), &json!("d6"))
    );
    assert_eq!(events[2]["rule"], hp_rule);
    // The full state's log says the same.
    let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(st["log"][2]["rule"]["name"], "Hit Points", "{st}");
}

/// `#` in PGN says checkmate (PGN standard §8.2.3.5). Under First Blood
/// (`capture-to-win`) 1. e4 d5 2. exd5 wins by the capture, not by mate:
/// python-chess 1.11.2 reading the game as standard chess finds no mate
/// after 2. exd5 (`board.is_checkmate()` False) and writes its SAN
/// `exd5`, so the PGN writes `2. exd5 1-0`, not `exd5#`. A real mate
/// under house rules keeps it: with `parry` (which contests captures
/// only) 1. f3 e5 2. g4 Qh4# is fool's mate (python-chess `Qh4#`).
/// (Under `capture-to-win` itself
/// "checkmate does not end the game": the preset's description; a side
/// left without moves is stalemated.)
async fn first_blood_is_no_mate_in_the_pgn(b: Backend) {
    let s = start(b).await;
    for (request, line, want) in [
        (
            json!({"presets": ["capture-to-win"]}),
            ["e2e4", "d7d5", "e4d5"].as_slice(),
            "2. exd5 1-0",
        ),
        (
            json!({"modifiers": ["parry"], "seed": 1}),
            ["f2f3", "e7e5", "g2g4", "d8h4"].as_slice(),
            "2. g4 Qh4# 0-1",
        ),
    ] {
        let g = create(s.addr, request).await;
        let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
        let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
        for (ply, m) in line.iter().enumerate() {
            let c = if ply % 2 == 0 { &mut w } else { &mut bl };
            c.mv(m, ply as u32).await;
            let _ = w.expect("update").await;
            let _ = bl.expect("update").await;
        }
        let pgn = http(s.addr, "GET", &format!("/api/games/{}/pgn", g.id), None).await;
        assert!(pgn.1.contains(want), "{want}: {}", pgn.1);
    }
}

on_both!(
    events_name_their_rule,
    first_blood_is_no_mate_in_the_pgn,
    updates_after_a_move_and_events,
    draw_claim_in_the_state,
    in_check_follows_the_rules_in_force,
    updates_after_choices,
    update_size_does_not_grow,
    resync_after_a_gap,
    patch_when_a_seat_is_taken,
    versions_side_by_side,
);
