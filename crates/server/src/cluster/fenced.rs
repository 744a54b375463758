//! The store of a cluster node: the SQL store, with every append made
//! under the node's fence for the game ([`crate::store::Fence`]), so that
//! the game's task appends as it always does and never knows it runs in a
//! cluster.

use std::sync::{Arc, Weak};

use async_trait::async_trait;

use super::Cluster;
use crate::store::{
    Entry, GameRow, ModifierOwner, Saved, SeatName, SqlStore, Store, StoreError, Summary, FENCED,
};

/// [`SqlStore`] with fenced appends.
pub struct FencedStore {
    sql: Arc<SqlStore>,
    cluster: Weak<Cluster>,
}

impl FencedStore {
    /// The store of `cluster`'s node over `sql`.
    pub fn new(sql: Arc<SqlStore>, cluster: &Arc<Cluster>) -> FencedStore {
        FencedStore {
            sql,
            cluster: Arc::downgrade(cluster),
        }
    }
}

#[async_trait]
impl Store for FencedStore {
    fn node(&self) -> Option<String> {
        self.cluster.upgrade().map(|c| c.node().to_string())
    }

    async fn create_game(&self, game: &GameRow) -> Result<(), StoreError> {
        self.sql.create_game(game).await
    }

    /// An append under this node's fence for the game; a fenced refusal
    /// (or no fence: the node does not own the game) lets the game go.
    async fn append(
        &self,
        game_id: &str,
        entry: &Entry,
        finished: Option<&str>,
    ) -> Result<(), StoreError> {
        let cluster = self.cluster.upgrade();
        let fence = cluster.as_ref().and_then(|c| c.fence(game_id));
        let r = match fence {
            Some(f) => self.sql.append_fenced(game_id, entry, finished, f).await,
            None => Err(StoreError {
                op: format!("append input {} of game {game_id}", entry.seq),
                message: format!("{FENCED} (it holds no lease of it)"),
            }),
        };
        if let (Err(e), Some(c)) = (&r, &cluster) {
            if e.is_fenced() {
                c.count(|m| {
                    m.fenced_appends.inc();
                });
                c.fenced(game_id);
            }
        }
        r
    }

    async fn take_seat(
        &self,
        game_id: &str,
        seat: SeatName,
        token: &str,
        status: &str,
    ) -> Result<bool, StoreError> {
        self.sql.take_seat(game_id, seat, token, status).await
    }

    async fn set_request(&self, game_id: &str, request: &str) -> Result<(), StoreError> {
        self.sql.set_request(game_id, request).await
    }

    async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        self.sql.game(id).await
    }

    async fn entries(&self, id: &str) -> Result<Vec<Entry>, StoreError> {
        self.sql.entries(id).await
    }

    async fn list(&self, status: Option<&str>, limit: i64) -> Result<Vec<Summary>, StoreError> {
        self.sql.list(status, limit).await
    }

    async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.sql.unfinished().await
    }

    async fn unfinished_summaries(&self) -> Result<Vec<Summary>, StoreError> {
        self.sql.unfinished_summaries().await
    }

    async fn set_final_state(&self, game_id: &str, state: &str) -> Result<(), StoreError> {
        self.sql.set_final_state(game_id, state).await
    }

    async fn final_state(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.sql.final_state(game_id).await
    }

    async fn keep_final_state(&self, game_id: &str, state: &str) -> Result<(), StoreError> {
        self.sql.keep_final_state(game_id, state).await
    }

    async fn save_modifier(
        &self,
        id: &str,
        descriptor: &str,
        owner: &ModifierOwner,
        at_ms: i64,
    ) -> Result<Saved, StoreError> {
        self.sql.save_modifier(id, descriptor, owner, at_ms).await
    }

    async fn saved_modifiers(&self) -> Result<Vec<(String, String)>, StoreError> {
        self.sql.saved_modifiers().await
    }
}
