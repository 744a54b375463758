//! `houserules serve`: the game server (crates/server).

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use crate::error::{CliError, Outcome};

const EXAMPLES: &str = "\
Examples:
  houserules serve
  houserules serve --addr 0.0.0.0:8080 --db sqlite:/var/lib/houserules/games.db
  houserules serve --db postgres://postgres@127.0.0.1:5432/test

  curl -s -X POST localhost:8080/api/games -d '{\"presets\": [\"knight-immunity\"], \"clock\": {\"initialSeconds\": 300, \"incrementSeconds\": 2}}'

Games are kept in a SQLite file (houserules-games.db in the current
directory by default) or in Postgres. At start, the unfinished games
with a running clock, a choice timer or an engine seat are rebuilt from
their logs; the others are rebuilt on their first request. A finished game
leaves memory when its last connection closes, an idle one after
--idle-unload seconds. The API and the WebSocket protocol are in
docs/protocol.md; the OpenAPI document is served at /api/openapi.json.";

/// Options of `houserules serve`.
#[derive(Debug, Args)]
#[command(after_help = EXAMPLES)]
pub struct ServeArgs {
    /// The address to listen on
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Where games are kept: sqlite:PATH or postgres://USER@HOST:PORT/DB
    #[arg(long, value_name = "URL", default_value = "sqlite:houserules-games.db")]
    db: String,
    /// Seconds a player must be gone before the opponent may claim the win
    #[arg(long, value_name = "SECONDS", default_value_t = 40)]
    claim_victory_after: u64,
    /// Seconds an unfinished game with no connection and nothing timed stays in memory
    #[arg(long, value_name = "SECONDS", default_value_t = 120)]
    idle_unload: u64,
}

/// Runs the server until the process is stopped.
pub fn run(args: &ServeArgs, out: &mut dyn Write) -> Result<Outcome, CliError> {
    if !(args.db.starts_with("sqlite:")
        || args.db.starts_with("postgres://")
        || args.db.starts_with("postgresql://"))
    {
        return Err(CliError::input(format!(
            "--db {}: use sqlite:PATH or postgres://USER@HOST:PORT/DB",
            args.db
        )));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::input(format!("cannot start the async runtime: {e}")))?;
    let config = houserules_server::Config {
        timing: houserules_server::game::Timing {
            claim_victory_after: Duration::from_secs(args.claim_victory_after),
            idle_unload: Duration::from_secs(args.idle_unload),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut printed = Ok(());
    let served = runtime.block_on(houserules_server::serve(
        args.addr,
        &args.db,
        None,
        config,
        |addr, rebuilt| {
            printed = writeln!(
                out,
                "houserules server on http://{addr}/ (games in {}; {rebuilt} unfinished game{} rebuilt)",
                args.db,
                if rebuilt == 1 { "" } else { "s" }
            )
            .and_then(|()| out.flush());
        },
    ));
    printed?;
    served.map_err(CliError::input)?;
    Ok(Outcome::Success)
}
