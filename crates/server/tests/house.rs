//! Rematch and takeback (issue 26): `POST /api/games/{id}/rematch`, the
//! takeback messages, their errors, and replays after a restart.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{create, fast, fresh_db, get_json, start, start_on, Backend, Client};
use serde_json::{json, Value};

/// `POST /api/games/{id}/rematch` with `Authorization: Bearer token` (none
/// when `token` is `None`): (status, JSON body).
async fn rematch(addr: SocketAddr, id: &str, token: Option<&str>) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!(
        "POST /api/games/{id}/rematch HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Length: 0\r\nConnection: close\r\n\r\n"
    );
    s.write_all(head.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// `POST path` with `body` and `Authorization: Bearer token` (none when
/// `token` is `None`): (status, JSON body).
async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: &str) -> (u16, Value) {
    let (status, body) = common::post_as(addr, path, token, body).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// The PGN of a game.
async fn pgn_of(addr: SocketAddr, id: &str) -> String {
    common::http(addr, "GET", &format!("/api/games/{id}/pgn"), None)
        .await
        .1
}

/// Issue 26 (trial 20 item 8): an invited friend names their seat once
/// with `POST /api/games/{id}/name` and its token; every page is told
/// (the patch's `players`), the PGN and the lobby say it, a restart keeps
/// it; a second naming, a creator's name, a bad token or a bad name are
/// refused with their codes.
async fn an_invited_friend_names_their_seat_once(b: Backend) {
    let db = fresh_db(b);
    let s = start_on(db.clone(), fast()).await;
    let g = create(s.addr, json!({"white": "Ann"})).await;
    let path = format!("/api/games/{}/name", g.id);
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    assert_eq!(
        w.welcome["state"]["players"],
        json!({"white": "Ann", "black": null})
    );
    // Refusals first: nothing is named by them.
    let (st, e) = post(s.addr, &path, None, r#"{"name": "Bo"}"#).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (401, Some("request.no-token")),
        "{e}"
    );
    let (st, e) = post(s.addr, &path, Some(&"0".repeat(48)), r#"{"name": "Bo"}"#).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (403, Some("seat.bad-token")),
        "{e}"
    );
    let long = "x".repeat(101);
    for (body, code) in [
        (format!(r#"{{"name": "{long}"}}"#), "request.bad-name"),
        (r#"{"name": "a\u202eb"}"#.to_string(), "request.bad-name"),
        (r#"{"name": "a\u0007b"}"#.to_string(), "request.bad-name"),
        (r#"{"name": "   "}"#.to_string(), "request.bad-name"),
        (r#"{"name": "engine:3"}"#.to_string(), "request.bad-name"),
        (r#"{"name": 7}"#.to_string(), "request.bad-name"),
        ("{}".to_string(), "request.bad-name"),
        ("".to_string(), "request.bad-name"),
        (
            r#"{"name": "Bo", "colour": "red"}"#.to_string(),
            "request.unknown-field",
        ),
        ("[1]".to_string(), "request.bad-json"),
        ("{".to_string(), "request.bad-json"),
    ] {
        let (st, e) = post(s.addr, &path, Some(&g.black), &body).await;
        assert_eq!(st, 400, "{body}: {e}");
        assert_eq!(e["findings"][0]["code"], code, "{body}: {e}");
    }
    let (st, e) = post(s.addr, &path, Some(&g.black), r#"{"name": "a\u202eb"}"#).await;
    assert_eq!(e["findings"][0]["path"], "$.name", "{st} {e}");
    assert!(
        e["findings"][0]["message"]
            .as_str()
            .unwrap()
            .contains("U+202E at character 2"),
        "{e}"
    );
    // The friend's name, trimmed.
    let (st, v) = post(s.addr, &path, Some(&g.black), r#"{"name": "  Bo  "}"#).await;
    assert_eq!((st, &v), (200, &json!({"seat": "black", "name": "Bo"})));
    loop {
        let patch = w.expect("patch").await;
        if patch["players"] == json!({"white": "Ann", "black": "Bo"}) {
            break;
        }
    }
    // Once only, and the creator's name stays.
    let (st, e) = post(s.addr, &path, Some(&g.black), r#"{"name": "Cy"}"#).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("name.already-set")),
        "{e}"
    );
    let (st, e) = post(s.addr, &path, Some(&g.white), r#"{"name": "Cy"}"#).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("name.already-set")),
        "{e}"
    );
    assert!(pgn_of(s.addr, &g.id).await.contains("[Black \"Bo\"]"));
    let lobby = get_json(s.addr, "/api/games").await;
    assert_eq!(lobby[0]["request"]["black"], "Bo", "{lobby}");
    drop(w);
    drop(s);
    let s = start_on(db, fast()).await;
    let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(
        st["players"],
        json!({"white": "Ann", "black": "Bo"}),
        "{st}"
    );
    assert!(pgn_of(s.addr, &g.id).await.contains("[Black \"Bo\"]"));
}

/// Issue 26 (trial 20 item 8): the joiner of an open challenge names the
/// seat in the join's body; a join without a body stays unnamed (and can
/// be named later); a refused name takes no seat.
async fn a_joiner_names_the_seat_in_the_join(b: Backend) {
    let s = start(b).await;
    let (st, v) = post(
        s.addr,
        "/api/games",
        None,
        r#"{"seat": "white", "white": "Carol"}"#,
    )
    .await;
    assert_eq!(st, 201, "{v}");
    let id = v["id"].as_str().unwrap().to_string();
    let join = format!("/api/games/{id}/join");
    let (st, e) = post(s.addr, &join, None, r#"{"name": "engine:2"}"#).await;
    assert_eq!(
        (st, e["findings"][0]["code"].as_str()),
        (400, Some("request.bad-name")),
        "{e}"
    );
    let open = get_json(s.addr, "/api/games?status=open").await;
    assert_eq!(
        open[0]["id"],
        id.as_str(),
        "a refused join takes no seat: {open}"
    );
    let (st, j) = post(s.addr, &join, None, r#"{"name": "Dan"}"#).await;
    assert_eq!(
        (st, j["seat"].as_str(), j["name"].as_str()),
        (200, Some("black"), Some("Dan")),
        "{j}"
    );
    let st_ = get_json(s.addr, &format!("/api/games/{id}")).await;
    assert_eq!(st_["players"], json!({"white": "Carol", "black": "Dan"}));
    assert_eq!(
        get_json(s.addr, "/api/games?status=live").await[0]["request"]["black"],
        "Dan"
    );
    assert!(pgn_of(s.addr, &id).await.contains("[Black \"Dan\"]"));
    // Unnamed join, named afterwards with the joined token.
    let (_, v) = post(s.addr, "/api/games", None, r#"{"seat": "black"}"#).await;
    let id = v["id"].as_str().unwrap().to_string();
    let (st, j) = post(s.addr, &format!("/api/games/{id}/join"), None, "").await;
    assert_eq!((st, j.get("name")), (200, None), "{j}");
    let (st, v) = post(
        s.addr,
        &format!("/api/games/{id}/name"),
        j["token"].as_str(),
        r#"{"name": "Eve"}"#,
    )
    .await;
    assert_eq!((st, &v), (200, &json!({"seat": "white", "name": "Eve"})));
    assert!(pgn_of(s.addr, &id).await.contains("[White \"Eve\"]"));
}

/// Trial 20: a capture waiting for its Parry throw had no SAN on a page
/// loaded meanwhile (the move list read `Kxe2`'s UCI `e1e2`), and the
/// update's own SAN took its check sign from the position with the mover
/// still to move. The contested move's update and the state's
/// `pendingMove` carry its SAN without a sign; after a restart too; the
/// decision clears it. Hand derivation: in `4k3/8/8/8/8/8/4r3/4K3 w`, the
/// white king in check takes the rook on e2 (`Kxe2`); while the throw
/// waits the board is unchanged, so White is still in check there (the
/// old update said `Kxe2+`); after it, Black's king on e8 is not in check
/// (python-chess: `Kxe2`).
async fn a_contested_move_has_its_san_while_the_throw_waits(b: Backend) {
    let db = fresh_db(b);
    let s = start_on(db.clone(), fast()).await;
    let g = create(
        s.addr,
        json!({"fen": "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "modifiers": ["parry"], "seed": 0}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    w.mv("e1e2", 0).await;
    let u = w.expect("update").await;
    assert_eq!(u["move"], json!({"uci": "e1e2", "san": "Kxe2"}), "{u}");
    assert_eq!(
        u["pendingMove"],
        json!({"uci": "e1e2", "san": "Kxe2"}),
        "{u}"
    );
    let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(
        st["pendingMove"],
        json!({"uci": "e1e2", "san": "Kxe2"}),
        "{st}"
    );
    drop((w, bl));
    drop(s);
    let s = start_on(db, fast()).await;
    let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(
        st["pendingMove"],
        json!({"uci": "e1e2", "san": "Kxe2"}),
        "after a restart: {st}"
    );
    let id = st["pendingChoice"]["choiceId"].clone();
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    // Trial 20: a bad answer's code was the session's bare `bad-choice`.
    w.send(json!({"kind": "submit-choice", "choiceId": id, "value": "lizard"}))
        .await;
    let e = w.expect("error").await;
    assert_eq!(e["code"], "choice.bad-value", "{e}");
    w.send(json!({"kind": "submit-choice", "choiceId": id, "value": "scissors"}))
        .await;
    let u = w.expect("update").await;
    assert_eq!(
        u["pendingMove"]["san"], "Kxe2",
        "one throw in, still waiting: {u}"
    );
    bl.send(json!({"kind": "submit-choice", "choiceId": id, "value": "paper"}))
        .await;
    // Scissors cut paper: the capture stands, Black to move, no move waits.
    let u = loop {
        let u = w.expect("update").await;
        if u["pendingChoice"].is_null() {
            break u;
        }
    };
    assert_eq!(u["pendingMove"], Value::Null, "{u}");
    assert!(
        u["fen"]
            .as_str()
            .unwrap()
            .starts_with("4k3/8/8/8/8/8/4K3/8 b"),
        "{u}"
    );
    assert!(
        pgn_of(s.addr, &g.id).await.contains("1. Kxe2 {"),
        "the PGN's SAN: no check"
    );
}

/// Trial 20: atomic's move list read `Qxf2` where the PGN had `Qxf2#`.
/// python-chess 1.11.2 (`AtomicBoard("4k3/5p2/8/8/8/5Q2/8/4K3 w - - 0 1")`):
/// `Qxf7#`, the capture explodes the king on e8 and White wins; the
/// board after it is `8/8/8/8/8/8/8/4K3 b - - 0 1`. The update's SAN and
/// the PGN's say the same.
async fn atomic_san_in_the_update_is_the_pgns(b: Backend) {
    let s = start(b).await;
    let g = create(
        s.addr,
        json!({"game": "atomic", "fen": "4k3/5p2/8/8/8/5Q2/8/4K3 w - - 0 1"}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    w.mv("f3f7", 0).await;
    let u = w.expect("update").await;
    assert_eq!(u["move"]["san"], "Qxf7#", "{u}");
    assert!(
        u["fen"]
            .as_str()
            .unwrap()
            .starts_with("8/8/8/8/8/8/8/4K3 b"),
        "{u}"
    );
    let pgn = pgn_of(s.addr, &g.id).await;
    assert!(pgn.contains("1. Qxf7#"), "{pgn}");
}

/// Plays fool's mate (1. f3 e5 2. g4 Qh4#): Black wins.
async fn fools_mate(w: &mut Client, b: &mut Client) {
    for (i, m) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        let c = if i % 2 == 0 { &mut *w } else { &mut *b };
        c.mv(m, i as u32).await;
        w.expect("update").await;
        b.expect("update").await;
    }
}

/// The rematch of a finished game between two persons: the first request
/// makes the new game (colours swapped, same rules and clock) and offers
/// it; the opponent sees the offer and accepts with its own token; both
/// tokens open the new game's swapped seats. Asking twice, a wrong token,
/// an unknown game and an unfinished game are refused with their codes.
async fn rematch_between_two_persons(b: Backend) {
    let s = start(b).await;
    let request = json!({"white": "Ann", "black": "Bob", "modifiers": [],
        "clock": {"initialSeconds": 120, "incrementSeconds": 1}});
    let g = create(s.addr, request).await;
    // Not over yet: refused.
    let (st, e) = rematch(s.addr, &g.id, Some(&g.white)).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("game.not-finished")),
        "{e}"
    );
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    fools_mate(&mut w, &mut bl).await;
    // No token, a wrong token, an unknown game.
    let (st, e) = rematch(s.addr, &g.id, None).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (401, Some("request.no-token")),
        "{e}"
    );
    let (st, e) = rematch(s.addr, &g.id, Some("not-a-token")).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (403, Some("seat.bad-token")),
        "{e}"
    );
    let (st, e) = rematch(s.addr, "ffffffffffff", Some(&g.white)).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (404, Some("game.not-found")),
        "{e}"
    );
    // White (Ann) asks: the new game is made, Ann is Black in it.
    let (st, offer) = rematch(s.addr, &g.id, Some(&g.white)).await;
    assert_eq!(st, 201, "{offer}");
    assert_eq!(offer["seat"], "black");
    let new_id = offer["id"].as_str().unwrap().to_string();
    // The page of each side is told (an update with the event and the
    // state's `rematch`), with no second game-over.
    for c in [&mut w, &mut bl] {
        let u = c.expect("update").await;
        assert_eq!(u["input"]["event"], "rematch-offer");
        assert_eq!(
            u["rematch"],
            json!({"game": new_id, "offeredBy": "white", "status": "offered"})
        );
    }
    // Twice: refused.
    let (st, e) = rematch(s.addr, &g.id, Some(&g.white)).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("rematch.already-offered")),
        "{e}"
    );
    // Bob accepts: he is White in the new game.
    let (st, acc) = rematch(s.addr, &g.id, Some(&g.black)).await;
    assert_eq!(st, 200, "{acc}");
    assert_eq!(
        (acc["id"].as_str(), acc["seat"].as_str()),
        (Some(new_id.as_str()), Some("white"))
    );
    let u = w.expect("update").await;
    assert_eq!(u["rematch"]["status"], "accepted");
    // The new game: same rules and clock, names swapped, both seats open
    // with the tokens given.
    let st = get_json(s.addr, &format!("/api/games/{new_id}")).await;
    assert_eq!(st["players"], json!({"white": "Bob", "black": "Ann"}));
    assert_eq!(st["clock"]["white"]["remainingMs"], 120_000);
    assert_eq!(st["plyCount"], 0);
    let nw = Client::connect(s.addr, &new_id, acc["token"].as_str().unwrap(), 3).await;
    assert_eq!(nw.welcome["seat"], "white");
    let nb = Client::connect(s.addr, &new_id, offer["token"].as_str().unwrap(), 3).await;
    assert_eq!(nb.welcome["seat"], "black");
    // Asked again after the agreement: the same seat again (a reloaded page).
    let (st, again) = rematch(s.addr, &g.id, Some(&g.white)).await;
    assert_eq!((st, again["token"].clone()), (200, offer["token"].clone()));
    // The finished game's state and PGN are as before but for `rematch`.
    let old = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(old["result"]["result"], "0-1");
    assert_eq!(old["rematch"]["status"], "accepted");
}

/// A declined offer: the decline reaches both pages, and a second request
/// is refused with `rematch.declined`; the offer survives a restart (it is
/// in the log, not in memory).
async fn rematch_declined_and_kept_over_a_restart(b: Backend) {
    let db = fresh_db(b);
    let s = start_on(db.clone(), fast()).await;
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    fools_mate(&mut w, &mut bl).await;
    let (st, offer) = rematch(s.addr, &g.id, Some(&g.black)).await;
    assert_eq!(
        (st, offer["seat"].as_str()),
        (201, Some("white")),
        "{offer}"
    );
    w.expect("update").await;
    // The one who offered cannot decline for the other.
    bl.send(json!({"kind": "decline-rematch"})).await;
    let e = bl.expect("error").await;
    assert_eq!(e["code"], "rematch.no-offer");
    drop(s);
    let s = start_on(db, fast()).await;
    let v = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(v["rematch"]["status"], "offered", "{}", v["rematch"]);
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    w.send(json!({"kind": "decline-rematch"})).await;
    let u = w.expect("update").await;
    assert_eq!(
        u["input"],
        json!({"event": "rematch-decline", "player": "white"})
    );
    assert_eq!(u["rematch"]["status"], "declined");
    let (st, e) = rematch(s.addr, &g.id, Some(&g.white)).await;
    assert_eq!(
        (st, e["code"].as_str()),
        (409, Some("rematch.declined")),
        "{e}"
    );
}

/// Against the engine: the engine's seat moves to the other colour with
/// its level, and the rematch is agreed at once.
async fn rematch_against_the_engine(b: Backend) {
    let s = start(b).await;
    let g = create(s.addr, json!({"black": "engine:1"})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    w.send(json!({"kind": "resign"})).await;
    w.expect("game-over").await;
    let (st, r) = rematch(s.addr, &g.id, Some(&g.white)).await;
    assert_eq!((st, r["seat"].as_str()), (201, Some("black")), "{r}");
    let id = r["id"].as_str().unwrap();
    let v = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(v["rematch"]["status"], "accepted");
    // The engine is White now and opens the game by itself.
    let mut nb = Client::connect(s.addr, id, r["token"].as_str().unwrap(), 3).await;
    assert_eq!(nb.welcome["state"]["engine"]["color"], "white");
    assert_eq!(nb.welcome["state"]["engine"]["level"], 1);
    let v = if nb.welcome["state"]["plyCount"] == 0 {
        nb.expect("update").await
    } else {
        nb.welcome["state"].clone()
    };
    assert_eq!(v["plyCount"], 1);
}

/// Takeback between two persons: asked by the player who made the last
/// move, declined once, then accepted: the move is gone (the FEN of the
/// position before it, python-chess's `Board()` after 1. e4 for
/// `rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1`), White
/// plays another move, and after a restart the state is byte for byte the
/// same.
async fn takeback_accepted_declined_and_replayed(b: Backend) {
    let db = fresh_db(b);
    let s = start_on(db.clone(), fast()).await;
    let g = create(s.addr, json!({})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    for (i, m) in ["e2e4", "e7e5"].iter().enumerate() {
        let c = if i % 2 == 0 { &mut w } else { &mut bl };
        c.mv(m, i as u32).await;
        w.expect("update").await;
        bl.expect("update").await;
    }
    // White may not take back Black's move; there is no request to answer.
    w.send(json!({"kind": "offer-takeback"})).await;
    assert_eq!(w.expect("error").await["code"], "takeback.not-yours");
    w.send(json!({"kind": "accept-takeback"})).await;
    assert_eq!(w.expect("error").await["code"], "takeback.no-offer");
    // Black asks; White declines.
    bl.send(json!({"kind": "offer-takeback"})).await;
    let u = w.expect("update").await;
    assert_eq!(u["takebackOffer"], "black");
    bl.expect("update").await;
    bl.send(json!({"kind": "offer-takeback"})).await;
    assert_eq!(bl.expect("error").await["code"], "takeback.already-offered");
    w.send(json!({"kind": "decline-takeback"})).await;
    assert_eq!(w.expect("update").await["takebackOffer"], Value::Null);
    bl.expect("update").await;
    // Black asks again; White accepts: everyone gets the full state.
    bl.send(json!({"kind": "offer-takeback"})).await;
    w.expect("update").await;
    bl.expect("update").await;
    w.send(json!({"kind": "accept-takeback"})).await;
    let st = bl.expect("state").await;
    w.expect("state").await;
    assert_eq!(
        st["state"]["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(st["state"]["plyCount"], 1);
    assert_eq!(st["state"]["sideToMove"], "black");
    // Black plays another move for the same ply.
    bl.mv("c7c5", 1).await;
    let u = w.expect("update").await;
    assert_eq!(u["move"]["san"], "c5");
    let before = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    let pgn = common::http(s.addr, "GET", &format!("/api/games/{}/pgn", g.id), None)
        .await
        .1;
    assert!(pgn.contains("1. e4 c5"), "{pgn}");
    w.close().await;
    bl.close().await;
    drop(s);
    let s = start_on(db, fast()).await;
    let after = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    let strip = |mut v: Value| {
        // The moment of the read and who is connected differ.
        v["clock"] = Value::Null;
        v["presence"] = Value::Null;
        v
    };
    assert_eq!(strip(before), strip(after));
}

/// An engine opponent declines every takeback request at once (the
/// decision documented in docs/protocol.md).
async fn takeback_against_the_engine_is_declined(b: Backend) {
    let s = start(b).await;
    let g = create(s.addr, json!({"black": "engine:1"})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    w.mv("e2e4", 0).await;
    // Asked before the engine answers, or after (then it is not one's own
    // last move): either way no takeback happens.
    w.send(json!({"kind": "offer-takeback"})).await;
    let got = w.drain(Duration::from_millis(1500)).await;
    let declined = got
        .iter()
        .any(|m| m["input"]["event"] == "takeback-decline" && m["input"]["player"] == "black");
    let not_yours = got
        .iter()
        .any(|m| m["kind"] == "error" && m["code"] == "takeback.not-yours");
    assert!(declined || not_yours, "{got:?}");
    assert!(!got.iter().any(|m| m["input"]["event"] == "takeback-accept"));
}

/// A move that drew randomness is not taken back: under `second_chance` a
/// capture rolls its 50 % chance (the library descriptor's
/// `with-probability` on `on-captured`), a quiet move draws nothing. So
/// after 1. e4 d5 Black may ask to take back d5, but after 2. exd5 White
/// may not take back the capture.
async fn takeback_refused_after_a_random_draw(b: Backend) {
    let s = start(b).await;
    let g = create(s.addr, json!({"modifiers": ["second_chance"], "seed": 0})).await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    for (i, m) in ["e2e4", "d7d5"].iter().enumerate() {
        let c = if i % 2 == 0 { &mut w } else { &mut bl };
        c.mv(m, i as u32).await;
        w.expect("update").await;
        bl.expect("update").await;
    }
    bl.send(json!({"kind": "offer-takeback"})).await;
    assert_eq!(bl.expect("update").await["takebackOffer"], "black");
    w.expect("update").await;
    // Playing on cancels the request.
    w.mv("e4d5", 2).await;
    let u = bl.expect("update").await;
    assert_eq!(u["takebackOffer"], Value::Null);
    assert!(u["rngStream"].as_u64().unwrap() > 0, "{u}");
    w.expect("update").await;
    w.send(json!({"kind": "offer-takeback"})).await;
    let e = w.expect("error").await;
    assert_eq!(e["code"], "takeback.random", "{e}");
}

/// Regression (session-14 trial): games created without `seed` all used
/// seed 0, so two `minefield` games had their mines on the same squares
/// and a rematch replayed them. Now a request with modifiers or draft mode
/// and no seed (or `null`) gets a fresh random seed, stored in its request
/// (the record shows it, the state's `seed` is it, a restart replays the
/// same mines); a given seed is kept; a request without modifiers or draft
/// mode is stored as sent; a rematch gets a fresh seed.
///
/// Two independent draws of a u32 are equal with probability 2⁻³² (the
/// only way the inequalities below fail without a bug).
async fn default_seed_is_random_stored_and_fresh_for_a_rematch(b: Backend) {
    let db = fresh_db(b);
    let s = start_on(db.clone(), fast()).await;
    let seed_of = |rec: &Value| rec["request"]["seed"].as_u64();
    let mut seeds = Vec::new();
    let mut mines = Vec::new();
    for request in [
        json!({"modifiers": ["minefield"]}),
        json!({"modifiers": ["minefield"], "seed": null}),
    ] {
        let g = create(s.addr, request).await;
        let rec = get_json(s.addr, &format!("/api/games/{}/record", g.id)).await;
        let seed = seed_of(&rec).unwrap_or_else(|| panic!("no seed stored: {rec}"));
        assert!(u32::try_from(seed).is_ok(), "{rec}");
        let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
        assert_eq!(
            st["seed"].as_u64(),
            Some(seed),
            "the state's seed is the stored one"
        );
        seeds.push(seed);
        mines.push((g.id, st["markers"].clone()));
    }
    assert_ne!(seeds[0], seeds[1], "two games drew the same seed");
    // Draft mode draws cards: it gets a seed too.
    let g = create(s.addr, json!({"draft": true})).await;
    let rec = get_json(s.addr, &format!("/api/games/{}/record", g.id)).await;
    assert!(seed_of(&rec).is_some(), "{rec}");
    // A seed given is kept, and a request that draws nothing is kept as sent.
    let g = create(s.addr, json!({"modifiers": ["minefield"], "seed": 7})).await;
    let rec = get_json(s.addr, &format!("/api/games/{}/record", g.id)).await;
    assert_eq!(seed_of(&rec), Some(7));
    let g = create(s.addr, json!({"presets": ["piece-hp"]})).await;
    let rec = get_json(s.addr, &format!("/api/games/{}/record", g.id)).await;
    assert_eq!(rec["request"], json!({"presets": ["piece-hp"]}));

    // A restart rebuilds the games from their stored requests: the same
    // mines.
    drop(s);
    let s = start_on(db, fast()).await;
    for (id, before) in &mines {
        let st = get_json(s.addr, &format!("/api/games/{id}")).await;
        assert_eq!(
            &st["markers"], before,
            "game {id}'s mines moved over a restart"
        );
    }

    // A rematch (White resigns, White asks) gets a fresh seed; an explicit
    // one is not kept either.
    for request in [
        json!({"modifiers": ["minefield"]}),
        json!({"modifiers": ["minefield"], "seed": 7}),
    ] {
        let g = create(s.addr, request).await;
        let old = seed_of(&get_json(s.addr, &format!("/api/games/{}/record", g.id)).await);
        let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
        w.send(json!({"kind": "resign"})).await;
        w.expect("game-over").await;
        let (st, offer) = rematch(s.addr, &g.id, Some(&g.white)).await;
        assert_eq!(st, 201, "{offer}");
        let rec = get_json(
            s.addr,
            &format!("/api/games/{}/record", offer["id"].as_str().unwrap()),
        )
        .await;
        let new = seed_of(&rec);
        assert!(new.is_some(), "{rec}");
        assert_ne!(new, old, "the rematch kept seed {old:?}");
        assert_eq!(rec["request"]["modifiers"], json!(["minefield"]));
    }
}

/// Regression (trial 18): the page offered Takeback while a Parry choice
/// was pending. The server refuses it with `takeback.choice` (the move is
/// undecided: its throw belongs to both players), for the mover and the
/// defender alike, and the game goes on.
async fn takeback_is_refused_while_a_choice_is_pending(b: Backend) {
    let s = start(b).await;
    let g = create(
        s.addr,
        json!({"fen": "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "modifiers": ["parry"], "seed": 0}),
    )
    .await;
    let mut w = Client::connect(s.addr, &g.id, &g.white, 3).await;
    let mut bl = Client::connect(s.addr, &g.id, &g.black, 3).await;
    w.mv("e4d5", 0).await;
    w.expect("request-choice").await;
    bl.expect("request-choice").await;
    for c in [&mut w, &mut bl] {
        c.send(json!({"kind": "offer-takeback"})).await;
        let e = c.expect("error").await;
        assert_eq!(e["code"], "takeback.choice", "{e}");
    }
    let st = get_json(s.addr, &format!("/api/games/{}", g.id)).await;
    assert_eq!(st["takebackOffer"], Value::Null, "{st}");
    assert!(!st["pendingChoice"].is_null(), "{st}");
}

on_both!(
    atomic_san_in_the_update_is_the_pgns,
    an_invited_friend_names_their_seat_once,
    a_joiner_names_the_seat_in_the_join,
    a_contested_move_has_its_san_while_the_throw_waits,
    takeback_is_refused_while_a_choice_is_pending,
    takeback_refused_after_a_random_draw,
    default_seed_is_random_stored_and_fresh_for_a_rematch,
    rematch_between_two_persons,
    rematch_declined_and_kept_over_a_restart,
    rematch_against_the_engine,
    takeback_accepted_declined_and_replayed,
    takeback_against_the_engine_is_declined,
);
