//! Auras and effective attributes.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Session;

impl Session {
    /// Effective attributes of a piece.
    pub(crate) fn effective_attrs(&self, id: u16) -> BTreeMap<String, Value> {
        self.st.attrs.get(&id).cloned().unwrap_or_default()
    }
}
